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
///
/// A key that is one integer (9 bytes: tag 1 and the integer, whether it came from an
/// integer or an integral real) lives in a table of its own that holds the integer and
/// its number side by side (16 bytes a slot): it is hashed and compared as that integer,
/// one probe reads one slot, and it can be given as one (`insert(integer:)`,
/// `find(integer:)`): no encoder, no byte loop. Which table a key goes to depends only on
/// its bytes, so a key meets its equals whichever way it arrives. Every other key sits
/// back to back with the others in one byte arena, and its table holds only its index
/// (`PositionTable`, 4 bytes a slot).
public struct EncodedKeySet {
    /// One-integer keys: slot `i` is `integers[2i]` (the integer) and `integers[2i + 1]`
    /// (its number + 1; 0 is an empty slot). Open addressing, linear probing, ≤ 2/3 full.
    private var integers: [Int64] = []
    private var integerCount = 0
    /// Other keys: byte key `b` ends at `ends[b]` in `arena` (it starts where `b - 1` ends).
    private var arena: [UInt8] = []
    private var ends: [Int] = []
    private var hashes: [UInt64] = []
    private var byteOrdinals: [Int] = []
    private var table = PositionTable()

    public init() {}

    public var count: Int { integerCount + ends.count }

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
        if let found = table.find(hash: hash, where: { equals($0, key) }) { return (byteOrdinals[found.position], false) }
        let ordinal = count
        let b = ends.count
        arena.append(contentsOf: key.bindMemory(to: UInt8.self))
        ends.append(arena.count)
        hashes.append(hash)
        byteOrdinals.append(ordinal)
        let hashes = self.hashes
        table.insert(b, hash: hash, dense: true) { hashes[$0] }
        return (ordinal, true)
    }

    /// Inserts the key made of one integer value (the encoding of `.integer(i)`, and of an
    /// integral real equal to it).
    @discardableResult
    public mutating func insert(integer i: Int64) -> (ordinal: Int, inserted: Bool) {
        if (integerCount + 1) * 3 > integers.count { growIntegers() }
        let ordinal = count
        let found = integers.withUnsafeMutableBufferPointer { slots -> Int in
            let mask = slots.count / 2 - 1
            var s = Int(truncatingIfNeeded: Self.integerHash(i)) & mask
            while true {
                let stored = slots[2 * s + 1]
                if stored == 0 {
                    slots[2 * s] = i
                    slots[2 * s + 1] = Int64(ordinal + 1)
                    return -1
                }
                if slots[2 * s] == i { return Int(stored) - 1 }
                s = (s + 1) & mask
            }
        }
        if found >= 0 { return (found, false) }
        integerCount += 1
        return (ordinal, true)
    }

    /// `insert(integer:)` for a run of keys, in order: `ordinals[k]` gets the number of
    /// `keys[k]` (new keys are numbered from `count` on, so a key is new exactly when its
    /// number is the next unused one). One borrow of the table for the whole run.
    public mutating func insert(integers keys: UnsafeBufferPointer<Int64>, ordinals: UnsafeMutableBufferPointer<Int>) {
        precondition(ordinals.count >= keys.count, "one ordinal per key")
        // Room for every key being new, so the loop never grows the table.
        while (integerCount + keys.count) * 3 > integers.count { growIntegers() }
        let before = count
        var fresh = before
        integers.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count / 2 - 1
            for k in 0..<keys.count {
                let i = keys[k]
                var s = Int(truncatingIfNeeded: Self.integerHash(i)) & mask
                while true {
                    let stored = slots[2 * s + 1]
                    if stored == 0 {
                        slots[2 * s] = i
                        slots[2 * s + 1] = Int64(fresh + 1)
                        ordinals[k] = fresh
                        fresh += 1
                        break
                    }
                    if slots[2 * s] == i {
                        ordinals[k] = Int(stored) - 1
                        break
                    }
                    s = (s + 1) & mask
                }
            }
        }
        integerCount += fresh - before
    }

    /// `find(integer:)` for a run of keys: `ordinals[k]` gets the number of `keys[k]`, or -1.
    public func find(integers keys: UnsafeBufferPointer<Int64>, ordinals: UnsafeMutableBufferPointer<Int>) {
        precondition(ordinals.count >= keys.count, "one ordinal per key")
        guard integerCount > 0 else {
            for k in 0..<keys.count { ordinals[k] = -1 }
            return
        }
        integers.withUnsafeBufferPointer { slots in
            let mask = slots.count / 2 - 1
            for k in 0..<keys.count {
                let i = keys[k]
                var s = Int(truncatingIfNeeded: Self.integerHash(i)) & mask
                while true {
                    let stored = slots[2 * s + 1]
                    if stored == 0 {
                        ordinals[k] = -1
                        break
                    }
                    if slots[2 * s] == i {
                        ordinals[k] = Int(stored) - 1
                        break
                    }
                    s = (s + 1) & mask
                }
            }
        }
    }

    /// Empties the set but keeps its storage, for a caller that reuses a small set (a join
    /// table of a prepared query's next run): no allocation until it outgrows what it had.
    /// The integer table keeps its size and is zeroed, so keep only sets that stayed small.
    public mutating func removeAllKeepingCapacity() {
        if integerCount > 0 { integers.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        integerCount = 0
        // Empty lists (a set of integer keys has no encoded ones) left alone: emptying one
        // made it a new empty buffer, about 60 instructions a list.
        if !arena.isEmpty { arena.removeAll(keepingCapacity: true) }
        if !ends.isEmpty { ends.removeAll(keepingCapacity: true) }
        if !hashes.isEmpty { hashes.removeAll(keepingCapacity: true) }
        if !byteOrdinals.isEmpty { byteOrdinals.removeAll(keepingCapacity: true) }
        if table.count > 0 { table = PositionTable() }
    }

    /// Doubles the integer table (16 slots at first), re-placing every key.
    private mutating func growIntegers() {
        let old = integers
        let capacity = max(16, old.count)   // old.count is twice the old slot count
        integers = [Int64](repeating: 0, count: 2 * capacity)
        integers.withUnsafeMutableBufferPointer { slots in
            let mask = capacity - 1
            var o = 0
            while o < old.count {
                if old[o + 1] != 0 {
                    var s = Int(truncatingIfNeeded: Self.integerHash(old[o])) & mask
                    while slots[2 * s + 1] != 0 { s = (s + 1) & mask }
                    slots[2 * s] = old[o]
                    slots[2 * s + 1] = old[o + 1]
                }
                o += 2
            }
        }
    }

    /// The number of the encoder's key, nil when absent.
    @inline(__always)
    public func find(_ key: KeyEncoder) -> Int? {
        find(key.buffer)
    }

    public func find(_ key: UnsafeRawBufferPointer) -> Int? {
        if let i = Self.singleInteger(key) { return find(integer: i) }
        let hash = StorageHash.bytes(key)
        return table.find(hash: hash, where: { equals($0, key) }).map { byteOrdinals[$0.position] }
    }

    /// The number of the key made of one integer value, nil when absent.
    public func find(integer i: Int64) -> Int? {
        guard integerCount > 0 else { return nil }
        return integers.withUnsafeBufferPointer { slots -> Int? in
            let mask = slots.count / 2 - 1
            var s = Int(truncatingIfNeeded: Self.integerHash(i)) & mask
            while true {
                let stored = slots[2 * s + 1]
                if stored == 0 { return nil }
                if slots[2 * s] == i { return Int(stored) - 1 }
                s = (s + 1) & mask
            }
        }
    }

    /// When every key is one integer value: those integers by number, written into `out`
    /// (its storage reused), and true; false (`out` left as it was) otherwise.
    public func integerKeys(into out: inout [Int64]) -> Bool {
        guard ends.isEmpty else { return false }
        // Resized one element at a time: a few keys, and no generic range replacement.
        while out.count > integerCount { out.removeLast() }
        while out.count < integerCount { out.append(0) }
        integers.withUnsafeBufferPointer { slots in
            out.withUnsafeMutableBufferPointer { keys in
                var o = 0
                while o < slots.count {
                    if slots[o + 1] != 0 { keys[Int(slots[o + 1]) - 1] = slots[o] }
                    o += 2
                }
            }
        }
        return true
    }

    /// Every key's values, by number (the inverse of the encoding, up to equality: an
    /// integral real comes back as the equal integer).
    public var allValues: [[Value]] {
        // Reserved and appended: `Array(repeating:count:)` takes the standard library's
        // unspecialized allocation, a metadata look-up of several hundred instructions.
        var out: [[Value]] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append([]) }
        var o = 0
        while o < integers.count {
            if integers[o + 1] != 0 { out[Int(integers[o + 1]) - 1] = [.integer(integers[o])] }
            o += 2
        }
        arena.withUnsafeBytes { all in
            for b in ends.indices {
                let start = b == 0 ? 0 : ends[b - 1]
                out[byteOrdinals[b]] = KeyEncoder.decode(UnsafeRawBufferPointer(rebasing: all[start..<ends[b]]))
            }
        }
        return out
    }

    /// The integer of a key that is one integer value (tag 1 and 8 bytes), else nil.
    @inline(__always)
    public static func singleInteger(_ key: UnsafeRawBufferPointer) -> Int64? {
        guard key.count == 9, key[0] == 1 else { return nil }
        return Int64(littleEndian: key.loadUnaligned(fromByteOffset: 1, as: Int64.self))
    }

    @inline(__always)
    private static func integerHash(_ i: Int64) -> UInt64 {
        StorageHash.mix(UInt64(bitPattern: i) &+ 0x9E37_79B9_7F4A_7C15)
    }

    @inline(__always)
    private func equals(_ b: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let s = b == 0 ? 0 : ends[b - 1]
        guard ends[b] - s == key.count else { return false }
        return arena.withUnsafeBytes { all in
            guard let a = all.baseAddress, let k = key.baseAddress else { return true }
            return memcmp(a + s, k, key.count) == 0
        }
    }
}
