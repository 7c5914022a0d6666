// JSON for the line protocol of engine helpers: one value per line, written and parsed
// here without Foundation (the benchmarks link none). Public for the benchmarks.

public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits 64 bits.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public subscript(key: String) -> JSON? {
        if case let .object(members) = self { return members[key] }
        return nil
    }

    public var string: String? { if case let .string(s) = self { return s }; return nil }
    public var int: Int? { if case let .integer(i) = self { return Int(i) }; return nil }
    public var array: [JSON]? { if case let .array(a) = self { return a }; return nil }

    /// Compact text on one line (keys in sorted order, so output is reproducible).
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .integer(i): out += String(i)
        case let .number(d):
            // Callers encode NaN and infinities themselves (JSON has no literal for them).
            precondition(d.isFinite, "JSON cannot hold \(d)")
            var text = String(d)
            if !text.contains(".") && !text.contains("e") { text += ".0" }
            out += text
        case let .string(s): JSON.quote(s, into: &out)
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSON.quote(key, into: &out)
                out += ":"
                members[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// Parses one JSON text (surrounding white space allowed).
    public static func parse(_ text: String) throws -> JSON {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("trailing characters") }
        return value
    }

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ message: String) -> ParseError {
            ParseError(description: "JSON: \(message) at byte \(position)")
        }

        mutating func skipSpace() {
            while position < bytes.count, [9, 10, 13, 32].contains(bytes[position]) { position += 1 }
        }

        mutating func literal(_ word: String, _ value: JSON) throws -> JSON {
            let w = Array(word.utf8)
            guard position + w.count <= bytes.count, Array(bytes[position..<position + w.count]) == w else {
                throw error("unexpected character")
            }
            position += w.count
            return value
        }

        mutating func value(depth: Int) throws -> JSON {
            guard depth < 200 else { throw error("nested too deeply") }
            skipSpace()
            guard position < bytes.count else { throw error("unexpected end") }
            switch bytes[position] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                position += 1
                var items: [JSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard position < bytes.count else { throw error("unterminated array") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                    throw error("expected , or ]")
                }
            case UInt8(ascii: "{"):
                position += 1
                var members: [String: JSON] = [:]
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected :") }
                    position += 1
                    members[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard position < bytes.count else { throw error("unterminated object") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                    throw error("expected , or }")
                }
            default:
                return try number()
            }
        }

        mutating func number() throws -> JSON {
            let start = position
            var integral = true
            while position < bytes.count {
                let b = bytes[position]
                if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
                    integral = false
                } else if !(b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || (48...57).contains(b)) {
                    break
                }
                position += 1
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if integral, let i = Int64(text) { return .integer(i) }
            guard !text.isEmpty, let d = Double(text) else { throw error("not a number: \(text)") }
            return .number(d)
        }

        mutating func hex4() throws -> UInt32 {
            guard position + 4 <= bytes.count,
                  let v = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else { throw error("bad \\u escape") }
            position += 4
            return v
        }

        mutating func string() throws -> String {
            position += 1  // opening quote
            var out: [UInt8] = []
            while position < bytes.count {
                let b = bytes[position]
                position += 1
                if b == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard b == UInt8(ascii: "\\") else { out.append(b); continue }
                guard position < bytes.count else { break }
                let e = bytes[position]
                position += 1
                switch e {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), position + 6 <= bytes.count,
                       bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low &- 0xDC00)
                    }
                    let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: out.append(e)  // \" \\ \/
                }
            }
            throw error("unterminated string")
        }
    }
}
