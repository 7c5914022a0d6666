/// Order statistics of a list of ratios (nearest rank, so every figure is a measured value).
public struct RegretStatistics: Sendable {
    public let count: Int
    public let median: Double
    public let p90: Double
    public let p99: Double
    public let max: Double
    public let mean: Double

    public init(_ values: [Double]) {
        let sorted = values.sorted()
        count = sorted.count
        func rank(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let k = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, k))]
        }
        median = rank(0.5)
        p90 = rank(0.9)
        p99 = rank(0.99)
        max = sorted.last ?? 0
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    }
}
