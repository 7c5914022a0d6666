#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values encoded as bytes such that two value lists are equal (README's semantics)
/// exactly when their encodings are equal byte for byte:
/// - null: tag 0;
/// - a number equal to an integer (an integer, or an integral real: `3 == 3.0`, and both
///   zeros): tag 1 and the integer's 8 bytes;
/// - any other real: tag 2 and its bit pattern (one pattern for every NaN);
/// - text, blob: tag 3 or 4, the length (8 bytes) and the bytes (text compares by bytes).
/// The engine's hash tables (`EncodedKeySet`) key rows and join keys by their encoding, so
/// a key costs no `Row`, no `Value` array and no per-key allocation, whether it comes from
/// a decoded row or straight from a memory table's columns (`ColumnStore.KeyReader`).
public final class KeyEncoder {
    /// The encoding so far: `count` bytes at `base` (a buffer of its own, grown as needed,
    /// so appending is a store, with no copy-on-write check).
    // Unchecked exclusivity: an encoder is used by one loop at a time, and a dynamic access
    // check per byte written would cost more than the write.
    @exclusivity(unchecked) private var base: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) public private(set) var count = 0
    /// True when a value appended since the last reset was a real equal to an integer
    /// (encoded as that integer, so `decode` would spell it as an integer).
    @exclusivity(unchecked) public private(set) var hasIntegralReal = false

    public init() {
        capacity = 64
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// The encoding's bytes (valid until the next change).
    @inline(__always)
    public var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    public func reset() {
        count = 0
        hasIntegralReal = false
    }

    @inline(__always)
    private func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        var newCapacity = capacity * 2
        while newCapacity < count + n { newCapacity *= 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        bigger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    @inline(__always)
    func appendTag(_ tag: UInt8) {
        reserve(1)
        base.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    func appendWord(_ tag: UInt8, _ word: Int64) {
        reserve(9)
        base.storeBytes(of: tag, toByteOffset: count, as: UInt8.self)
        (base + count + 1).storeBytes(of: word.littleEndian, as: Int64.self)
        count += 9
    }

    @inline(__always)
    func appendReal(_ d: Double) {
        if let i = Int64(exactly: d) {
            hasIntegralReal = true
            appendWord(1, i)
        } else {
            appendWord(2, Int64(bitPattern: d.isNaN ? Double.nan.bitPattern : d.bitPattern))
        }
    }

    func appendBytes(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) {
        appendWord(tag, Int64(bytes.count))
        reserve(bytes.count)
        if let from = bytes.baseAddress { (base + count).copyMemory(from: from, byteCount: bytes.count) }
        count += bytes.count
    }

    public func append(_ value: Value) {
        switch value {
        case .null: appendTag(0)
        case let .integer(i): appendWord(1, i)
        case let .real(d): appendReal(d)
        case let .text(s):
            var s = s
            s.withUTF8 { appendBytes(3, UnsafeRawBufferPointer($0)) }
        case let .blob(b): b.withUnsafeBytes { appendBytes(4, $0) }
        }
    }

    /// Appends the values of `row` at `positions`, in that order.
    public func append(_ row: Row, at positions: [Int]) {
        for p in positions { append(row.values[p]) }
    }

    /// The values an encoding holds, in order (the inverse of `append`, up to equality).
    public static func decode(_ buffer: UnsafeRawBufferPointer) -> [Value] {
        var out: [Value] = []
        var i = 0
        func word() -> Int64 {
            let w = Int64(littleEndian: buffer.loadUnaligned(fromByteOffset: i, as: Int64.self))
            i += 8
            return w
        }
        while i < buffer.count {
            let tag = buffer[i]
            i += 1
            switch tag {
            case 0: out.append(.null)
            case 1: out.append(.integer(word()))
            case 2: out.append(.real(Double(bitPattern: UInt64(bitPattern: word()))))
            default:
                let n = Int(word())
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[i..<(i + n)])
                i += n
                out.append(tag == 3 ? .text(String(decoding: bytes, as: UTF8.self)) : .blob(Array(bytes)))
            }
        }
        return out
    }
}

/// A set of encoded keys (`KeyEncoder`), numbered 0, 1, 2, ... in order of first insertion.
/// The keys sit back to back in one byte arena; the hash table holds only their numbers
/// (`PositionTable`, 4 bytes a slot), so a key costs its bytes plus about 20 bytes.
///
/// A key that is one integer (9 bytes: tag 1 and the integer, whether it came from an
/// integer or an integral real) is hashed and compared as that integer, and can be given
/// as one (`insert(integer:)`, `find(integer:)`): no encoder, no byte loop. The choice
/// depends only on the key's bytes, so a key meets its equals whichever way it arrives.
public struct EncodedKeySet {
    private var arena: [UInt8] = []
    /// `ends[k]` is where key `k` ends in `arena`; it starts where key `k - 1` ends.
    private var ends: [Int] = []
    private var hashes: [UInt64] = []
    private var table = PositionTable()

    public init() {}

    public var count: Int { ends.count }

    /// Inserts the encoder's key; returns its number and whether it was new.
    @inline(__always)
    @discardableResult
    public mutating func insert(_ key: KeyEncoder) -> (ordinal: Int, inserted: Bool) {
        insert(key.buffer)
    }

    @discardableResult
    public mutating func insert(_ key: UnsafeRawBufferPointer) -> (ordinal: Int, inserted: Bool) {
        if let i = Self.singleInteger(key) { return insert(integer: i) }
        let hash = StorageHash.bytes(key)
        if let found = table.find(hash: hash, where: { equals($0, key) }) { return (found.position, false) }
        arena.append(contentsOf: key.bindMemory(to: UInt8.self))
        return add(hash: hash)
    }

    /// Inserts the key made of one integer value (the encoding of `.integer(i)`, and of an
    /// integral real equal to it).
    @inline(__always)
    @discardableResult
    public mutating func insert(integer i: Int64) -> (ordinal: Int, inserted: Bool) {
        let hash = Self.integerHash(i)
        if let found = table.find(hash: hash, where: { isInteger($0, i) }) { return (found.position, false) }
        arena.append(1)
        withUnsafeBytes(of: i.littleEndian) { arena.append(contentsOf: $0) }
        return add(hash: hash)
    }

    /// Numbers the key just appended to the arena.
    @inline(__always)
    private mutating func add(hash: UInt64) -> (ordinal: Int, inserted: Bool) {
        let ordinal = ends.count
        ends.append(arena.count)
        hashes.append(hash)
        let hashes = self.hashes
        table.insert(ordinal, hash: hash, dense: true) { hashes[$0] }
        return (ordinal, true)
    }

    /// The number of the encoder's key, nil when absent.
    @inline(__always)
    public func find(_ key: KeyEncoder) -> Int? {
        find(key.buffer)
    }

    public func find(_ key: UnsafeRawBufferPointer) -> Int? {
        if let i = Self.singleInteger(key) { return find(integer: i) }
        let hash = StorageHash.bytes(key)
        return table.find(hash: hash, where: { equals($0, key) })?.position
    }

    /// The number of the key made of one integer value, nil when absent.
    @inline(__always)
    public func find(integer i: Int64) -> Int? {
        table.find(hash: Self.integerHash(i), where: { isInteger($0, i) })?.position
    }

    /// Key `ordinal`'s values.
    public func values(_ ordinal: Int) -> [Value] {
        arena.withUnsafeBytes { all in
            KeyEncoder.decode(UnsafeRawBufferPointer(rebasing: all[start(ordinal)..<ends[ordinal]]))
        }
    }

    /// The integer of a key that is one integer value (tag 1 and 8 bytes), else nil.
    @inline(__always)
    private static func singleInteger(_ key: UnsafeRawBufferPointer) -> Int64? {
        guard key.count == 9, key[0] == 1 else { return nil }
        return Int64(littleEndian: key.loadUnaligned(fromByteOffset: 1, as: Int64.self))
    }

    @inline(__always)
    private static func integerHash(_ i: Int64) -> UInt64 {
        StorageHash.mix(UInt64(bitPattern: i) &+ 0x9E37_79B9_7F4A_7C15)
    }

    @inline(__always)
    private func start(_ ordinal: Int) -> Int { ordinal == 0 ? 0 : ends[ordinal - 1] }

    @inline(__always)
    private func isInteger(_ ordinal: Int, _ i: Int64) -> Bool {
        let s = start(ordinal)
        guard ends[ordinal] - s == 9 else { return false }
        return arena.withUnsafeBytes { all in
            all[s] == 1 && Int64(littleEndian: all.loadUnaligned(fromByteOffset: s + 1, as: Int64.self)) == i
        }
    }

    @inline(__always)
    private func equals(_ ordinal: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let s = start(ordinal)
        guard ends[ordinal] - s == key.count else { return false }
        return arena.withUnsafeBytes { all in
            guard let a = all.baseAddress, let b = key.baseAddress else { return true }
            return memcmp(a + s, b, key.count) == 0
        }
    }
}
