import Foundation

/// A CSV table of text fields (RFC 4180: commas, double quotes, `""` for a quote), for
/// the result files this module writes and reads back (resume, merge, compare).
public struct CSVTable: Equatable {
    public var header: [String]
    public var rows: [[String]]

    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    public func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    /// The rows as dictionaries by column name.
    public var records: [[String: String]] {
        rows.map { row in
            var record: [String: String] = [:]
            for (i, name) in header.enumerated() { record[name] = i < row.count ? row[i] : "" }
            return record
        }
    }

    public var text: String {
        ([header] + rows).map { $0.map(Self.quote).joined(separator: ",") + "\n" }.joined()
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Parses CSV text whose first line is the header.
    public init(parsing text: String, file: String) throws {
        var lines: [[String]] = []
        var field = ""
        var row: [String] = []
        var quoted = false
        var atFieldStart = true
        var iterator = text.makeIterator()
        var pending: Character?
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case ",":
                row.append(field); field = ""; atFieldStart = true
            case "\n", "\r\n":
                row.append(field); field = ""; atFieldStart = true
                lines.append(row); row = []
            default:
                field.append(c); atFieldStart = false
            }
        }
        if quoted { throw ExperimentFailure.output("\(file): unterminated quoted field") }
        if !field.isEmpty || !row.isEmpty { row.append(field); lines.append(row) }
        guard let header = lines.first else { throw ExperimentFailure.output("\(file): empty CSV file, expected a header") }
        self.header = header
        self.rows = Array(lines.dropFirst())
        for (i, r) in rows.enumerated() where r.count != header.count {
            throw ExperimentFailure.output("\(file): line \(i + 2) has \(r.count) fields; the header has \(header.count)")
        }
    }
}
