import Foundation

/// Claims that prose makes about a benchmark run, written beside the prose so that a test can
/// check them against the data.
///
/// A sentence of a report that ranks designs or quotes a ratio carries its claim in an HTML
/// comment, which Markdown does not show:
///
/// ```markdown
/// QN pays about twice FBL per link. <!-- claim: chain: QN / FBL in 1.6...2.6; chain: FBL < QN -->
/// ```
///
/// The forms, each about one scenario's headline size (its id, as `compare --scenario` takes it),
/// or `memory` for the bytes of a pending promise with one `then`:
/// - `A < B`: A's 95 % interval lies wholly below B's (beyond the noise);
/// - `A = B`: their intervals overlap (a tie: the run cannot tell them apart);
/// - `A / B in L...H`: A's ratio over B's (or bytes over bytes) lies between L and H;
/// - `A in L...H`: A's ratio to raw GCD (or its bytes) lies between L and H.
///
/// `ProseClaimTests` checks every claim in `Reports/` and the README against the committed run,
/// and that every statement of the design review that compares designs carries one.
public enum ProseClaims {
    /// One claim, as written.
    public struct Claim: Equatable, Sendable, CustomStringConvertible {
        public enum Kind: Equatable, Sendable {
            case below(String, String)
            case tie(String, String)
            case ratio(String, over: String, ClosedRange<Double>)
            case value(String, ClosedRange<Double>)
        }

        /// A scenario id, or `memory`.
        public var scenario: String
        public var kind: Kind
        /// The claim as written.
        public var description: String
    }

    /// A claim that cannot be read.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var text: String
        public var description: String {
            "cannot read the claim '\(text)': write 'scenario: A < B', 'A = B', 'A / B in L...H' or 'A in L...H'"
        }
    }

    /// The marker a claim comment starts with.
    public static let marker = "<!-- claim:"

    /// Every claim in `markdown`, in order.
    public static func claims(in markdown: String) throws -> [Claim] {
        var claims: [Claim] = []
        var rest = markdown[...]
        while let start = rest.range(of: marker) {
            guard let end = rest[start.upperBound...].range(of: "-->") else {
                throw ParseError(text: String(rest[start.lowerBound...].prefix(80)))
            }
            for text in rest[start.upperBound..<end.lowerBound].split(separator: ";") {
                claims.append(try parse(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
            rest = rest[end.upperBound...]
        }
        return claims
    }

    static func parse(_ text: String) throws -> Claim {
        let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty else { throw ParseError(text: text) }
        let body = parts[1]
        func names(_ separator: String) -> (String, String)? {
            let sides = body.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }
            return sides.count == 2 && !sides[0].isEmpty && !sides[1].isEmpty ? (sides[0], sides[1]) : nil
        }
        let kind: Claim.Kind
        if let (subject, range) = names(" in ") {
            let bounds = range.components(separatedBy: "...").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard bounds.count == 2, bounds[0] <= bounds[1] else { throw ParseError(text: text) }
            let subjects = subject.components(separatedBy: " / ").map { $0.trimmingCharacters(in: .whitespaces) }
            switch subjects.count {
            case 1: kind = .value(subjects[0], bounds[0]...bounds[1])
            case 2: kind = .ratio(subjects[0], over: subjects[1], bounds[0]...bounds[1])
            default: throw ParseError(text: text)
            }
        } else if let (low, high) = names(" < ") {
            kind = .below(low, high)
        } else if let (first, second) = names(" = ") {
            kind = .tie(first, second)
        } else {
            throw ParseError(text: text)
        }
        return Claim(scenario: parts[0], kind: kind, description: text)
    }

    /// Why `claim` does not hold in `record`, or `nil` when it holds.
    public static func failure(of claim: Claim, in record: RunRecord) -> String? {
        if claim.scenario == "memory" {
            let bytes = Dictionary(uniqueKeysWithValues: record.memory.map { ($0.contender, $0.bytesPerPending) })
            func value(_ name: String) -> Double? { bytes[name] }
            switch claim.kind {
            case .value(let name, let range):
                guard let measured = value(name) else { return "no memory figure for \(name)" }
                return range.contains(measured) ? nil : "\(name): \(Format.bytes(measured)) per pending promise"
            case .ratio(let name, let other, let range):
                guard let a = value(name), let b = value(other), b > 0 else { return "no memory figure for both" }
                return range.contains(a / b) ? nil : "\(name) / \(other): \(Format.decimal(a / b))× the memory"
            case .below, .tie:
                return "memory is counted, not timed: give a range ('A / B in L...H')"
            }
        }
        guard let ratios = record.scenarios.first(where: { $0.id == claim.scenario })?.ratios else {
            return "the run has no scenario '\(claim.scenario)'"
        }
        func interval(_ name: String) -> Interval? { ratios[name] }
        switch claim.kind {
        case .below(let low, let high):
            guard let a = interval(low), let b = interval(high) else { return "\(low) or \(high) did not run" }
            if a.isBelow(b) { return nil }
            return a.overlaps(b) ? "\(low) and \(high) tie: \(show(a)) and \(show(b))" : "\(high) is below \(low)"
        case .tie(let first, let second):
            guard let a = interval(first), let b = interval(second) else { return "\(first) or \(second) did not run" }
            return a.overlaps(b) ? nil : "\(first) and \(second) do not tie: \(show(a)) and \(show(b))"
        case .ratio(let name, let other, let range):
            guard let a = interval(name), let b = interval(other) else { return "\(name) or \(other) did not run" }
            return range.contains(a.value / b.value)
                ? nil : "\(name) / \(other) is \(Format.ratio(a.value / b.value))"
        case .value(let name, let range):
            guard let a = interval(name) else { return "\(name) did not run" }
            return range.contains(a.value) ? nil : "\(name) is \(show(a)) raw GCD's time"
        }
    }

    private static func show(_ interval: Interval) -> String {
        "\(Format.ratio(interval.value)) (\(Format.ratioRange(interval.low, interval.high)))"
    }

    /// Words that compare costs: a statement with one of them and a design's name makes a claim.
    public static let comparingWords = [
        "fastest", "slowest", "faster", "slower", "lowest", "highest", "cheapest", "cheaper", "costlier",
        "twice", "times fbl", "times its", "× ", "×)", "×,", "above it", "below it", "close to fbl",
        "fbl's time", "the floor",
    ]

    /// The statements of `markdown` (paragraphs, list items, table rows; outside code blocks and
    /// generated sections) that name one of `designs` with a word that compares costs, and carry
    /// no claim.
    public static func unbackedStatements(in markdown: String, designs: [String]) -> [String] {
        var statements: [String] = []
        var current = ""
        var skipping = false
        func flush() {
            if !current.isEmpty { statements.append(current) }
            current = ""
        }
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("<!-- BEGIN generated")
                || trimmed == GeneratedSection.endMarker
            {
                flush()
                if trimmed.hasPrefix("```") { skipping.toggle() } else { skipping = trimmed.hasPrefix("<!-- BEGIN") }
                continue
            }
            if skipping { continue }
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("- ") || trimmed.hasPrefix("|") {
                flush()
            }
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") { current += (current.isEmpty ? "" : " ") + trimmed }
        }
        flush()
        return statements.filter { statement in
            let lower = statement.lowercased()
            let namesDesign = designs.contains {
                statement.range(of: "\\b\($0)\\b", options: .regularExpression) != nil
            }
            let compares = comparingWords.contains { lower.contains($0) }
            return namesDesign && compares && !statement.contains(marker)
        }
    }
}
