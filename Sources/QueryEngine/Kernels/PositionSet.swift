/// A set of row positions in one store, as a bitmap allocated 4,096 positions at a time
/// when first touched: a bulk query pays one bit test per row, a query that touches a
/// few rows of a large table a few small chunks.
struct PositionSet {
    private static let chunkShift = 12
    /// Where each chunk's 64 words start in `words`; -1 while the chunk is untouched.
    private var chunkStart: [Int32]
    private var words: [UInt64] = []
    private(set) var count = 0

    /// For positions below `limit`.
    init(limit: Int) {
        chunkStart = Array(repeating: -1, count: (limit >> Self.chunkShift) + 1)
    }

    /// Adds `p`; true when it was absent.
    @inline(__always)
    mutating func insert(_ p: Int) -> Bool {
        let chunk = p >> Self.chunkShift
        var start = Int(chunkStart[chunk])
        if start < 0 {
            start = words.count
            words.append(contentsOf: repeatElement(0, count: 1 << (Self.chunkShift - 6)))
            chunkStart[chunk] = Int32(start)
        }
        let w = start + (p >> 6) & ((1 << (Self.chunkShift - 6)) - 1)
        let bit: UInt64 = 1 << UInt64(p & 63)
        if words[w] & bit != 0 { return false }
        words[w] |= bit
        count += 1
        return true
    }

    /// Adds each of `positions`, appending to `fresh` the index `k` of each one that was
    /// absent: the chunks are touched first, then the bits are set in one borrow of the
    /// words (no uniqueness check per position).
    mutating func insertEach(_ positions: UnsafeBufferPointer<Int>, fresh: inout [Int]) {
        let wordsPerChunk = 1 << (Self.chunkShift - 6)
        for p in positions where chunkStart[p >> Self.chunkShift] < 0 {
            chunkStart[p >> Self.chunkShift] = Int32(words.count)
            words.append(contentsOf: repeatElement(0, count: wordsPerChunk))
        }
        var added = 0
        chunkStart.withUnsafeBufferPointer { starts in
            words.withUnsafeMutableBufferPointer { words in
                for k in 0..<positions.count {
                    let p = positions[k]
                    let w = Int(starts[p >> Self.chunkShift]) + (p >> 6) & (wordsPerChunk - 1)
                    let bit: UInt64 = 1 << UInt64(p & 63)
                    if words[w] & bit == 0 {
                        words[w] |= bit
                        fresh.append(k)
                        added += 1
                    }
                }
            }
        }
        count += added
    }

    /// Every position in the set, ascending.
    var positions: [Int] {
        var out: [Int] = []
        out.reserveCapacity(count)
        for (chunk, start) in chunkStart.enumerated() where start >= 0 {
            for i in 0..<(1 << (Self.chunkShift - 6)) {
                var word = words[Int(start) + i]
                while word != 0 {
                    out.append(chunk << Self.chunkShift | i << 6 | word.trailingZeroBitCount)
                    word &= word - 1
                }
            }
        }
        return out
    }
}
