/// A ratio with its 95 % confidence interval.
public struct Interval: Codable, Equatable, Sendable {
    /// The point estimate: the ratio of the two pooled medians.
    public var value: Double
    /// The interval's lower end.
    public var low: Double
    /// The interval's upper end.
    public var high: Double

    public init(value: Double, low: Double, high: Double) {
        self.value = value
        self.low = low
        self.high = high
    }

    /// Whether the two intervals share a point: the data cannot tell the two apart.
    public func overlaps(_ other: Interval) -> Bool { low <= other.high && other.low <= high }

    /// Whether `value` lies inside the interval.
    public func contains(_ value: Double) -> Bool { low <= value && value <= high }

    /// For the interval of A's time over B's: whether A is faster beyond the noise (`.below`),
    /// slower (`.above`), or the run cannot tell them apart (`.tie`, the interval holds 1).
    public var order: PairOrder { high < 1 ? .below : low > 1 ? .above : .tie }
}

/// How two contenders compare in one run, read from the interval of one's time over the other's.
public enum PairOrder: Equatable, Sendable {
    case below, tie, above
}

/// Confidence intervals for ratios of medians by a hierarchical bootstrap over process runs.
///
/// Time varies more between processes than between repetitions in one process (Kalibera and
/// Jones, "Rigorous benchmarking in reasonable time", 2013), so the resampling keeps that
/// structure: each resample draws the process runs with replacement, then each drawn run's
/// repetitions with replacement, and takes the ratio of the two pooled medians. The numerator
/// and the denominator are drawn from the same process runs, because they were measured side
/// by side in them. The interval is the 2.5th to 97.5th percentile of the resampled ratios.
///
/// Seeded, so that the same samples always give the same interval and a report renders the
/// same from its JSON.
public enum Bootstrap {
    /// Resamples per interval.
    public static let resamples = 2_000

    /// The ratio of `numerator`'s median to `denominator`'s, with its 95 % interval.
    ///
    /// - Parameters:
    ///   - numerator: Samples per process run, in run order.
    ///   - denominator: Samples per process run, the same runs in the same order.
    ///   - seed: The generator's seed; ``seed(_:)`` makes one from names.
    /// - Precondition: Both have the same, non-zero number of runs, and every run a sample; the
    ///   denominator's median is positive.
    public static func ratio(_ numerator: [[Double]], over denominator: [[Double]], seed: UInt64) -> Interval {
        precondition(!numerator.isEmpty, "a ratio needs at least one process run")
        precondition(numerator.count == denominator.count, "a ratio pairs runs of the same processes")
        precondition(
            (numerator + denominator).allSatisfy { !$0.isEmpty }, "every process run needs at least one sample")
        let value = median(numerator.flatMap { $0 }) / median(denominator.flatMap { $0 })
        precondition(value.isFinite, "the denominator's median is zero")
        var generator = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        var top: [Double] = []
        var bottom: [Double] = []
        for _ in 0..<resamples {
            top.removeAll(keepingCapacity: true)
            bottom.removeAll(keepingCapacity: true)
            for _ in numerator.indices {
                let run = Int.random(in: 0..<numerator.count, using: &generator)
                draw(from: numerator[run], into: &top, using: &generator)
                draw(from: denominator[run], into: &bottom, using: &generator)
            }
            ratios.append(median(top) / median(bottom))
        }
        ratios.sort()
        let lowIndex = Int((Double(resamples) * 0.025).rounded(.down))
        let highIndex = Int((Double(resamples) * 0.975).rounded(.up)) - 1
        return Interval(value: value, low: ratios[lowIndex], high: ratios[highIndex])
    }

    /// The ratio of `numerator`'s median to `denominator`'s over the same process runs with its
    /// 95 % interval; `nil` when the two did not run in the same number of processes, a run has no
    /// sample, or a median is not positive.
    ///
    /// Seeded from the two names and `context` (``seed(_:)``) in an order that does not depend on
    /// which is the numerator, so that B over A is exactly the reciprocal of A over B.
    public static func pairedRatio(
        _ numerator: (name: String, runs: [[Double]]), over denominator: (name: String, runs: [[Double]]),
        context: [String]
    ) -> Interval? {
        let (top, bottom) = (numerator.runs, denominator.runs)
        guard !top.isEmpty, top.count == bottom.count, (top + bottom).allSatisfy({ !$0.isEmpty }),
            median(top.flatMap { $0 }) > 0, median(bottom.flatMap { $0 }) > 0
        else { return nil }
        guard numerator.name <= denominator.name else {
            let flipped = ratio(bottom, over: top, seed: seed(parts: [denominator.name, numerator.name] + context))
            return Interval(value: 1 / flipped.value, low: 1 / flipped.high, high: 1 / flipped.low)
        }
        return ratio(top, over: bottom, seed: seed(parts: [numerator.name, denominator.name] + context))
    }

    /// The median of `runs` with its 95 % interval, by the same resampling (a ratio over ones).
    public static func median(_ runs: [[Double]], seedParts: [String]) -> Interval? {
        guard !runs.isEmpty, runs.allSatisfy({ !$0.isEmpty }) else { return nil }
        return ratio(runs, over: runs.map { _ in [1] }, seed: seed(parts: seedParts))
    }

    /// A seed from names (scenario, size, contenders): FNV-1a, stable across processes, unlike
    /// `Hasher`.
    public static func seed(_ parts: String...) -> UInt64 { seed(parts: parts) }

    static func seed(parts: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func draw(from run: [Double], into pool: inout [Double], using generator: inout SplitMix64) {
        for _ in run.indices { pool.append(run[Int.random(in: 0..<run.count, using: &generator)]) }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

/// Ranks that respect the noise, from paired intervals: a contender's rank is one more than the
/// number of contenders that are faster than it beyond the noise, judged on the interval of their
/// time over its own from the same process runs (``Interval/order``). Contenders no interval
/// separates share a rank, and no order is stated that the run does not support.
public enum Ranking {
    /// One contender's place.
    public struct Place: Equatable, Sendable {
        public var contender: String
        public var rank: Int
        /// Its time over the reference's (raw GCD's), to order equal ranks and to show.
        public var value: Double
    }

    /// The places of `contenders`, best (lowest) first; equal ranks in order of their ratio to the
    /// reference.
    ///
    /// - Parameters:
    ///   - contenders: The contenders to rank; those without a ratio to the reference are left out.
    ///   - reference: A contender's time over the reference's (for the order of equal ranks).
    ///   - paired: The interval of the first contender's time over the second's.
    public static func places(
        _ contenders: [String], reference: (String) -> Double?, paired: (String, String) -> Interval?
    ) -> [Place] {
        let measured = contenders.compactMap { name in reference(name).map { (name, $0) } }
        return measured.map { name, value in
            let faster = measured.filter { other, _ in other != name && paired(other, name)?.order == .below }
            return Place(contender: name, rank: 1 + faster.count, value: value)
        }
        .sorted { ($0.rank, $0.value) < ($1.rank, $1.value) }
    }

    /// The pairs no interval separates (ties), in place order.
    public static func ties(_ places: [Place], paired: (String, String) -> Interval?) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for (index, first) in places.enumerated() {
            for second in places[(index + 1)...] where paired(first.contender, second.contender)?.order == .tie {
                pairs.append((first.contender, second.contender))
            }
        }
        return pairs
    }

    /// "1 FBL, AY · 3 QX · 4 QN": the contenders grouped by rank.
    public static func text(_ places: [Place]) -> String {
        var groups: [(rank: Int, names: [String])] = []
        for place in places {
            if groups.last?.rank == place.rank {
                groups[groups.count - 1].names.append(place.contender)
            } else {
                groups.append((place.rank, [place.contender]))
            }
        }
        return groups.map { "\($0.rank) \($0.names.joined(separator: ", "))" }.joined(separator: " · ")
    }
}

/// Whether a measured interval meets a limit: met when the whole interval is at or below it,
/// missed when the whole interval is above it, undecided when the limit falls inside the interval.
public enum Verdict: String, Equatable, Sendable {
    case met, missed, undecided

    public init(_ interval: Interval, limit: Double) {
        if interval.high <= limit {
            self = .met
        } else if interval.low > limit {
            self = .missed
        } else {
            self = .undecided
        }
    }

    /// The report's mark.
    public var mark: String {
        switch self {
        case .met: return "✅"
        case .missed: return "❌"
        case .undecided: return "❔"
        }
    }
}

/// A small seeded generator (SplitMix64), so that a run's order and a report's intervals repeat.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
