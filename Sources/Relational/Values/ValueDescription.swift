// Two renderings of a value: as a literal of the query language (`description`), and as a
// cell of a pretty-printed table (`displayText`).

extension Value: CustomStringConvertible {
    /// The value as a query-language literal: `null`, `3`, `2.5`, `"text"`, `x'00ff'`.
    public var description: String {
        switch self {
        case .null: return "null"
        case let .integer(i): return String(i)
        case let .real(d): return Value.realLiteral(d)
        case let .text(s): return Value.quoted(s)
        case let .blob(bytes): return "x'" + Value.hex(bytes) + "'"
        }
    }

    /// The value as shown in a table cell: text unquoted, everything else as a literal.
    public var displayText: String {
        if case let .text(s) = self { return s }
        return description
    }

    /// Reals always show a decimal point or exponent so they read back as reals.
    static func realLiteral(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-inf" : "inf" }
        let text = String(d)
        if text.contains(".") || text.contains("e") || text.contains("E") { return text }
        return text + ".0"
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return out
    }
}
