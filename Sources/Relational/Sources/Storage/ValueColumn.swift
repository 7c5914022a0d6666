/// The storage class of a stored value (one byte per value in a column).
public enum ValueTag: UInt8, Sendable {
    case null = 0
    case integer = 1
    case real = 2
    case text = 3
    case blob = 4
}

/// One column of dynamically typed values, as SQLite stores them: a tag byte and an 8-byte
/// payload per value. The payload is the integer, the real's bit pattern, or the code of
/// the text or blob in the column's dictionaries (interned: each distinct string is stored
/// once). A null's payload is 0. So a single-type column costs 9 bytes a value plus its
/// distinct strings, and a mixed column is still exact: `3` and `3.0` keep their classes.
///
/// Value semantics (a copy is a snapshot; copies share storage until one is changed).
public struct ValueColumn: Sendable, KeyedColumn {
    private var tags: [ValueTag] = []
    private var payloads: [Int64] = []
    public private(set) var texts = ByteDictionary()
    public private(set) var blobs = ByteDictionary()
    /// Bit `1 << tag` is set for every storage class stored so far (deletes do not clear
    /// it), so a reader can take a single-type fast path: see `isIntegerOnly`.
    public private(set) var tagsPresent: UInt8 = 0

    public init() {}

    public var count: Int { tags.count }

    /// True when every value ever stored is an integer (no nulls, reals, text or blobs):
    /// `payload(at:)` is then the integer itself.
    public var isIntegerOnly: Bool { tagsPresent == 1 << ValueTag.integer.rawValue }

    @inline(__always)
    public func tag(at i: Int) -> ValueTag { tags[i] }

    /// The raw payload: the integer, the real's IEEE bit pattern, the text or blob code, or 0.
    @inline(__always)
    public func payload(at i: Int) -> Int64 { payloads[i] }

    public func value(at i: Int) -> Value {
        let p = payloads[i]
        switch tags[i] {
        case .null: return .null
        case .integer: return .integer(p)
        case .real: return .real(Double(bitPattern: UInt64(bitPattern: p)))
        case .text: return .text(texts.string(Int(p)))
        case .blob: return .blob(blobs.bytes(Int(p)))
        }
    }

    /// Read access to the payloads of every value, e.g. to scan an integer-only column.
    public func withPayloads<R>(_ body: (UnsafeBufferPointer<Int64>) throws -> R) rethrows -> R {
        try payloads.withUnsafeBufferPointer(body)
    }

    /// Read access to the tags of every value.
    public func withTags<R>(_ body: (UnsafeBufferPointer<ValueTag>) throws -> R) rethrows -> R {
        try tags.withUnsafeBufferPointer(body)
    }

    // MARK: Appending

    public mutating func reserveCapacity(_ n: Int) {
        tags.reserveCapacity(tags.count + n)
        payloads.reserveCapacity(payloads.count + n)
    }

    public mutating func append(_ value: Value) {
        let (tag, payload) = stored(value)
        appendStored(tag, payload)
    }

    public mutating func appendNull() { appendStored(.null, 0) }

    public mutating func appendInteger(_ i: Int64) { appendStored(.integer, i) }

    public mutating func appendReal(_ d: Double) { appendStored(.real, Int64(bitPattern: d.bitPattern)) }

    public mutating func appendText(_ s: String) {
        seal()
        appendStored(.text, Int64(texts.intern(s)))
    }

    /// Appends text given as UTF-8 bytes (the caller guarantees they are valid UTF-8),
    /// without building a `String`: the bulk loaders' path. The text is not looked up
    /// yet; repeats are merged when the column is sealed (`seal()`, which a memory table
    /// does when it takes the column over), in one pass that is kinder to the cache.
    public mutating func appendText(utf8 bytes: UnsafeRawBufferPointer) {
        appendStored(.text, Int64(texts.appendUnchecked(bytes)))
    }

    /// Merges texts appended unchecked with their equals, so that equal texts have one
    /// code (which equality and hashing rely on). Cheap when there is nothing to do.
    public mutating func seal() {
        guard !texts.isSealed, let remap = texts.seal() else { return }
        for i in tags.indices where tags[i] == .text { payloads[i] = Int64(remap[Int(payloads[i])]) }
    }

    public mutating func appendBlob(_ b: [UInt8]) { appendStored(.blob, Int64(blobs.intern(b))) }

    /// Room for `strings` more distinct texts of `bytes` UTF-8 bytes in all.
    public mutating func reserveTextCapacity(strings: Int, bytes: Int) {
        texts.reserveCapacity(strings: strings, bytes: bytes)
    }

    /// Tags, payloads and both dictionaries' storage as pointers, without a closure per array:
    /// valid only while this column's storage is alive and unchanged, which the caller
    /// guarantees (`ColumnStore.withKeyReader` keeps its columns alive around its body).
    /// The arrays are native Swift arrays of trivial elements, so their buffers are stable.
    @inline(__always)
    func borrowedStorage() -> ColumnStorage {
        ColumnStorage(
            tags: tags.withUnsafeBufferPointer { $0 },
            payloads: payloads.withUnsafeBufferPointer { $0 },
            texts: texts.borrowedStorage(),
            blobs: blobs.borrowedStorage())
    }

    /// The column's keys through pointers, valid on the terms of `borrowedStorage`.
    @inline(__always)
    func borrowedKeys() -> BorrowedColumnKeys {
        BorrowedColumnKeys(tags: tags.withUnsafeBufferPointer { $0 }, payloads: payloads.withUnsafeBufferPointer { $0 })
    }

    // MARK: Internal: stored forms and keys

    /// The tag and payload a value is stored as (interning text and blobs).
    mutating func stored(_ value: Value) -> (ValueTag, Int64) {
        switch value {
        case .null: return (.null, 0)
        case let .integer(i): return (.integer, i)
        case let .real(d): return (.real, Int64(bitPattern: d.bitPattern))
        case let .text(s):
            seal()
            return (.text, Int64(texts.intern(s)))
        case let .blob(b): return (.blob, Int64(blobs.intern(b)))
        }
    }

    @inline(__always)
    mutating func appendStored(_ tag: ValueTag, _ payload: Int64) {
        tags.append(tag)
        payloads.append(payload)
        tagsPresent |= 1 << tag.rawValue
    }

    /// The equality key of the value at `i`.
    @inline(__always)
    func key(at i: Int) -> ValueKey {
        let tag = tags[i]
        if tag == .real { return .real(bits: payloads[i]) }
        return ValueKey(kind: tag.rawValue, bits: payloads[i])
    }

    /// The equality key a value would have in this column; nil for a text or blob the
    /// column has never held (so no stored value equals it). The column must be sealed.
    func key(of value: Value) -> ValueKey? {
        assert(texts.isSealed, "key lookup in an unsealed column")
        switch value {
        case .null: return .null
        case let .integer(i): return ValueKey(kind: ValueTag.integer.rawValue, bits: i)
        case let .real(d): return .real(bits: Int64(bitPattern: d.bitPattern))
        case let .text(s): return texts.code(of: s).map { ValueKey(kind: ValueTag.text.rawValue, bits: Int64($0)) }
        case let .blob(b): return blobs.code(of: b).map { ValueKey(kind: ValueTag.blob.rawValue, bits: Int64($0)) }
        }
    }

    /// Overwrites position `to` with the value at `from` (a row moving into a gap).
    mutating func copyValue(from: Int, to: Int) {
        tags[to] = tags[from]
        payloads[to] = payloads[from]
    }

    mutating func removeLast() {
        tags.removeLast()
        payloads.removeLast()
    }

    /// Keeps only the values at `positions`, in that order.
    mutating func gather(_ positions: [Int]) {
        tags = positions.map { tags[$0] }
        payloads = positions.map { payloads[$0] }
    }
}

/// Anything that gives the equality key of the value at a position (a column, or a raw
/// reader of one); the storage's tables are generic over it so each use is specialised.
protocol KeyedColumn {
    func key(at i: Int) -> ValueKey
}

/// A column's keys read through its borrowed tags and payloads (`ValueColumn.borrowedKeys`),
/// for an index look-up that should not copy the column: handed to the index as a value,
/// a `ValueColumn` was copied (its arrays retained and released) per filtered scan.
struct BorrowedColumnKeys: KeyedColumn {
    let tags: UnsafeBufferPointer<ValueTag>
    let payloads: UnsafeBufferPointer<Int64>

    @inline(__always)
    func key(at i: Int) -> ValueKey { ValueKey(stored: tags[i], payloads[i]) }
}

extension ValueKey {
    /// The key of a value stored as this tag and payload.
    @inline(__always)
    init(stored tag: ValueTag, _ payload: Int64) {
        self = tag == .real ? .real(bits: payload) : ValueKey(kind: tag.rawValue, bits: payload)
    }
}
