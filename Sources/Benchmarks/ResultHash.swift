// The order-independent result hash shared with scripts/engines/duckdb_helper.py: the sum
// mod 2^64 of the CRC-32 of each row's canonical encoding. Equal values (3 and 3.0) encode
// alike, so the engines' results can be compared without sorting or shared hashing.
import Relational

enum ResultHash {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 (the zlib polynomial), as Python's `zlib.crc32`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func of(_ rows: [Row]) -> String {
        var total: UInt64 = 0
        var bytes: [UInt8] = []
        for row in rows {
            bytes.removeAll(keepingCapacity: true)
            for value in row.values { encode(value, into: &bytes) }
            total &+= UInt64(crc32(bytes))
        }
        let digits = String(total, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// null → N; integer, or an integral real below 2^63 in magnitude → I<decimal>; other
    /// real → R<shortest round-trip form>; ; text → T<byte count>:<UTF-8>; blob → B<count>:<bytes>.
    static func encode(_ value: Value, into bytes: inout [UInt8]) {
        switch value {
        case .null:
            bytes.append(UInt8(ascii: "N"))
        case let .integer(i):
            bytes.append(UInt8(ascii: "I"))
            bytes.append(contentsOf: String(i).utf8)
        case let .real(d):
            if d.isFinite, d == d.rounded(.towardZero), d.magnitude < 9_223_372_036_854_775_808.0 {
                encode(.integer(Int64(d)), into: &bytes)
                return
            }
            let text = d.isNaN ? "nan" : d.isInfinite ? (d < 0 ? "-inf" : "inf") : String(d)
            bytes.append(UInt8(ascii: "R"))
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: ";"))
        case let .text(s):
            bytes.append(UInt8(ascii: "T"))
            bytes.append(contentsOf: String(s.utf8.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: s.utf8)
        case let .blob(b):
            bytes.append(UInt8(ascii: "B"))
            bytes.append(contentsOf: String(b.count).utf8)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: b)
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return out
    }
}
