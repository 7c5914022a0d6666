import Crypto
import Relational

/// A row's primary-key value as a file name: the SHA-256 of a canonical byte form of the
/// key, in hex, as the seed's `PlistDirectoryRelation` names its `.rowplist` files.
///
/// Canonical means equal values (in the testbed's value equality) give equal bytes: a real
/// with an integral value that fits 64 bits is written as that integer, so a key filter
/// `id == 3.0` finds the file of `id 3`, as the memory and SQLite backends would; `-0.0`
/// is `0`; every NaN is one NaN. Text is its UTF-8 bytes (no Unicode normalization: text
/// compares by bytes here). Each value is a tag and a length before its bytes, so a key of
/// several attributes (a whole-row key) has one unambiguous form.
enum RowKey {
    static func canonicalBytes<S: Sequence>(_ values: S) -> [UInt8] where S.Element == Value {
        var out: [UInt8] = []
        for value in values {
            switch value {
            case .null:
                append("n", [], to: &out)
            case let .integer(v):
                append("i", bigEndian(UInt64(bitPattern: v)), to: &out)
            case let .real(v):
                if let exact = Int64(exactly: v) {
                    append("i", bigEndian(UInt64(bitPattern: exact)), to: &out)
                } else {
                    append("r", bigEndian(v.isNaN ? Double.nan.bitPattern : v.bitPattern), to: &out)
                }
            case let .text(s):
                append("s", Array(s.utf8), to: &out)
            case let .blob(b):
                append("d", b, to: &out)
            }
        }
        return out
    }

    /// The 64 lowercase hex digits of the key's SHA-256.
    static func fileStem<S: Sequence>(_ values: S) -> String where S.Element == Value {
        let digest = SHA256.hash(data: canonicalBytes(values))
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ tag: Character, _ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(tag.asciiValue ?? 0)
        out += bigEndian(UInt64(bytes.count))
        out += bytes
    }

    private static func bigEndian(_ v: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: v >> UInt64(56 - 8 * $0)) }
    }
}
