import FileSupport
import Foundation

/// A CSV table of text fields (RFC 4180: commas, double quotes, `""` for a quote), for
/// the result files this module writes and reads back (resume, merge, compare).
public struct CSVTable: Equatable {
    public var header: [String]
    public var rows: [[String]]
    /// The file line each row starts on (the header is line 1); empty for built tables.
    public var rowLines: [Int] = []

    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    public static func == (a: CSVTable, b: CSVTable) -> Bool { a.header == b.header && a.rows == b.rows }

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

    /// Parses CSV text whose first line is the header. Errors name `file:line`.
    public init(parsing text: String, file: String) throws {
        var lines: [[String]] = []
        var starts: [Int] = []
        var field = ""
        var row: [String] = []
        var quoted = false
        var quoteLine = 0
        var atFieldStart = true
        var line = 1
        var rowStart = 1
        var iterator = text.makeIterator()
        var pending: Character?
        while let c = pending ?? iterator.next() {
            pending = nil
            if c == "\n" || c == "\r\n" || c == "\r" { line += 1 }
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
                quoteLine = line
                atFieldStart = false
            case ",":
                row.append(field); field = ""; atFieldStart = true
            case "\n", "\r\n":
                row.append(field); field = ""; atFieldStart = true
                lines.append(row); starts.append(rowStart); row = []
                rowStart = line
            default:
                field.append(c); atFieldStart = false
            }
        }
        let place = Printable.escaped(file)
        if quoted { throw ExperimentFailure.usage("\(place):\(quoteLine): a quoted field is never closed") }
        if !field.isEmpty || !row.isEmpty { row.append(field); lines.append(row); starts.append(rowStart) }
        guard let header = lines.first else { throw ExperimentFailure.usage("\(place): empty CSV file, expected a header") }
        self.header = header
        self.rows = Array(lines.dropFirst())
        self.rowLines = Array(starts.dropFirst())
        for (i, r) in rows.enumerated() where r.count != header.count {
            throw ExperimentFailure.usage("\(place):\(rowLines[i]): \(r.count) fields; the header has \(header.count)")
        }
    }

    /// Refuses a header other than `expected` (a file from another tool or version),
    /// naming the first column that differs.
    public func requireHeader(_ expected: [String], file: String) throws {
        guard header != expected else { return }
        let place = Printable.escaped(file) + ":1"
        for (i, name) in expected.enumerated() where i >= header.count || header[i] != name {
            let found = i < header.count ? Printable.excerpt(header[i]) : "nothing"
            throw ExperimentFailure.usage("\(place): column \(i + 1) of the header is \(found), expected '\(name)'; "
                + "this is not a file this testbed writes")
        }
        throw ExperimentFailure.usage("\(place): the header has \(header.count) columns, expected \(expected.count); "
            + "this is not a file this testbed writes")
    }

    /// Every row as a located record.
    public func located(file: String) -> [CSVRecord] {
        records.enumerated().map { CSVRecord(fields: $0.element, file: file, line: $0.offset < rowLines.count ? rowLines[$0.offset] : $0.offset + 2) }
    }
}
