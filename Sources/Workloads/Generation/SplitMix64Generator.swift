/// The generators' only source of randomness: SplitMix64 (Steele, Lea and Flood, 2014),
/// written out here so every platform produces the same stream for the same seed.
///
///     state  = state &+ 0x9E3779B97F4A7C15
///     z      = state
///     z      = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
///     z      = (z ^ (z >> 27)) &* 0x94D049BB133111EB
///     output = z ^ (z >> 31)
///
/// Bounded draws use Lemire's multiply-and-reject method, which is exact (no modulo bias)
/// and uses only integer arithmetic, so results never depend on floating-point libraries.
/// It is deliberately not `RandomNumberGenerator`: nothing may mix it up with the system's.
public struct SplitMix64Generator: Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    @inline(__always)
    public mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (`bound` > 0).
    @inline(__always)
    public mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return product.high
    }

    /// A uniform integer in `range` (non-empty).
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next(below: span))
    }

    /// A uniform index into a collection of `count` elements (`count` > 0).
    @inline(__always)
    public mutating func index(below count: Int) -> Int { Int(next(below: UInt64(count))) }

    /// Fisher–Yates shuffle driven by this generator.
    public mutating func shuffle<T>(_ array: inout [T]) {
        guard array.count > 1 else { return }
        for i in stride(from: array.count - 1, to: 0, by: -1) {
            let j = index(below: i + 1)
            if i != j { array.swapAt(i, j) }
        }
    }

    /// `k` distinct indices from `0..<count`, in the order drawn (partial Fisher–Yates
    /// over a sparse map, so it costs O(k) even for a huge `count`).
    public mutating func distinctIndices(_ k: Int, below count: Int) -> [Int] {
        let k = min(k, count)
        var swapped: [Int: Int] = [:]
        var out: [Int] = []
        out.reserveCapacity(k)
        for i in 0..<k {
            let j = i + index(below: count - i)
            let picked = swapped[j] ?? j
            swapped[j] = swapped[i] ?? i
            out.append(picked)
        }
        return out
    }
}
