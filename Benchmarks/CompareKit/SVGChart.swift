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
        /// For a bar chart, the interval drawn as a whisker on each bar, in group order (`nil`, or
        /// none at all, for no whisker).
        public var intervals: [(low: Double, high: Double)?]
        /// How it is drawn (default: ``Style/design(_:)`` of its position in the chart), so a
        /// contender keeps its look in a chart that leaves another out.
        public var style: Style?

        public init(
            name: String, points: [(x: Double, y: Double?)], intervals: [(low: Double, high: Double)?] = [],
            style: Style? = nil
        ) {
            self.name = name
            self.points = points
            self.intervals = intervals
            self.style = style
        }

        public static func == (lhs: Series, rhs: Series) -> Bool {
            lhs.name == rhs.name && lhs.points.elementsEqual(rhs.points) { $0.x == $1.x && $0.y == $1.y }
                && lhs.intervals.elementsEqual(rhs.intervals) { $0?.low == $1?.low && $0?.high == $1?.high }
                && lhs.style == rhs.style
        }
    }

    /// How one series is drawn: a colour, a marker shape and a dash pattern, so that two series
    /// stay apart where their lines overlap and for readers who cannot tell the colours apart.
    ///
    /// The things compared get colours (``design(_:)``), the references they are compared with
    /// greys (``reference(_:)``), so a reader tells the two kinds apart at a glance. Both grow with
    /// the number of series: no list to extend for one more.
    public struct Style: Equatable, Sendable {
        var color: String
        var marker: Marker
        /// An SVG `stroke-dasharray`, or `nil` for a solid line.
        var dash: String?

        /// The colours of the Okabe–Ito palette that differ most at a glance and for colour-blind
        /// readers (blue, orange, green, reddish purple, vermilion, sky blue), then hues spaced by
        /// the golden angle.
        static let colors = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"]

        /// The style of the `ordinal`th thing compared.
        public static func design(_ ordinal: Int) -> Style {
            let color =
                ordinal < colors.count
                ? colors[ordinal]
                : hue((Double(ordinal - colors.count) * 137.508 + 15).truncatingRemainder(dividingBy: 360))
            return Style(color: color, marker: Marker.allCases[ordinal % Marker.allCases.count], dash: nil)
        }

        /// The style of the `ordinal`th reference: a mid grey, then lighter ones, dashed; never so
        /// dark that a black whisker would vanish on its bar.
        public static func reference(_ ordinal: Int) -> Style {
            let level = min(0x70 + 0x40 * ordinal, 0xD0)
            let grey = String(format: "#%02X%02X%02X", level, level, level)
            let dashes = [nil, "6 3", "2 3", "8 3 2 3"]
            return Style(color: grey, marker: .ring, dash: dashes[ordinal % dashes.count])
        }

        /// A saturated, middle-light colour of `degrees` on the colour wheel.
        static func hue(_ degrees: Double) -> String {
            let (s, l) = (0.65, 0.45)
            let c = (1 - abs(2 * l - 1)) * s
            let x = c * (1 - abs((degrees / 60).truncatingRemainder(dividingBy: 2) - 1))
            let (r, g, b): (Double, Double, Double) =
                switch Int(degrees / 60) {
                case 0: (c, x, 0)
                case 1: (x, c, 0)
                case 2: (0, c, x)
                case 3: (0, x, c)
                case 4: (x, 0, c)
                default: (c, 0, x)
                }
            let m = l - c / 2
            return String(format: "#%02X%02X%02X", Int((r + m) * 255), Int((g + m) * 255), Int((b + m) * 255))
        }
    }

    enum Marker: CaseIterable {
        case circle, square, triangleUp, diamond, triangleDown, cross, plus, star, ring
    }

    static let width = 800.0
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
        // The closures' types are spelled out: inferred, this function took the type checker 2 s.
        let points: [(x: Double, y: Double)] = series.flatMap { (entry: Series) -> [(x: Double, y: Double)] in
            entry.points.compactMap { (p: (x: Double, y: Double?)) -> (x: Double, y: Double)? in
                p.y.map { (x: p.x, y: $0) }
            }
        }.filter { (point: (x: Double, y: Double)) -> Bool in point.x > 0 && point.y > 0 }
        let whiskers = series.flatMap { $0.intervals.compactMap { $0 }.flatMap { [$0.low, $0.high] } }
        let xs = decades(points.map(\.x))
        let ys = decades(points.map(\.y) + whiskers)
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
            let style = entry.style ?? .design(index)
            let visible: [(Double, Double, Int)] = entry.points.enumerated()
                .compactMap { (item: (offset: Int, element: (x: Double, y: Double?))) -> (Double, Double, Int)? in
                    item.element.y.map { (item.element.x, $0, item.offset) }
                }
                .filter { (point: (Double, Double, Int)) -> Bool in point.0 > 0 && point.1 > 0 }
            if visible.count > 1 {
                let path = visible.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
                svg += "  <polyline fill=\"none\" stroke=\"\(style.color)\" stroke-width=\"2\"\(dash(style))"
                svg += " points=\"\(path)\"/>\n"
            }
            for point in visible {
                if point.2 < entry.intervals.count, let interval = entry.intervals[point.2], interval.low > 0 {
                    svg += whisker(at: px(point.0), from: py(interval.low), to: py(interval.high), color: style.color)
                }
                svg += marker(style, at: px(point.0), py(point.1))
            }
            svg += legend(index: index, name: entry.name, style: style, line: true)
        }
        return svg + "</svg>\n"
    }

    /// A grouped bar chart on a logarithmic axis whose bars rise (or fall) from a reference value
    /// (for example 1×, the baseline's own ratio), drawn as a dashed line. The axis covers every
    /// bar and whisker in whole decades, so nothing is clipped.
    ///
    /// - Parameters:
    ///   - subtitle: A line under the title (what the chart leaves out), or `nil`.
    ///   - groups: The group labels along the x axis.
    ///   - series: One bar per group per series, with an optional whisker each; a `nil` value is
    ///     drawn as a small ring on the reference line (the subtitle should say what it means).
    ///   - reference: Where bars start.
    ///   - notes: Short lines under the legend (what the whiskers and rings mean).
    ///   - formatY: How a bar's value is written (its tooltip).
    ///   - formatTick: How a tick (a power of ten) is labelled.
    public static func logBars(
        title: String,
        subtitle: String? = nil,
        yLabel: String,
        groups: [String],
        series: [Series],
        reference: Double,
        notes: [String] = [],
        formatY: (Double) -> String,
        formatTick: (Double) -> String
    ) -> String {
        let whiskers = series.flatMap { $0.intervals.compactMap { $0 }.flatMap { [$0.low, $0.high] } }
        let values = series.flatMap { $0.points.compactMap(\.y) } + whiskers
        let ys = decades(values.filter { $0 > 0 } + [reference])
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
            svg += text(x, top + plotHeight + 18, group, anchor: "middle", extra: " font-size=\"11\"")
        }
        svg += axes(plotWidth: plotWidth, plotHeight: plotHeight, xLabel: "", yLabel: yLabel)
        let referenceY = py(reference)
        for (index, entry) in series.enumerated() {
            let style = entry.style ?? .design(index)
            for groupIndex in groups.indices {
                let x = left + groupWidth * (Double(groupIndex) + 0.1) + barWidth * Double(index)
                let centre = x + barWidth / 2
                guard groupIndex < entry.points.count, let value = entry.points[groupIndex].y, value > 0 else {
                    // No bar: a ring where the bar would start.
                    svg += "  <circle cx=\"\(f(centre))\" cy=\"\(f(referenceY))\" r=\"\(f(min(barWidth / 2, 2.5)))\""
                    svg += " fill=\"#ffffff\" stroke=\"#555555\" stroke-width=\"1\"/>\n"
                    continue
                }
                let end = py(value)
                let (y, height) = end < referenceY ? (end, referenceY - end) : (referenceY, end - referenceY)
                svg += "  <rect x=\"\(f(x))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(max(height, 1)))\""
                svg += " fill=\"\(style.color)\"><title>\(escape(entry.name)) \(escape(groups[groupIndex])): "
                svg += "\(escape(formatY(value)))</title></rect>\n"
                if groupIndex < entry.intervals.count, let interval = entry.intervals[groupIndex],
                    interval.low > 0, interval.high > 0
                {
                    // Black, visible on every bar colour (the references' greys are light) and on white.
                    let (lowY, highY) = (py(interval.low), py(interval.high))
                    svg += "  <path d=\"M\(f(centre)) \(f(lowY)) V\(f(highY))"
                    svg +=
                        " M\(f(centre - 2)) \(f(lowY)) H\(f(centre + 2)) M\(f(centre - 2)) \(f(highY)) H\(f(centre + 2))\""
                    svg += " stroke=\"#000000\" stroke-width=\"1.2\" fill=\"none\"/>\n"
                }
            }
            svg += legend(index: index, name: entry.name, style: style, line: false)
        }
        for (index, note) in notes.enumerated() {
            let y = top + 10 + Double(series.count + index) * 20 + 8
            svg += text(width - right + 16, y, note, anchor: "start", extra: " font-size=\"10\" fill=\"#333333\"")
        }
        svg += "  <line x1=\"\(f(left))\" y1=\"\(f(referenceY))\" x2=\"\(f(left + plotWidth))\" y2=\"\(f(referenceY))\""
        svg += " stroke=\"#000000\" stroke-dasharray=\"6 4\"/>\n"
        return svg + "</svg>\n"
    }

    // MARK: Pieces

    /// An interval as a thin vertical line with caps, in the series' colour.
    private static func whisker(at x: Double, from low: Double, to high: Double, color: String) -> String {
        "  <path d=\"M\(f(x)) \(f(low)) V\(f(high)) M\(f(x - 3)) \(f(low)) H\(f(x + 3)) M\(f(x - 3)) \(f(high)) H\(f(x + 3))\""
            + " stroke=\"\(color)\" stroke-width=\"1\" fill=\"none\" opacity=\"0.7\"/>\n"
    }

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
