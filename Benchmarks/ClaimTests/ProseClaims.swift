import CompareKit
import Foundation

/// Claims that prose makes about the benchmarks, written beside the prose so that a test can check
/// them against every recorded run.
///
/// A sentence that ranks contenders or quotes a ratio carries its claim in an HTML comment, which
/// Markdown does not show:
///
/// ```markdown
/// QN pays about 1.3 times FBL per link. <!-- claim: chain: QN / FBL in 1.1...1.6; chain: FBL < QN -->
/// ```
///
/// The forms, each about one scenario at its headline size (its id, as `compare --scenario` takes
/// it), or `memory` for the heap bytes of a pending promise with one `then`:
/// - `A < B`: A is faster than B beyond the noise: the 95 % interval of A's time over B's, from the
///   process runs that measured both, lies wholly below 1;
/// - `A = B`: the run cannot tell them apart: that interval holds 1;
/// - `A / B in L...H`: A's time over B's (or bytes over bytes) lies between L and H;
/// - `A in L...H`: A's time over raw GCD's (or its bytes) lies between L and H.
///
/// A range spans at most ±25 % of its middle (H ≤ 5/3 L): a wider one predicts nothing. A claim
/// about some machines only names them after the scenario: their cores (`chain on 2 cores: FBL <
/// QN`), their CPU type (`chain on Intel Xeon: …`, as ``MachineInfo/cpuType`` names it), or both
/// (`chain on Intel Xeon, 2 cores: …`); its sentence says so ("on 2 cores", "Intel Xeon").
///
/// Time differs between CPU types, so a time claim that only one CPU type's records can speak for
/// must name that CPU type, and a time range needs the records of two CPU types at least: a range
/// fitted to one CPU's runs predicts nothing about another's (``ClaimCheck``).
enum ProseClaims {
    /// One claim, as written.
    struct Claim: Equatable, Sendable, CustomStringConvertible {
        enum Kind: Equatable, Sendable {
            case below(String, String)
            case tie(String, String)
            case ratio(String, over: String, ClosedRange<Double>)
            case value(String, ClosedRange<Double>)
        }

        /// A scenario id, or `memory`.
        var scenario: String
        /// The cores of the machines the claim is about, or `nil` for every machine.
        var cores: Int?
        /// The CPU type of the machines the claim is about ("Intel Xeon"), or `nil` for every one.
        var cpu: String? = nil
        var kind: Kind
        /// The claim as written.
        var description: String

        /// The contenders the claim names (raw GCD too, for a ratio to it).
        func contenders(reference: String) -> [String] {
            switch kind {
            case .below(let a, let b), .tie(let a, let b), .ratio(let a, let b, _): return [a, b]
            case .value(let a, _): return scenario == ProseClaims.memory ? [a] : [a, reference]
            }
        }

        /// Whether the claim is about time (not memory, which is counted).
        var isAboutTime: Bool { scenario != ProseClaims.memory }

        /// Whether the claim states a range, not an order or a tie.
        var isRange: Bool {
            switch kind {
            case .ratio, .value: return true
            case .below, .tie: return false
            }
        }

        /// Why the claim cannot be evidence whatever the runs say (a range too wide), or `nil`.
        var malformation: String? {
            let range: ClosedRange<Double>
            switch kind {
            case .ratio(_, _, let bounds), .value(_, let bounds): range = bounds
            case .below, .tie: return nil
            }
            return range.upperBound * 3 > range.lowerBound * 5
                ? "the range \(range.lowerBound)...\(range.upperBound) spans more than ±25 % of its middle" : nil
        }
    }

    /// A claim that cannot be read.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        var text: String
        var description: String {
            "cannot read the claim '\(text)': write 'scenario: A < B', 'A = B', 'A / B in L...H' or 'A in L...H', "
                + "with 'scenario on N cores:', 'scenario on <CPU type>:' or 'scenario on <CPU type>, N cores:' for a "
                + "claim about some machines"
        }
    }

    /// What a claim is checked against in one record.
    enum Outcome: Equatable, Sendable {
        case holds
        case contradicted(String)
        /// The record cannot check it (another machine, a contender or scenario it did not run).
        case notApplicable(String)
    }

    /// The marker a claim comment starts with.
    static let marker = "<!-- claim:"
    /// The scenario name of memory claims.
    static let memory = "memory"

    /// Every claim in `markdown`, in order.
    static func claims(in markdown: String) throws -> [Claim] {
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
        var scenario = parts[0]
        var cores: Int?
        var cpu: String?
        if let on = scenario.range(of: " on ") {
            for part in scenario[on.upperBound...].components(separatedBy: ", ") {
                let words = part.split(separator: " ")
                if words.count == 2, let count = Int(words[0]), words[1] == "cores" || words[1] == "core" {
                    guard cores == nil else { throw ParseError(text: text) }
                    cores = count
                } else {
                    guard cpu == nil, !words.isEmpty, words.allSatisfy({ $0.allSatisfy(\.isLetter) }),
                        !["core", "cores"].contains(words.last!)
                    else {
                        throw ParseError(text: text)
                    }
                    cpu = part
                }
            }
            scenario = String(scenario[..<on.lowerBound])
        }
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
        return Claim(scenario: scenario, cores: cores, cpu: cpu, kind: kind, description: text)
    }

    /// What `record` says of `claim`; `reference` is the contender of `A in L...H` time claims.
    static func outcome(of claim: Claim, in record: RunRecord, reference: String) -> Outcome {
        if let cores = claim.cores, cores != record.run.machine.cores {
            return .notApplicable("a claim about \(cores)-core machines")
        }
        if let cpu = claim.cpu, !record.run.machine.cpuType.lowercased().hasPrefix(cpu.lowercased()) {
            return .notApplicable("a claim about \(cpu) machines")
        }
        if claim.scenario == memory {
            let bytes = Dictionary(record.memory.map { ($0.contender, $0.bytesPerPending) }) { first, _ in first }
            switch claim.kind {
            case .value(let name, let range):
                guard let measured = bytes[name] else { return .notApplicable("no memory figure for \(name)") }
                return range.contains(measured)
                    ? .holds : .contradicted("\(Format.bytes(measured)) per pending promise")
            case .ratio(let name, let other, let range):
                guard let a = bytes[name], let b = bytes[other], b > 0 else {
                    return .notApplicable("no memory figure for \(name) or \(other)")
                }
                return range.contains(a / b) ? .holds : .contradicted("\(Format.decimal(a / b))× the memory")
            case .below, .tie:
                return .contradicted("memory is counted, not timed: give a range ('A / B in L...H')")
            }
        }
        guard let scenario = record.scenario(claim.scenario) else {
            return .notApplicable("the run has no scenario '\(claim.scenario)'")
        }
        func paired(_ a: String, _ b: String) -> Interval? { scenario.ratio(a, over: b) }
        switch claim.kind {
        case .below(let a, let b), .tie(let a, let b):
            guard let interval = paired(a, b) else { return .notApplicable("\(a) or \(b) did not run") }
            let expected: PairOrder = if case .below = claim.kind { .below } else { .tie }
            return interval.order == expected ? .holds : .contradicted("\(a) / \(b) is \(show(interval))")
        case .ratio(let a, let b, let range):
            return inRange(a, b, range)
        case .value(let a, let range):
            return inRange(a, reference, range)
        }
        func inRange(_ a: String, _ b: String, _ range: ClosedRange<Double>) -> Outcome {
            guard let interval = paired(a, b) else { return .notApplicable("\(a) or \(b) did not run") }
            return range.contains(interval.value) ? .holds : .contradicted("\(a) / \(b) is \(show(interval))")
        }
    }

    static func show(_ interval: Interval) -> String {
        "\(Format.ratio(interval.value)) (\(Format.ratioRange(interval.low, interval.high)))"
    }

    // MARK: Statements without a claim

    /// A word or figure that compares: a statement with one and a contender's name makes a claim.
    static let comparing = try! NSRegularExpression(
        pattern:
            #"\b(faster|slower|fastest|slowest|quicker|cheaper|cheapest|costlier|dearer|twice|half as|times|tied|ties|tie|below|above|outperforms?|beats?)\b|\d\s*(%|×|x\b)|×"#,
        options: [.caseInsensitive])

    /// One statement of a Markdown text: a paragraph, a list item or a table row, outside code
    /// blocks and generated sections, with the claims its comments carry.
    struct Statement: Equatable, Sendable {
        var text: String
        var claims: [Claim]
        /// The line it starts on, 1-based.
        var line: Int
    }

    /// A statement that cannot stand as evidence: where, what, and the fix.
    struct Problem: Sendable {
        var line: Int
        var problem: String
        var fix: String
    }

    /// The statements of `markdown`.
    static func statements(in markdown: String) throws -> [Statement] {
        var texts: [(text: String, line: Int)] = []
        var current = ""
        var currentLine = 0
        var skipping = false
        func flush() {
            if !current.isEmpty { texts.append((current, currentLine)) }
            current = ""
        }
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("<!-- BEGIN generated")
                || trimmed == GeneratedSection.endMarker
            {
                flush()
                if trimmed.hasPrefix("```") { skipping.toggle() } else { skipping = trimmed.hasPrefix("<!-- BEGIN") }
                continue
            }
            if skipping { continue }
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("- ") || trimmed.hasPrefix("|")
                || startsOrderedListItem(trimmed)
            {
                flush()
            }
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") {
                if current.isEmpty { currentLine = index + 1 }
                current += (current.isEmpty ? "" : " ") + trimmed
            }
        }
        flush()
        return try texts.map { Statement(text: $0.text, claims: try claims(in: $0.text), line: $0.line) }
    }

    /// Whether `line` opens an item of an ordered list: digits, then `.` or `)` and a space
    /// (CommonMark), so that a line that starts with a figure such as `1.42×` continues its paragraph.
    static func startsOrderedListItem(_ line: String) -> Bool {
        let digits = line.prefix(while: { $0.isASCII && $0.isNumber })
        let rest = line.dropFirst(digits.count)
        return !digits.isEmpty && (rest.hasPrefix(". ") || rest.hasPrefix(") "))
    }

    /// What is wrong with the statements of `markdown` as evidence: one that names one of `names`
    /// with a word or figure that compares and carries no claim, or one whose claim is about some
    /// machines and does not say which.
    static func problems(in markdown: String, names: [String]) throws -> [Problem] {
        try statements(in: markdown).compactMap { statement in
            let visible = statement.text.replacingOccurrences(
                of: #"<!--.*?-->"#, with: "", options: .regularExpression)
            let namesOne = names.contains {
                visible.range(
                    of: "(^|[^\\w])\(NSRegularExpression.escapedPattern(for: $0))($|[^\\w])",
                    options: .regularExpression) != nil
            }
            let range = NSRange(visible.startIndex..., in: visible)
            if namesOne, statement.claims.isEmpty, let match = comparing.firstMatch(in: visible, range: range),
                let word = Range(match.range, in: visible)
            {
                return Problem(
                    line: statement.line,
                    problem: "\"\(visible[word])\" compares without a claim: \(statement.text)",
                    fix: "add `<!-- claim: scenario: A < B -->` (or another form) after the sentence, or rephrase it "
                        + "so that it does not compare")
            }
            for cores in Set(statement.claims.compactMap(\.cores))
            where !visible.contains("\(cores) core") && !visible.contains("\(cores)-core") {
                return Problem(
                    line: statement.line,
                    problem: "has a claim about \(cores)-core machines but does not say so: \(statement.text)",
                    fix: "say in the sentence which machines it is about (\"on \(cores) cores\")")
            }
            for cpu in Set(statement.claims.compactMap(\.cpu)) where !visible.contains(cpu) {
                return Problem(
                    line: statement.line,
                    problem: "has a claim about \(cpu) machines but does not say so: \(statement.text)",
                    fix: "say in the sentence which CPU it is about (\"on the \(cpu)\")")
            }
            return nil
        }
    }
}
