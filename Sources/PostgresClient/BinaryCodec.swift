import Relational

/// Values in PostgreSQL's binary wire format, which is exact for every storage class
/// (no decimal rendering of doubles, no escaping of text or bytes): parameters, COPY
/// fields and result cells.
enum BinaryCodec {
    /// Object ids of the result types decoded below.
    enum OID {
        static let bool: UInt32 = 16
        static let bytea: UInt32 = 17
        static let name: UInt32 = 19
        static let int8: UInt32 = 20
        static let int2: UInt32 = 21
        static let int4: UInt32 = 23
        static let text: UInt32 = 25
        static let oid: UInt32 = 26
        static let json: UInt32 = 114
        static let xml: UInt32 = 142
        static let float4: UInt32 = 700
        static let float8: UInt32 = 701
        static let unknown: UInt32 = 705
        static let bpchar: UInt32 = 1042
        static let varchar: UInt32 = 1043
        static let numeric: UInt32 = 1700
        static let void: UInt32 = 2278
    }

    /// A non-null value as `type`'s binary form. Integers go into double columns when the
    /// double holds them exactly, and integral doubles into bigint columns; anything else
    /// (text into a number column, NaN, which orders differently there) is refused.
    static func encode(_ value: Value, as type: PostgresType, into bytes: inout [UInt8]) throws {
        switch (value, type) {
        case let (.integer(i), .bigint):
            append(UInt64(bitPattern: i), &bytes)
        case let (.real(d), .bigint):
            guard let i = Int64(exactly: d) else { throw mismatch(value, type) }
            append(UInt64(bitPattern: i), &bytes)
        case let (.real(d), .double):
            guard !d.isNaN else {
                throw PostgresError(.unsupportedValue,
                    "NaN cannot be stored in PostgreSQL faithfully: it orders NaN above every number, the testbed below")
            }
            append(d.bitPattern, &bytes)
        case let (.integer(i), .double):
            let d = Double(i)
            guard Int64(exactly: d) == i else { throw mismatch(value, type) }
            append(d.bitPattern, &bytes)
        case let (.text(s), .text):
            guard !s.utf8.contains(0) else {
                throw PostgresError(.unsupportedValue, "PostgreSQL text cannot hold the NUL character (in \(value))")
            }
            bytes.append(contentsOf: s.utf8)
        case let (.blob(b), .bytea):
            bytes.append(contentsOf: b)
        case (.null, _), (.integer, _), (.real, _), (.text, _), (.blob, _):
            throw mismatch(value, type)
        }
    }

    private static func mismatch(_ value: Value, _ type: PostgresType) -> PostgresError {
        PostgresError(.unsupportedValue, "\(value.typeName) value \(value) cannot be stored exactly in a \(type.sqlName) column")
    }

    static func append(_ x: UInt64, _ bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: x >> UInt64(shift))) }
    }

    static func append(_ x: UInt32, _ bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: x >> UInt32(shift))) }
    }

    static func append(_ x: UInt16, _ bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: x >> 8))
        bytes.append(UInt8(truncatingIfNeeded: x))
    }

    /// A result cell of type `oid` from its binary form.
    static func decode(_ cell: UnsafeRawBufferPointer, oid: UInt32, column: String) throws -> Value {
        func integer(_ width: Int) throws -> UInt64 {
            guard cell.count == width else {
                throw PostgresError(.unsupportedValue, "column \(column): \(cell.count) bytes for a \(width)-byte number")
            }
            var x: UInt64 = 0
            for byte in cell { x = x << 8 | UInt64(byte) }
            return x
        }
        switch oid {
        case OID.int8:
            return .integer(Int64(bitPattern: try integer(8)))
        case OID.int4, OID.oid:
            let raw = UInt32(truncatingIfNeeded: try integer(4))
            return .integer(oid == OID.oid ? Int64(raw) : Int64(Int32(bitPattern: raw)))
        case OID.int2:
            return .integer(Int64(Int16(bitPattern: UInt16(truncatingIfNeeded: try integer(2)))))
        case OID.bool:
            return .integer(try integer(1) == 0 ? 0 : 1)
        case OID.float8:
            return .real(Double(bitPattern: try integer(8)))
        case OID.float4:
            return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: try integer(4)))))
        case OID.text, OID.varchar, OID.bpchar, OID.name, OID.unknown, OID.json, OID.xml:
            return .text(String(decoding: cell, as: UTF8.self))
        case OID.bytea:
            return .blob(Array(cell))
        case OID.numeric:
            return try numeric(cell, column: column)
        case OID.void:
            return .null
        default:
            throw PostgresError(.unsupportedValue,
                "column \(column) has PostgreSQL type oid \(oid), which the testbed does not read "
                + "(it reads bigint, integer, smallint, boolean, double precision, real, numeric, text and bytea)")
        }
    }

    /// numeric's binary form: digit count, weight, sign, display scale, then base-10000
    /// digits. Integral values that fit become integers, others reals (through their
    /// decimal text, so the nearest double).
    private static func numeric(_ cell: UnsafeRawBufferPointer, column: String) throws -> Value {
        func word(_ i: Int) -> Int { Int(UInt16(cell[2 * i]) << 8 | UInt16(cell[2 * i + 1])) }
        guard cell.count >= 8 else { throw PostgresError(.unsupportedValue, "column \(column): a truncated numeric") }
        let count = word(0), weight = Int(Int16(truncatingIfNeeded: word(1))), sign = word(2), scale = word(3)
        guard cell.count == 8 + 2 * count else { throw PostgresError(.unsupportedValue, "column \(column): a truncated numeric") }
        switch sign {
        case 0xC000: return .real(.nan)
        case 0xD000: return .real(.infinity)
        case 0xF000: return .real(-.infinity)
        default: break
        }
        var integerPart = ""
        var fraction = ""
        for i in 0..<max(count, weight + 1) {
            let digit = i < count ? word(4 + i) : 0
            let text = String(digit)
            let padded = String(repeating: "0", count: 4 - text.count) + text
            if i <= weight { integerPart += padded } else { fraction += padded }
        }
        if weight < 0 { fraction = String(repeating: "0", count: 4 * (-weight - 1)) + fraction }
        while integerPart.count > 1 && integerPart.hasPrefix("0") { integerPart.removeFirst() }
        if integerPart.isEmpty { integerPart = "0" }
        let negative = sign == 0x4000
        let allZeroFraction = fraction.allSatisfy { $0 == "0" }
        if scale == 0 || allZeroFraction, let i = Int64((negative ? "-" : "") + integerPart) {
            return .integer(i)
        }
        let text = (negative ? "-" : "") + integerPart + "." + (fraction.isEmpty ? "0" : fraction)
        guard let d = Double(text) else { throw PostgresError(.unsupportedValue, "column \(column): numeric \(text)") }
        return .real(d)
    }
}
