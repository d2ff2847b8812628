/// Robust summary statistics of one cell's samples.
///
/// The median and the median absolute deviation (MAD) are used instead of the mean and the
/// standard deviation because timings on a shared machine have a long right tail: one descheduled
/// repetition moves the mean but not the median. The MAD is reported unscaled (the median of
/// `|x - median|`), in the same unit as the samples.
public struct SampleSummary: Codable, Equatable, Sendable {
    /// How many samples were summarised.
    public let count: Int
    /// The middle sample (the mean of the two middle samples for an even count).
    public let median: Double
    /// The median absolute deviation from the median, unscaled.
    public let mad: Double
    /// The smallest sample.
    public let min: Double
    /// The largest sample.
    public let max: Double

    /// Summarises `samples`.
    ///
    /// - Parameter samples: At least one sample, in any order.
    /// - Precondition: `samples` is not empty and holds no NaN.
    public init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "a summary needs at least one sample")
        precondition(!samples.contains { $0.isNaN }, "a sample is NaN")
        let sorted = samples.sorted()
        let median = Self.median(ofSorted: sorted)
        count = sorted.count
        self.median = median
        mad = Self.median(ofSorted: sorted.map { abs($0 - median) }.sorted())
        min = sorted[0]
        max = sorted[sorted.count - 1]
    }

    /// The MAD as a fraction of the median (0 when the median is 0): how noisy the cell was.
    public var relativeMAD: Double { median == 0 ? 0 : mad / median }

    private static func median(ofSorted sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
