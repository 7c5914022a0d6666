#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Interned byte strings (a column's texts or blobs): each distinct string is stored once,
/// in one byte arena, and named by a code 0, 1, 2, ... in order of first appearance.
/// Equal strings always get the same code, so within a column code equality is value
/// equality. Strings are never removed (a deleted row's text stays until the table goes).
///
/// Bulk loaders may append strings unchecked (`appendUnchecked`); they are deduplicated
/// later in one pass (`seal`), which touches the lookup table in slot order instead of at
/// random. Until then the dictionary is unsealed and only its owning column, which
/// applies the seal's renumbering, may look strings up.
public struct ByteDictionary: Sendable {
    private var arena: [UInt8] = []
    /// `ends[code]` is where the string's bytes end in `arena`; it starts where the
    /// previous one ends.
    private var ends: [Int] = []
    private var lookup = PositionTable()
    /// Codes below this are in `lookup`.
    private var sealedCount = 0
    /// True once a seal found repeats: their later codes are not in `lookup`, so it no
    /// longer holds exactly the codes 0..<count.
    private var hasRepeats = false

    public init() {}

    /// How many strings are stored (distinct ones, once sealed).
    public var count: Int { ends.count }

    var isSealed: Bool { sealedCount == ends.count }

    /// The bytes of the string with this code.
    @inline(__always)
    public func withBytes<R>(of code: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = code == 0 ? 0 : ends[code - 1]
        let end = ends[code]
        return try arena.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        }
    }

    /// The arena and the end offsets as pointers, valid only while this dictionary is alive
    /// and unchanged (see `ValueColumn.borrowedStorage`).
    @inline(__always)
    func borrowedStorage() -> (arena: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) {
        (arena.withUnsafeBytes { $0 }, ends.withUnsafeBufferPointer { $0 })
    }

    public func string(_ code: Int) -> String {
        withBytes(of: code) { String(decoding: $0, as: UTF8.self) }
    }

    public func bytes(_ code: Int) -> [UInt8] {
        withBytes(of: code) { Array($0) }
    }

    /// The code of these bytes, if present (sealed dictionaries only).
    func code(of bytes: UnsafeRawBufferPointer) -> Int? {
        let hash = StorageHash.bytes(bytes)
        return lookup.find(hash: hash) { code in self.equals(code, bytes) }?.position
    }

    /// The code of these bytes, adding them if new (sealed dictionaries only).
    mutating func intern(_ bytes: UnsafeRawBufferPointer) -> Int {
        assert(isSealed, "intern on an unsealed dictionary")
        let hash = StorageHash.bytes(bytes)
        if let found = lookup.find(hash: hash, where: { code in self.equals(code, bytes) }) {
            return found.position
        }
        let code = ends.count
        precondition(code < PositionTable.positionLimit, "more distinct strings than a column can code")
        arena.append(contentsOf: bytes)
        ends.append(arena.count)
        let arena = self.arena
        let ends = self.ends
        lookup.insert(code, hash: hash, dense: !hasRepeats) { c in Self.hash(c, arena, ends) }
        sealedCount = ends.count
        return code
    }

    /// Appends the bytes as a new code without looking for an equal string.
    mutating func appendUnchecked(_ bytes: UnsafeRawBufferPointer) -> Int {
        let code = ends.count
        precondition(code < PositionTable.positionLimit, "more strings than a column can code")
        arena.append(contentsOf: bytes)
        ends.append(arena.count)
        return code
    }

    /// Enters the unchecked strings into the lookup table, in slot order. Returns nil if
    /// they were all new; otherwise the code to use for every code (a repeated string's
    /// later codes map to its first one, which stays).
    mutating func seal() -> [Int]? {
        let first = sealedCount
        let n = ends.count - first
        guard n > 0 else { return nil }
        let arena = self.arena
        let ends = self.ends
        lookup.reserve(ends.count, dense: !hasRepeats && first == lookup.count) { Self.hash($0, arena, ends) }
        let records = ScratchBuffer<HashRecord>(count: n)
        for code in first..<ends.count {
            records[code - first] = HashRecord(hash: Self.hash(code, arena, ends), item: UInt32(code), kind: 0)
        }
        sortByHome(records, spare: ScratchBuffer(count: n), capacity: PositionTable.capacity(for: ends.count))
        var remap: [Int] = []
        for i in 0..<n {
            let r = records[i]
            let code = Int(r.item)
            // Bytes are read only when a stored string's hash tag matches.
            if let found = lookup.find(hash: r.hash, where: { self.equalCodes($0, code) }) {
                if remap.isEmpty { remap = Array(0..<ends.count) }
                remap[code] = found.position
            } else {
                lookup.insert(code, hash: r.hash) { Self.hash($0, arena, ends) }
            }
        }
        sealedCount = ends.count
        if !remap.isEmpty { hasRepeats = true }
        return remap.isEmpty ? nil : remap
    }

    func code(of text: String) -> Int? {
        var text = text
        return text.withUTF8 { code(of: UnsafeRawBufferPointer($0)) }
    }

    mutating func intern(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    func code(of blob: [UInt8]) -> Int? {
        blob.withUnsafeBytes { code(of: $0) }
    }

    mutating func intern(_ blob: [UInt8]) -> Int {
        blob.withUnsafeBytes { intern($0) }
    }

    /// Room for `strings` more strings of `bytes` more bytes in all.
    public mutating func reserveCapacity(strings: Int, bytes: Int) {
        arena.reserveCapacity(arena.count + bytes)
        ends.reserveCapacity(ends.count + strings)
        let arena = self.arena
        let ends = self.ends
        lookup.reserve(ends.count + strings, dense: !hasRepeats && isSealed) { c in Self.hash(c, arena, ends) }
    }

    private static func hash(_ code: Int, _ arena: [UInt8], _ ends: [Int]) -> UInt64 {
        let start = code == 0 ? 0 : ends[code - 1]
        return arena.withUnsafeBytes { StorageHash.bytes(UnsafeRawBufferPointer(rebasing: $0[start..<ends[code]])) }
    }

    private func equalCodes(_ a: Int, _ b: Int) -> Bool {
        withBytes(of: b) { equals(a, $0) }
    }

    @inline(__always)
    private func equals(_ code: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        withBytes(of: code) { stored in
            guard stored.count == bytes.count else { return false }
            guard let s = stored.baseAddress, let b = bytes.baseAddress else { return true }
            return memcmp(s, b, stored.count) == 0
        }
    }
}

func compareByteBuffers(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
        let c = memcmp(pa, pb, common)
        if c != 0 { return c < 0 ? -1 : 1 }
    }
    return a.count < b.count ? -1 : (a.count == b.count ? 0 : 1)
}
