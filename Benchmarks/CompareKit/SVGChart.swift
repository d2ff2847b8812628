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

    /// How one series is drawn: a colour, a marker shape and a dash pattern, so that two series
    /// stay apart where their lines overlap and for readers who cannot tell the colours apart.
    struct Style {
        var color: String
        var marker: Marker
        /// An SVG `stroke-dasharray`, or `nil` for a solid line.
        var dash: String?
    }

    enum Marker: CaseIterable {
        case circle, square, triangleUp, diamond, triangleDown, cross, plus, star, ring
    }

    /// Styles in series order: the colour-blind-safe Okabe–Ito colours without its yellow (too pale
    /// on white), then grey and Paul Tol's wine, each with its own marker; every other series
    /// dashed. One per contender of a full run (nine), so no two series of a chart share a style.
    static let styles: [Style] = [
        Style(color: "#000000", marker: .circle, dash: nil),
        Style(color: "#E69F00", marker: .square, dash: "6 3"),
        Style(color: "#56B4E9", marker: .triangleUp, dash: nil),
        Style(color: "#009E73", marker: .diamond, dash: "6 3"),
        Style(color: "#D55E00", marker: .triangleDown, dash: nil),
        Style(color: "#0072B2", marker: .cross, dash: "2 3"),
        Style(color: "#CC79A7", marker: .plus, dash: nil),
        Style(color: "#7F7F7F", marker: .star, dash: "8 3 2 3"),
        Style(color: "#882255", marker: .ring, dash: nil),
    ]

    static func style(_ index: Int) -> Style { styles[index % styles.count] }

    static let width = 720.0
    static let height = 420.0
    static let left = 80.0
    static let right = 170.0
    static let top = 52.0
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
            let style = style(index)
            let visible = entry.points.compactMap { p in p.y.map { (p.x, $0) } }.filter { $0.0 > 0 && $0.1 > 0 }
            if visible.count > 1 {
                let path = visible.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
                svg += "  <polyline fill=\"none\" stroke=\"\(style.color)\" stroke-width=\"2\"\(dash(style))"
                svg += " points=\"\(path)\"/>\n"
            }
            for point in visible { svg += marker(style, at: px(point.0), py(point.1)) }
            svg += legend(index: index, name: entry.name, style: style, line: true)
        }
        return svg + "</svg>\n"
    }

    /// A grouped bar chart on a logarithmic axis whose bars rise (or fall) from a reference value
    /// (for example 1×, the baseline's own ratio), drawn as a dashed line.
    ///
    /// - Parameters:
    ///   - subtitle: A line under the title (what the chart leaves out), or `nil`.
    ///   - groups: The group labels along the x axis.
    ///   - series: One bar per group per series; a `nil` value is labelled "n/a" at the reference.
    ///   - reference: Where bars start.
    ///   - floor: The lowest value the axis shows; a smaller value is drawn down to it and
    ///     labelled with its value.
    ///   - formatY: How a bar's value is written (its tooltip).
    ///   - formatClipped: How a bar clipped at `floor` is labelled with its value.
    ///   - formatTick: How a tick (a power of ten) is labelled.
    public static func logBars(
        title: String,
        subtitle: String? = nil,
        yLabel: String,
        groups: [String],
        series: [Series],
        reference: Double,
        floor: Double,
        formatY: (Double) -> String,
        formatClipped: (Double) -> String,
        formatTick: (Double) -> String
    ) -> String {
        let values = series.flatMap { $0.points.compactMap(\.y) }.filter { $0 > 0 }.map { max($0, floor) }
        let ys = decades(values + [reference, floor])
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        func py(_ y: Double) -> Double { top + plotHeight - (log10(y) - ys.low) / (ys.high - ys.low) * plotHeight }
        let groupWidth = plotWidth / Double(max(groups.count, 1))
        let barWidth = groupWidth * 0.8 / Double(max(series.count, 1))

        var svg = header(title: title)
        if let subtitle { svg += text(width / 2, 40, subtitle, anchor: "middle", extra: " font-size=\"11\"") }
        for exponent in Int(ys.low)...Int(ys.high) {
            let y = py(pow(10, Double(exponent)))
            svg += line(left, y, left + plotWidth, y, grid: true)
            svg += text(left - 6, y + 4, formatTick(pow(10, Double(exponent))), anchor: "end")
        }
        for (groupIndex, group) in groups.enumerated() {
            let x = left + groupWidth * (Double(groupIndex) + 0.5)
            svg += text(x, top + plotHeight + 18, group, anchor: "middle")
        }
        svg += axes(plotWidth: plotWidth, plotHeight: plotHeight, xLabel: "", yLabel: yLabel)
        let referenceY = py(reference)
        for (index, entry) in series.enumerated() {
            let style = style(index)
            for groupIndex in groups.indices {
                let x = left + groupWidth * (Double(groupIndex) + 0.1) + barWidth * Double(index)
                let centre = x + barWidth / 2
                guard groupIndex < entry.points.count, let value = entry.points[groupIndex].y, value > 0 else {
                    // No bar: say so where the bar would start.
                    svg += "  <text x=\"\(f(centre))\" y=\"\(f(referenceY - 4))\" font-size=\"8\" fill=\"#555555\""
                    svg +=
                        " text-anchor=\"start\" transform=\"rotate(-90 \(f(centre)) \(f(referenceY - 4)))\">n/a</text>\n"
                    continue
                }
                let end = py(max(value, floor))
                let (y, height) = end < referenceY ? (end, referenceY - end) : (referenceY, end - referenceY)
                svg += "  <rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(max(height, 1)))\""
                svg += " fill=\"\(style.color)\"><title>\(escape(entry.name)) \(escape(groups[groupIndex])): "
                svg += "\(escape(formatY(value)))</title></rect>\n"
                if value < floor {
                    // Clipped at the axis: label the bar with its value.
                    svg += "  <text x=\"\(f(centre + 3))\" y=\"\(f(end - 4))\" font-size=\"9\" text-anchor=\"start\""
                    svg += " paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\""
                    svg +=
                        " transform=\"rotate(-90 \(f(centre + 3)) \(f(end - 4)))\">\(escape(formatClipped(value)))</text>\n"
                }
            }
            svg += legend(index: index, name: entry.name, style: style, line: false)
        }
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

    /// A legend entry: a line with the series' marker (line charts) or a swatch (bar charts).
    private static func legend(index: Int, name: String, style: Style, line: Bool) -> String {
        let x = width - right + 16
        let y = top + 10 + Double(index) * 20
        var svg: String
        if line {
            svg = "  <line x1=\"\(f(x - 4))\" y1=\"\(f(y - 3))\" x2=\"\(f(x + 20))\" y2=\"\(f(y - 3))\""
            svg += " stroke=\"\(style.color)\" stroke-width=\"2\"\(dash(style))/>\n"
            svg += marker(style, at: x + 8, y - 3)
        } else {
            svg = "  <rect x=\"\(f(x))\" y=\"\(f(y - 9))\" width=\"12\" height=\"12\" fill=\"\(style.color)\"/>\n"
        }
        svg += text(x + 26, y + 2, name, anchor: "start")
        return svg
    }

    private static func dash(_ style: Style) -> String {
        style.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
    }

    /// The series' marker centred on `(x, y)`, about 7 px across.
    static func marker(_ style: Style, at x: Double, _ y: Double) -> String {
        let c = style.color
        let r = 3.5
        func polygon(_ points: [(Double, Double)]) -> String {
            let list = points.map { "\(f(x + $0.0)),\(f(y + $0.1))" }.joined(separator: " ")
            return "  <polygon points=\"\(list)\" fill=\"\(c)\"/>\n"
        }
        func stroke(_ segments: [(Double, Double, Double, Double)]) -> String {
            segments.map { s in
                "  <line x1=\"\(f(x + s.0))\" y1=\"\(f(y + s.1))\" x2=\"\(f(x + s.2))\" y2=\"\(f(y + s.3))\""
                    + " stroke=\"\(c)\" stroke-width=\"2\"/>\n"
            }.joined()
        }
        switch style.marker {
        case .circle:
            return "  <circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(r))\" fill=\"\(c)\"/>\n"
        case .square:
            return polygon([(-r, -r), (r, -r), (r, r), (-r, r)])
        case .triangleUp:
            return polygon([(0, -r - 1), (r + 1, r), (-r - 1, r)])
        case .diamond:
            return polygon([(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)])
        case .triangleDown:
            return polygon([(0, r + 1), (r + 1, -r), (-r - 1, -r)])
        case .cross:
            return stroke([(-r, -r, r, r), (-r, r, r, -r)])
        case .plus:
            return stroke([(-r - 1, 0, r + 1, 0), (0, -r - 1, 0, r + 1)])
        case .star:
            let points = (0..<10).map { k -> (Double, Double) in
                let angle = Double(k) * Double.pi / 5 - Double.pi / 2
                let radius = k % 2 == 0 ? r + 1.5 : r / 2
                return (radius * cos(angle), radius * sin(angle))
            }
            return polygon(points)
        case .ring:
            return
                "  <circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(r))\" fill=\"white\" stroke=\"\(c)\" stroke-width=\"2\"/>\n"
        }
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
