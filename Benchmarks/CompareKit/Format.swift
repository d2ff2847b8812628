import Foundation

/// Number formatting shared by the Markdown and SVG writers: fixed precision, so reports diff
/// cleanly and golden files stay stable.
public enum Format {
    /// A duration given in seconds, in the largest unit that keeps it at or above 1:
    /// `850 ps`, `12.3 ns`, `4.56 µs`, `1.23 ms`, `2.50 s`.
    public static func duration(_ seconds: Double) -> String {
        let magnitude = abs(seconds)
        switch magnitude {
        case 1...: return String(format: "%.2f s", seconds)
        case 1e-3...: return threeDigits(seconds * 1e3, "ms")
        case 1e-6...: return threeDigits(seconds * 1e6, "µs")
        case 1e-9...: return threeDigits(seconds * 1e9, "ns")
        case 0: return "0 ns"
        default: return String(format: "%.0f ps", seconds * 1e12)
        }
    }

    /// A ratio such as `1.23×`, `12.3×`, `0.045×`, `0.00031×`: below 0.1 with two significant digits
    /// however small (a direct call is thousands of times cheaper than a queue hop).
    public static func ratio(_ value: Double) -> String {
        switch abs(value) {
        case 100...: return String(format: "%.0f×", value)
        case 10...: return String(format: "%.1f×", value)
        case 0.1...: return String(format: "%.2f×", value)
        case 0: return "0×"
        default:
            let decimals = Int(-floor(log10(abs(value)))) + 1
            return String(format: "%.\(decimals)f×", value)
        }
    }

    /// An interval of ratios, `1.41–1.66`, each end with ``ratio(_:)``'s precision and no sign.
    public static func ratioRange(_ low: Double, _ high: Double) -> String {
        "\(ratio(low).dropLast())–\(ratio(high).dropLast())"
    }

    /// A power of ten as a ratio, for axis ticks: `0.01×`, `0.1×`, `1×`, `10×`, `1000×`.
    public static func decadeRatio(_ value: Double) -> String {
        let exponent = Int(log10(value).rounded())
        if exponent >= 0 { return "\(Int(pow(10, Double(exponent))))×" }
        return "0." + String(repeating: "0", count: -exponent - 1) + "1×"
    }

    /// A byte count: `848 B`, `1,529 B`, `12.5 KiB`, `3.2 MiB`, `23.6 GiB`.
    public static func bytes(_ value: Double) -> String {
        switch value {
        case 1_073_741_824...: return String(format: "%.1f GiB", value / 1_073_741_824)
        case 1_048_576...: return String(format: "%.1f MiB", value / 1_048_576)
        case 10_240...: return String(format: "%.1f KiB", value / 1024)
        default: return "\(count(Int(value.rounded()))) B"
        }
    }

    /// An integer with thousands separators: `100,000`.
    public static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index).isMultiple(of: 3) { grouped += "," }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A small count with one decimal when it is not whole: `6`, `2.5`; within 0.05 of a whole
    /// number it is that number (`4`, not `4.0`, for 4.0145 allocations).
    public static func decimal(_ value: Double) -> String {
        abs(value - value.rounded()) < 0.05 ? count(Int(value.rounded())) : String(format: "%.1f", value)
    }

    private static func threeDigits(_ value: Double, _ unit: String) -> String {
        switch abs(value) {
        case 100...: return String(format: "%.0f", value) + " " + unit
        case 10...: return String(format: "%.1f", value) + " " + unit
        default: return String(format: "%.2f", value) + " " + unit
        }
    }

    /// A Markdown table: the header, a rule that left-aligns the first `leftAligned` columns and
    /// right-aligns the rest (numbers), then one line per row.
    public static func table(_ header: [String], leftAligned: Int = 1, _ rows: [[String]]) -> String {
        func line(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |\n" }
        let rule = "|" + header.indices.map { $0 < leftAligned ? "---|" : "---:|" }.joined() + "\n"
        return line(header) + rule + rows.map(line).joined()
    }
}
