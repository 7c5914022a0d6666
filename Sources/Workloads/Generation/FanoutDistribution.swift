/// How many children a document gets when the generator expands it.
///
/// - `fixed`: exactly `k`.
/// - `uniform`: uniform in `1...(2k - 1)` (mean `k`).
/// - `zipf`: `c` in `1...max` with probability proportional to `1 / c^s`. `s` must be a
///   multiple of 0.5, so `c^s` needs only multiplication and `sqrt` (both correctly rounded
///   in IEEE 754); the weights are then integers, and sampling is integer-only. The data is
///   therefore identical on every machine.
public enum FanoutDistribution: Sendable, Equatable {
    case fixed(Int)
    case uniform(mean: Int)
    case zipf(ZipfSampler)

    mutating func draw(_ random: inout SplitMix64Generator) -> Int {
        switch self {
        case let .fixed(k): return k
        case let .uniform(mean): return mean <= 1 ? 1 : 1 + random.index(below: 2 * mean - 1)
        case let .zipf(sampler): return sampler.draw(&random)
        }
    }

    public var summary: String {
        switch self {
        case let .fixed(k): return "fixed \(k)"
        case let .uniform(mean): return "uniform 1...\(max(1, 2 * mean - 1))"
        case let .zipf(sampler): return "zipf s=\(Double(sampler.halfSteps) / 2) over 1...\(sampler.maximum)"
        }
    }
}

/// Integer cumulative weights for a truncated Zipf distribution over `1...maximum`.
public struct ZipfSampler: Sendable, Equatable {
    public let maximum: Int
    /// The exponent times two.
    public let halfSteps: Int
    private let cumulative: [UInt64]

    public init(maximum: Int, halfSteps: Int) {
        self.maximum = maximum
        self.halfSteps = halfSteps
        var running: UInt64 = 0
        var cumulative: [UInt64] = []
        cumulative.reserveCapacity(maximum)
        for c in 1...max(1, maximum) {
            let root = Double(c).squareRoot()
            var power = 1.0
            for _ in 0..<halfSteps { power *= root }
            let weight = max(1, UInt64((1_099_511_627_776.0 / power).rounded(.down)))
            running += weight
            cumulative.append(running)
        }
        self.cumulative = cumulative
    }

    func draw(_ random: inout SplitMix64Generator) -> Int {
        let total = cumulative[cumulative.count - 1]
        let u = random.next(below: total)
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > u { high = mid } else { low = mid + 1 }
        }
        return low + 1
    }
}
