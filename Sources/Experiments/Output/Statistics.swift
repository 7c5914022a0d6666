/// Median, minimum and maximum of a sample (the median of an even count is the mean of the
/// two middle values).
public struct Spread: Equatable, Sendable {
    public let median: Double
    public let minimum: Double
    public let maximum: Double

    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
    }

    public init(median: Double, minimum: Double, maximum: Double) {
        self.median = median
        self.minimum = minimum
        self.maximum = maximum
    }

    /// True when the two min–max ranges share no value: only then is a difference reported.
    public func separated(from other: Spread) -> Bool {
        maximum < other.minimum || other.maximum < minimum
    }
}

/// Percentiles by the nearest-rank method: the smallest value with at least p of the values
/// at or below it (so p95 of 20 transactions is the 19th smallest).
public enum Percentile {
    public static func of(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
