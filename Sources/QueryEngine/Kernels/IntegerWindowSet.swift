/// A set of integers inside one window of values, as a bitmap allocated 4,096 values at a
/// time when first touched (as `PositionSet` keeps positions): a bit test per value, and a
/// bulk run over a table's ids touches about one bit per row instead of a hash slot of
/// 16 bytes in a table that outgrows the caches. Values outside the window are the
/// caller's to keep elsewhere (`covers`).
struct IntegerWindowSet {
    private static let chunkShift = 12
    private static let wordsPerChunk = 1 << (chunkShift - 6)
    /// The window's first value (a multiple of the chunk size).
    private let base: Int64
    /// The window holds `chunkStart.count << chunkShift` values.
    private var chunkStart: [Int32]
    private var words: [UInt64] = []
    /// How many values the set holds.
    private(set) var count = 0

    /// A window of at least `span` values (at most 2^31), about half of it below `center`;
    /// clamped so that it never wraps around the integers' range.
    init(around center: Int64, span: Int) {
        let chunks = Int64(min(max(span, 1), 1 << 31) >> Self.chunkShift) + 1
        let lowest = Int64.min >> Self.chunkShift
        let highest = (Int64.max >> Self.chunkShift) - chunks
        let first = min(max((center >> Self.chunkShift) - chunks / 2, lowest), highest)
        base = first << Self.chunkShift
        chunkStart = Array(repeating: -1, count: Int(chunks))
    }

    /// The value's offset in the window, or nil outside it. The subtraction wraps: a value
    /// below `base` comes out as 2^64 minus its distance, above the window because `init`
    /// keeps the window's end at least a span below `Int64.max`.
    @inline(__always)
    private func offset(_ i: Int64) -> Int? {
        let d = UInt64(bitPattern: i &- base)
        return d < limit ? Int(d) : nil
    }

    @inline(__always)
    func covers(_ i: Int64) -> Bool { offset(i) != nil }

    /// Adds `i` (which the window must cover); true when it was absent.
    @inline(__always)
    mutating func insert(_ i: Int64) -> Bool {
        guard let d = offset(i) else { preconditionFailure("IntegerWindowSet: \(i) is outside the window") }
        let chunk = d >> Self.chunkShift
        var start = Int(chunkStart[chunk])
        if start < 0 {
            start = words.count
            words.append(contentsOf: repeatElement(0, count: Self.wordsPerChunk))
            chunkStart[chunk] = Int32(start)
        }
        let w = start + (d >> 6) & (Self.wordsPerChunk - 1)
        let bit: UInt64 = 1 << UInt64(d & 63)
        if words[w] & bit != 0 { return false }
        words[w] |= bit
        count += 1
        return true
    }

    /// True when `i` is in the set (false outside the window).
    @inline(__always)
    func contains(_ i: Int64) -> Bool {
        guard let d = offset(i) else { return false }
        let start = Int(chunkStart[d >> Self.chunkShift])
        guard start >= 0 else { return false }
        return words[start + (d >> 6) & (Self.wordsPerChunk - 1)] & (1 << UInt64(d & 63)) != 0
    }

    /// Adds each `keys[k]` the window covers, except at `skip` (ascending indexes into
    /// `keys`), appending `k` to `fresh` for each one that was absent and to `outside`
    /// for each one the window does not cover. The chunks are touched first, then the
    /// bits set in one borrow of the words.
    mutating func insertEach(
        _ keys: UnsafeBufferPointer<Int64>, skip: [Int], fresh: inout [Int], outside: inout [Int]
    ) {
        let base = self.base, limit = self.limit
        for k in 0..<keys.count {
            let d = UInt64(bitPattern: keys[k] &- base)
            if d < limit, chunkStart[Int(d) >> Self.chunkShift] < 0 {
                chunkStart[Int(d) >> Self.chunkShift] = Int32(words.count)
                words.append(contentsOf: repeatElement(0, count: Self.wordsPerChunk))
            }
        }
        let before = fresh.count
        chunkStart.withUnsafeBufferPointer { starts in
            words.withUnsafeMutableBufferPointer { words in
                Self.forEachCovered(keys, base: base, limit: limit, skip: skip, outside: &outside) { k, d in
                    let w = Int(starts[d >> Self.chunkShift]) + (d >> 6) & (Self.wordsPerChunk - 1)
                    let bit: UInt64 = 1 << UInt64(d & 63)
                    if words[w] & bit == 0 {
                        words[w] |= bit
                        fresh.append(k)
                    }
                }
            }
        }
        count += fresh.count - before
    }

    /// Appends to `found` each `k` (not in `skip`) whose `keys[k]` the window covers and the
    /// set holds, and to `outside` each one the window does not cover.
    func findEach(_ keys: UnsafeBufferPointer<Int64>, skip: [Int], found: inout [Int], outside: inout [Int]) {
        chunkStart.withUnsafeBufferPointer { starts in
            words.withUnsafeBufferPointer { words in
                Self.forEachCovered(keys, base: base, limit: limit, skip: skip, outside: &outside) { k, d in
                    let start = Int(starts[d >> Self.chunkShift])
                    if start >= 0, words[start + (d >> 6) & (Self.wordsPerChunk - 1)] & (1 << UInt64(d & 63)) != 0 {
                        found.append(k)
                    }
                }
            }
        }
    }

    /// How many values the window holds.
    private var limit: UInt64 { UInt64(chunkStart.count) << UInt64(Self.chunkShift) }

    /// Calls `body(k, offset)` for each `k` not in `skip` whose key the window covers, in
    /// order; appends the others to `outside`.
    @inline(__always)
    private static func forEachCovered(
        _ keys: UnsafeBufferPointer<Int64>, base: Int64, limit: UInt64, skip: [Int], outside: inout [Int],
        _ body: (Int, Int) -> Void
    ) {
        var s = 0
        for k in 0..<keys.count {
            if s < skip.count, skip[s] == k {
                s += 1
                continue
            }
            let d = UInt64(bitPattern: keys[k] &- base)
            if d < limit { body(k, Int(d)) } else { outside.append(k) }
        }
    }

    /// Every value in the set, ascending.
    var values: [Int64] {
        var out: [Int64] = []
        for (chunk, start) in chunkStart.enumerated() where start >= 0 {
            for i in 0..<Self.wordsPerChunk {
                var word = words[Int(start) + i]
                while word != 0 {
                    out.append(base &+ Int64(chunk << Self.chunkShift | i << 6 | word.trailingZeroBitCount))
                    word &= word - 1
                }
            }
        }
        return out
    }
}
