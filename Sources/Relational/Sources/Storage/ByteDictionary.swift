#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Interned byte strings (a column's texts or blobs): each distinct string is stored once,
/// in one byte arena, and named by a code 0, 1, 2, ... in order of first appearance.
/// Equal strings always get the same code, so within a column code equality is value
/// equality. Strings are never removed (a deleted row's text stays until the table goes).
public struct ByteDictionary: Sendable {
    private var arena: [UInt8] = []
    /// `ends[code]` is where the string's bytes end in `arena`; it starts where the
    /// previous one ends.
    private var ends: [Int] = []
    private var lookup = PositionTable()

    public init() {}

    /// How many distinct strings there are.
    public var count: Int { ends.count }

    /// The bytes of the string with this code.
    @inline(__always)
    public func withBytes<R>(of code: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let start = code == 0 ? 0 : ends[code - 1]
        let end = ends[code]
        return try arena.withUnsafeBytes { all in
            try body(UnsafeRawBufferPointer(rebasing: all[start..<end]))
        }
    }

    public func string(_ code: Int) -> String {
        withBytes(of: code) { String(decoding: $0, as: UTF8.self) }
    }

    public func bytes(_ code: Int) -> [UInt8] {
        withBytes(of: code) { Array($0) }
    }

    /// The code of these bytes, if present.
    public func code(of bytes: UnsafeRawBufferPointer) -> Int? {
        let hash = StorageHash.bytes(bytes)
        return lookup.find(hash: hash) { code in self.equals(code, bytes) }?.position
    }

    /// The code of these bytes, adding them if new.
    public mutating func intern(_ bytes: UnsafeRawBufferPointer) -> Int {
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
        lookup.insert(code, hash: hash) { c in Self.hash(c, arena, ends) }
        return code
    }

    public func code(of text: String) -> Int? {
        var text = text
        return text.withUTF8 { code(of: UnsafeRawBufferPointer($0)) }
    }

    public mutating func intern(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
    }

    public func code(of blob: [UInt8]) -> Int? {
        blob.withUnsafeBytes { code(of: $0) }
    }

    public mutating func intern(_ blob: [UInt8]) -> Int {
        blob.withUnsafeBytes { intern($0) }
    }

    /// Room for `strings` more strings of `bytes` more bytes in all.
    public mutating func reserveCapacity(strings: Int, bytes: Int) {
        arena.reserveCapacity(arena.count + bytes)
        ends.reserveCapacity(ends.count + strings)
        let arena = self.arena
        let ends = self.ends
        lookup.reserve(ends.count + strings) { c in Self.hash(c, arena, ends) }
    }

    private static func hash(_ code: Int, _ arena: [UInt8], _ ends: [Int]) -> UInt64 {
        let start = code == 0 ? 0 : ends[code - 1]
        return arena.withUnsafeBytes { StorageHash.bytes(UnsafeRawBufferPointer(rebasing: $0[start..<ends[code]])) }
    }

    /// Byte order of two codes' strings (SQLite's BINARY collation).
    func compare(_ a: Int, _ b: Int) -> Int {
        if a == b { return 0 }
        return withBytes(of: a) { pa in withBytes(of: b) { pb in compareByteBuffers(pa, pb) } }
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
