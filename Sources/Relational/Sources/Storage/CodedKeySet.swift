/// A set of keys of several columns whose values all come from fixed columns of store
/// snapshots (`sources`: key column `j` reads column `sources[j].column` of
/// `sources[j].store`), each value kept as its stored code instead of its encoding: a
/// number equal to an integer as that integer, any other real as its bits (one NaN), text
/// and blobs as their codes in that column's dictionary, null as 0, with a kind byte per
/// column. Within one column of one snapshot, equal codes mean equal values (the
/// dictionaries are interned and sealed), so two keys read from the same sources are equal
/// exactly when their codes are, and a key costs no byte copy and hashes as a few words.
///
/// Keys from other sources do not compare with these: the owner moves to an
/// `EncodedKeySet` then (`encodeEach`), which spells every kept key in full.
public struct CodedKeySet {
    public static let maximumWidth = 8

    private let sources: [(store: ColumnStore, column: Int)]
    private let width: Int
    /// Key `i` is `words[i * stride ..< i * stride + width]`, then its kinds, a byte per column.
    private var words: [Int64] = []
    private let stride: Int
    /// Open addressing, linear probing, at most half full: 0 is empty, else
    /// (hash's high 32 bits << 32) | (key number + 1).
    private var slots: [UInt64] = []
    /// Each key's hash, by number (so growing hashes nothing again).
    private var hashes: [UInt64] = []
    public private(set) var count = 0

    /// Nil when the key is wider than `maximumWidth` or a source column's dictionaries
    /// are not sealed (codes not yet unique).
    public init?(sources: [(store: ColumnStore, column: Int)]) {
        guard !sources.isEmpty, sources.count <= Self.maximumWidth else { return nil }
        for s in sources {
            guard s.column < s.store.width else { return nil }
            let column = s.store.columns[s.column]
            guard column.texts.isSealed, column.blobs.isSealed else { return nil }
        }
        self.sources = sources
        width = sources.count
        stride = width + 1
    }

    /// True when keys read from `other` are coded alike: the same columns of the same
    /// snapshots.
    public func accepts(_ other: [(store: ColumnStore, column: Int)]) -> Bool {
        guard other.count == width else { return false }
        for j in 0..<width where other[j].column != sources[j].column || !other[j].store.sharesStorage(with: sources[j].store) {
            return false
        }
        return true
    }

    /// Inserts the key of each of `rowCount` rows, row `k` reading key column `j` at
    /// position `positions[j][k]` of `sources[j]` (the caller checked `accepts`), and
    /// returns the rows whose key was new, ascending.
    public mutating func insertNew(rowCount: Int, positions: [[Int]]) -> [Int] {
        precondition(positions.count == width, "one position list per key column")
        var fresh: [Int] = []
        let key = UnsafeMutableBufferPointer<Int64>.allocate(capacity: stride)
        defer { key.deallocate() }
        // A static borrow: calling a method of `self` while the closure mutates `self`
        // would copy the set, and then every batch would copy its tables.
        Self.withColumns(sources, positions) { tags, payloads, rows in
            for k in 0..<rowCount {
                var kinds: UInt64 = 0
                for j in 0..<width {
                    let p = rows[j][k]
                    let (kind, word) = Self.code(tags[j][p], payloads[j][p])
                    key[j] = word
                    kinds |= UInt64(kind) << UInt64(8 * j)
                }
                key[width] = Int64(bitPattern: kinds)
                if insert(UnsafeBufferPointer(key)) { fresh.append(k) }
            }
        }
        return fresh
    }

    /// Calls `body` with every kept key spelled as a `KeyEncoder` encoding (in insertion
    /// order), reading text and blob bytes from the sources' dictionaries.
    public func encodeEach(_ body: (KeyEncoder) -> Void) {
        let encoder = KeyEncoder()
        func nest(_ j: Int, _ readers: [KeyReader]) {
            if j < width {
                sources[j].store.withKeyReader { nest(j + 1, readers + [$0]) }
                return
            }
            for i in 0..<count {
                encoder.reset()
                let kinds = UInt64(bitPattern: words[i * stride + width])
                for c in 0..<width {
                    let kind = UInt8(truncatingIfNeeded: kinds >> UInt64(8 * c))
                    readers[c].encode(kind: kind, code: words[i * stride + c], column: sources[c].column, into: encoder)
                }
                body(encoder)
            }
        }
        nest(0, [])
    }

    // MARK: Private

    /// A stored value's kind and word: equal values of one column give equal pairs.
    @inline(__always)
    private static func code(_ tag: ValueTag, _ payload: Int64) -> (UInt8, Int64) {
        switch tag {
        case .real:
            let d = Double(bitPattern: UInt64(bitPattern: payload))
            if let i = Int64(exactly: d) { return (ValueTag.integer.rawValue, i) }
            return (ValueTag.real.rawValue, d.isNaN ? Int64(bitPattern: Double.nan.bitPattern) : payload)
        case .null: return (ValueTag.null.rawValue, 0)
        default: return (tag.rawValue, payload)
        }
    }

    /// Borrows each key column's tags, payloads and row positions for one batch.
    private static func withColumns(
        _ sources: [(store: ColumnStore, column: Int)], _ positions: [[Int]],
        _ body: ([UnsafeBufferPointer<ValueTag>], [UnsafeBufferPointer<Int64>], [UnsafeBufferPointer<Int>]) -> Void
    ) {
        func nest(_ j: Int, _ tags: [UnsafeBufferPointer<ValueTag>], _ payloads: [UnsafeBufferPointer<Int64>],
                  _ rows: [UnsafeBufferPointer<Int>]) {
            if j == sources.count { return body(tags, payloads, rows) }
            let column = sources[j].store.columns[sources[j].column]
            column.withTags { t in
                column.withPayloads { p in
                    positions[j].withUnsafeBufferPointer { r in nest(j + 1, tags + [t], payloads + [p], rows + [r]) }
                }
            }
        }
        nest(0, [], [], [])
    }

    /// The key's words folded one multiply each, mixed once.
    @inline(__always)
    private static func hash(_ key: UnsafeBufferPointer<Int64>) -> UInt64 {
        var h = StorageHash.rowSeed
        for w in key { h = StorageHash.combine(h, UInt64(bitPattern: w)) }
        return StorageHash.mix(h)
    }

    /// Adds the key (`width` words and the kinds word) unless present; true when added.
    @inline(__always)
    private mutating func insert(_ key: UnsafeBufferPointer<Int64>) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        let stride = self.stride
        let number = count
        let hash = Self.hash(key)
        let tag = hash >> 32
        let added: Bool = words.withUnsafeBufferPointer { stored in
            slots.withUnsafeMutableBufferPointer { slots in
                let mask = slots.count - 1
                var s = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let slot = slots[s]
                    if slot == 0 {
                        slots[s] = tag << 32 | UInt64(number + 1)
                        return true
                    }
                    if slot >> 32 == tag {
                        let base = (Int(slot & 0xFFFF_FFFF) - 1) * stride
                        var same = true
                        for c in 0..<stride where stored[base + c] != key[c] {
                            same = false
                            break
                        }
                        if same { return false }
                    }
                    s = (s + 1) & mask
                }
            }
        }
        if added {
            words.append(contentsOf: key)
            hashes.append(hash)
            count += 1
        }
        return added
    }

    /// Doubles the slot table (16 slots at first), re-placing every key by its kept hash.
    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        var fresh = [UInt64](repeating: 0, count: capacity)
        hashes.withUnsafeBufferPointer { hashes in
            fresh.withUnsafeMutableBufferPointer { slots in
                let mask = capacity - 1
                for i in 0..<hashes.count {
                    let hash = hashes[i]
                    var s = Int(truncatingIfNeeded: hash) & mask
                    while slots[s] != 0 { s = (s + 1) & mask }
                    slots[s] = (hash >> 32) << 32 | UInt64(i + 1)
                }
            }
        }
        slots = fresh
    }
}

extension KeyReader {
    /// Appends the key encoding of a value given as `CodedKeySet`'s kind and word, read
    /// against `column` of this reader's store (text and blob codes name its dictionaries).
    func encode(kind: UInt8, code: Int64, column: Int, into encoder: KeyEncoder) {
        let c = columns[column]
        switch kind {
        case ValueTag.null.rawValue: encoder.appendTag(0)
        case ValueTag.integer.rawValue: encoder.appendWord(1, code)
        case ValueTag.real.rawValue: encoder.appendWord(2, code)
        case ValueTag.text.rawValue: encoder.appendBytes(3, ColumnStorage.bytes(c.texts, Int(code)))
        default: encoder.appendBytes(4, ColumnStorage.bytes(c.blobs, Int(code)))
        }
    }
}
