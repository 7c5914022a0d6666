import Workloads

/// The fuzzer's randomness: the Workloads SplitMix64 generator (documented there), with the
/// draws the case generator needs. Case `i` of seed `s` gets its own stream seeded by
/// `SplitMix64(s).next() ^ i * golden ratio`, so any case is reproducible on its own.
public struct VerificationRandom {
    private var generator: SplitMix64Generator

    public init(seed: UInt64) { generator = SplitMix64Generator(seed: seed) }

    /// The stream of case `index` of a run seeded with `seed`.
    public init(seed: UInt64, case index: Int) {
        var base = SplitMix64Generator(seed: seed)
        self.init(seed: base.next() ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
    }

    public mutating func next() -> UInt64 { generator.next() }

    /// Uniform in `range` (non-empty).
    public mutating func int(_ range: ClosedRange<Int>) -> Int { generator.next(in: range) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        Double(generator.next() >> 11) / Double(UInt64(1) << 53) < p
    }

    public mutating func element<T>(of items: [T]) -> T? {
        items.isEmpty ? nil : items[generator.index(below: items.count)]
    }

    /// An index drawn with the given relative weights (all ≥ 0, at least one > 0).
    public mutating func weighted(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        guard total > 0 else { return 0 }
        var r = generator.index(below: total)
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    /// A random subset of `items` of size in `sizes` (clamped), in the items' order.
    public mutating func subset<T>(of items: [T], sizes: ClosedRange<Int>) -> [T] {
        let k = min(items.count, max(0, int(sizes)))
        let picked = Set(generator.distinctIndices(k, below: items.count))
        return items.indices.filter(picked.contains).map { items[$0] }
    }
}
