import Foundation

/// Small, dependency-free SVG charts for the benchmark report.
///
/// Both charts use logarithmic value axes: the contenders span three orders of magnitude (a direct
/// call against a promise hop), which a linear axis would flatten into the baseline. The output is
/// deterministic (fixed decimals, input order), so golden-file tests can pin it.
public enum SVGChart {
    /// One named line or bar set.
    public struct Series: Equatable, Sendable {
        public var name: String
        /// `(x, y)` points for a line chart; for a bar chart, one `y` per group in group order
        /// (`nil` where the series has no bar).
        public var points: [(x: Double, y: Double?)]

        public init(name: String, points: [(x: Double, y: Double?)]) {
            self.name = name
            self.points = points
        }

        public static func == (lhs: Series, rhs: Series) -> Bool {
            lhs.name == rhs.name && lhs.points.elementsEqual(rhs.points) { $0.x == $1.x && $0.y == $1.y }
        }
    }

    /// Colours in series order (colour-blind-safe Okabe–Ito palette, then greys).
    static let palette = [
        "#000000", "#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442", "#999999",
        "#666666",
    ]

    static let width = 720.0
    static let height = 420.0
    static let left = 80.0
    static let right = 170.0
    static let top = 40.0
    static let bottom = 60.0

    /// A log-log line chart: one polyline with markers per series.
    ///
    /// - Parameters:
    ///   - title: The heading drawn above the plot.
    ///   - xLabel: The x axis's caption (for example "N (links)").
    ///   - yLabel: The y axis's caption.
    ///   - series: The lines; points with a `nil` or non-positive `y` are skipped.
    ///   - formatY: How a y tick (a power of ten) is labelled.
    public static func logLog(
        title: String,
        xLabel: String,
        yLabel: String,
        series: [Series],
        formatY: (Double) -> String
    ) -> String {
        let points = series.flatMap { $0.points.compactMap { p in p.y.map { (p.x, $0) } } }.filter {
            $0.0 > 0 && $0.1 > 0
        }
        let xs = decades(points.map(\.0))
        let ys = decades(points.map(\.1))
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func px(_ x: Double) -> Double { left + (log10(x) - xs.low) / (xs.high - xs.low) * plotWidth }
        func py(_ y: Double) -> Double { top + plotHeight - (log10(y) - ys.low) / (ys.high - ys.low) * plotHeight }

        var svg = header(title: title)
        for exponent in Int(xs.low)...Int(xs.high) {
            let x = px(pow(10, Double(exponent)))
            svg += line(x, top, x, top + plotHeight, grid: true)
            svg += text(x, top + plotHeight + 18, countLabel(pow(10, Double(exponent))), anchor: "middle")
        }
        for exponent in Int(ys.low)...Int(ys.high) {
            let y = py(pow(10, Double(exponent)))
            svg += line(left, y, left + plotWidth, y, grid: true)
            svg += text(left - 6, y + 4, formatY(pow(10, Double(exponent))), anchor: "end")
        }
        svg += axes(plotWidth: plotWidth, plotHeight: plotHeight, xLabel: xLabel, yLabel: yLabel)
        for (index, entry) in series.enumerated() {
            let color = palette[index % palette.count]
            let visible = entry.points.compactMap { p in p.y.map { (p.x, $0) } }.filter { $0.0 > 0 && $0.1 > 0 }
            if visible.count > 1 {
                let path = visible.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
                svg += "  <polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path)\"/>\n"
            }
            for point in visible {
                svg += "  <circle cx=\"\(f(px(point.0)))\" cy=\"\(f(py(point.1)))\" r=\"3\" fill=\"\(color)\"/>\n"
            }
            svg += legend(index: index, name: entry.name, color: color)
        }
        return svg + "</svg>\n"
    }

    /// A grouped bar chart on a logarithmic axis, with a reference line (for example at 1×).
    ///
    /// - Parameters:
    ///   - groups: The group labels along the x axis.
    ///   - series: One bar per group per series; a `nil` value leaves a gap.
    ///   - reference: The value drawn as a dashed line (the baseline's own ratio).
    public static func logBars(
        title: String,
        yLabel: String,
        groups: [String],
        series: [Series],
        reference: Double,
        formatY: (Double) -> String
    ) -> String {
        let values = series.flatMap { $0.points.compactMap(\.y) }.filter { $0 > 0 } + [reference]
        let ys = decades(values)
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func py(_ y: Double) -> Double { top + plotHeight - (log10(y) - ys.low) / (ys.high - ys.low) * plotHeight }
        let groupWidth = plotWidth / Double(max(groups.count, 1))
        let barWidth = groupWidth * 0.8 / Double(max(series.count, 1))

        var svg = header(title: title)
        for exponent in Int(ys.low)...Int(ys.high) {
            let y = py(pow(10, Double(exponent)))
            svg += line(left, y, left + plotWidth, y, grid: true)
            svg += text(left - 6, y + 4, formatY(pow(10, Double(exponent))), anchor: "end")
        }
        for (groupIndex, group) in groups.enumerated() {
            let x = left + groupWidth * (Double(groupIndex) + 0.5)
            svg += text(x, top + plotHeight + 18, group, anchor: "middle")
        }
        svg += axes(plotWidth: plotWidth, plotHeight: plotHeight, xLabel: "", yLabel: yLabel)
        let bottomY = top + plotHeight
        for (index, entry) in series.enumerated() {
            let color = palette[index % palette.count]
            for (groupIndex, point) in entry.points.enumerated() where groupIndex < groups.count {
                guard let value = point.y, value > 0 else { continue }
                let x = left + groupWidth * (Double(groupIndex) + 0.1) + barWidth * Double(index)
                let y = py(value)
                svg += "  <rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(bottomY - y))\""
                svg +=
                    " fill=\"\(color)\"><title>\(escape(entry.name)) \(escape(group(groups, groupIndex))): \(formatY(value))</title></rect>\n"
            }
            svg += legend(index: index, name: entry.name, color: color)
        }
        let referenceY = py(reference)
        svg += "  <line x1=\"\(f(left))\" y1=\"\(f(referenceY))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(referenceY))\""
        svg += " stroke=\"#000000\" stroke-dasharray=\"6 4\"/>\n"
        return svg + "</svg>\n"
    }

    // MARK: Pieces

    private static func group(_ groups: [String], _ index: Int) -> String { groups[index] }

    /// The decade range (as exponents) that covers `values`, at least one decade wide.
    static func decades(_ values: [Double]) -> (low: Double, high: Double) {
        let logs = values.filter { $0 > 0 }.map(log10)
        guard let low = logs.min(), let high = logs.max() else { return (0, 1) }
        let floorLow = floor(low + 1e-9)
        let ceilHigh = ceil(high - 1e-9)
        return (floorLow, max(ceilHigh, floorLow + 1))
    }

    private static func header(title: String) -> String {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
        svg += " viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        svg += text(width / 2, 22, title, anchor: "middle", extra: " font-size=\"15\" font-weight=\"bold\"")
        return svg
    }

    private static func axes(plotWidth: Double, plotHeight: Double, xLabel: String, yLabel: String) -> String {
        var svg = line(left, top + plotHeight, left + plotWidth, top + plotHeight, grid: false)
        svg += line(left, top, left, top + plotHeight, grid: false)
        if !xLabel.isEmpty { svg += text(left + plotWidth / 2, height - 16, xLabel, anchor: "middle") }
        let middle = top + plotHeight / 2
        svg += "  <text x=\"18\" y=\"\(f(middle))\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(f(middle)))\">"
        svg += "\(escape(yLabel))</text>\n"
        return svg
    }

    private static func legend(index: Int, name: String, color: String) -> String {
        let x = width - right + 16
        let y = top + 10 + Double(index) * 20
        var svg = "  <rect x=\"\(f(x))\" y=\"\(f(y - 9))\" width=\"12\" height=\"12\" fill=\"\(color)\"/>\n"
        svg += text(x + 18, y + 2, name, anchor: "start")
        return svg
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, grid: Bool) -> String {
        let stroke = grid ? "#e0e0e0" : "#000000"
        return "  <line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(stroke)\"/>\n"
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, anchor: String, extra: String = "") -> String
    {
        "  <text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\"\(extra)>\(escape(content))</text>\n"
    }

    /// A count label: 10, 100, 1k, 10k, 100k, 1M.
    static func countLabel(_ value: Double) -> String {
        switch value {
        case 1_000_000...: return "\(Int(value / 1_000_000))M"
        case 1_000...: return "\(Int(value / 1_000))k"
        default: return "\(Int(value))"
        }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// One decimal place: enough for pixels, stable across runs.
    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
