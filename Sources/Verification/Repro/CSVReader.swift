import FileSupport
import Relational

/// Reads the CSV that `Workloads.CSVWriter` writes, keeping each value's type: an empty
/// unquoted field is null, a quoted field text (`""` is one quote), `x'…'` a blob, a bare
/// number with `.`, `e` or `E` a real, other bare numbers integers.
enum CSVReader {
    /// The header's attribute names and the rows, values in header order.
    /// A leading byte order mark is skipped, and CRs outside quoted fields are dropped.
    static func parse(_ text: String, file: String) throws -> (columns: [Attribute], rows: [[Value]]) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records = try records(bytes, file: file)
        guard !records.isEmpty else { throw VerificationError.repro(path: "\(file):1", message: "empty CSV (no header line)") }
        let header = try records.removeFirst().fields.enumerated().map { index, field in
            guard !field.bytes.isEmpty else {
                throw VerificationError.repro(path: "\(file):1", message: "header field \(index + 1) is empty; every column needs a name")
            }
            return Attribute(String(decoding: field.bytes, as: UTF8.self))
        }
        let rows = try records.map { record in
            guard record.fields.count == header.count else {
                throw VerificationError.repro(
                    path: "\(file):\(record.line)", message: "\(record.fields.count) fields, the header has \(header.count)")
            }
            return try record.fields.map { try value($0, file: file, line: record.line) }
        }
        return (header, rows)
    }

    struct Field {
        var bytes: [UInt8] = []
        var quoted = false
    }

    /// The records with the line each starts on (a quoted field may span lines).
    private static func records(_ bytes: [UInt8], file: String) throws -> [(line: Int, fields: [Field])] {
        var out: [(line: Int, fields: [Field])] = []
        var record: [Field] = []
        var field = Field()
        var line = 1, recordLine = 1
        var i = 0
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n")
        while i < bytes.count {
            let b = bytes[i]
            if b == quote && field.bytes.isEmpty && !field.quoted {
                field.quoted = true
                let opened = line
                i += 1
                var closed = false
                while i < bytes.count {
                    if bytes[i] == newline { line += 1 }
                    if bytes[i] == quote {
                        if i + 1 < bytes.count && bytes[i + 1] == quote {
                            field.bytes.append(quote)
                            i += 2
                            continue
                        }
                        closed = true
                        i += 1
                        break
                    }
                    field.bytes.append(bytes[i])
                    i += 1
                }
                if !closed {
                    throw VerificationError.repro(path: "\(file):\(opened)", message: "unterminated quoted field (its quote opens here)")
                }
                // `"ab"c` was read as `abc`: a quoted field ends at its closing quote.
                if i < bytes.count, bytes[i] != comma, bytes[i] != newline, bytes[i] != UInt8(ascii: "\r") {
                    throw VerificationError.repro(
                        path: "\(file):\(line)", message: "text after a quoted field's closing quote; a quote inside a field is written \"\"")
                }
            } else if b == comma {
                record.append(field)
                field = Field()
                i += 1
            } else if b == newline {
                record.append(field)
                out.append((recordLine, record))
                record = []
                field = Field()
                line += 1
                recordLine = line
                i += 1
            } else {
                if b != UInt8(ascii: "\r") { field.bytes.append(b) }
                i += 1
            }
        }
        if !record.isEmpty || !field.bytes.isEmpty || field.quoted {
            record.append(field)
            out.append((recordLine, record))
        }
        return out
    }

    private static func value(_ field: Field, file: String, line: Int) throws -> Value {
        if field.quoted { return .text(String(decoding: field.bytes, as: UTF8.self)) }
        let text = String(decoding: field.bytes, as: UTF8.self)
        if text.isEmpty { return .null }
        if text.hasPrefix("x'") && text.hasSuffix("'") && text.count >= 3 {
            let hex = Array(text.utf8.dropFirst(2).dropLast())
            guard hex.count % 2 == 0 else { throw bad(text, file, line) }
            var blob: [UInt8] = []
            for k in stride(from: 0, to: hex.count, by: 2) {
                guard let high = digit(hex[k]), let low = digit(hex[k + 1]) else { throw bad(text, file, line) }
                blob.append(high << 4 | low)
            }
            return .blob(blob)
        }
        if let n = Int64(text) { return .integer(n) }
        // Digits alone are an integer (the writer writes a real with a point or an exponent);
        // past 64 bits Double's parser made one real of two different integers.
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.utf8.dropFirst() : text.utf8[...]
        if !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            throw VerificationError.repro(path: "\(file):\(line)", message: "integer \(Printable.excerpt(text)) does not fit in 64 bits")
        }
        // Only finite decimal reals are values (the writer never writes others); Double's
        // parser also reads `nan`, `inf`, hex (`0x1p3`), an exponent past the range, and
        // stops at a NUL (`1<NUL>zzz` read as 1).
        if DecimalText.isDecimal(field.bytes), let d = Double(text), d.isFinite {
            return .real(d)
        }
        throw bad(text, file, line)
    }

    private static func digit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func bad(_ text: String, _ file: String, _ line: Int) -> VerificationError {
        .repro(path: "\(file):\(line)", message: "\(Printable.quoted(text)) is not a value (null, finite number, \"text\" or x'hex')")
    }
}
