import FileSupport
import Relational

/// Writes rows as RFC 4180 CSV (comma-separated, `\n` line ends, a header of attribute
/// names in scheme order) with an encoding that keeps every value's type:
///
/// | value   | written as                                   |
/// |---------|----------------------------------------------|
/// | null    | an empty, unquoted field                     |
/// | integer | decimal digits, e.g. `42`, `-7`              |
/// | real    | Swift's shortest round-trip form, always with `.` or `e` (`2.5`, `3.0`, `1e-07`), `nan`, `inf`, `-inf` |
/// | text    | always double-quoted, `"` doubled (`""` is the empty string) |
/// | blob    | `x'…'` with lower-case hex, unquoted         |
///
/// So `,` (null) and `,"",` (empty text) differ, and `"42"` is text while `42` is a number.
public enum CSVWriter {
    /// The CSV text of a table.
    public static func text(scheme: Scheme, rows: [Row]) -> String {
        var out: [UInt8] = []
        encode(scheme: scheme, rows: rows) { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self)
    }

    static func encode(scheme: Scheme, rows: [Row], into sink: ([UInt8]) -> Void) {
        encodeHeader(scheme: scheme, into: sink)
        encode(rows: rows, into: sink)
    }

    static func encodeHeader(scheme: Scheme, into sink: ([UInt8]) -> Void) {
        var line: [UInt8] = []
        for (i, a) in scheme.attributes.enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            appendQuotedIfNeeded(a.name, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        sink(line)
    }

    static func encode(rows: [Row], into sink: ([UInt8]) -> Void) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        for row in rows {
            line.removeAll(keepingCapacity: true)
            for (i, v) in row.values.enumerated() {
                if i > 0 { line.append(UInt8(ascii: ",")) }
                append(v, to: &line)
            }
            line.append(UInt8(ascii: "\n"))
            sink(line)
        }
    }

    static func append(_ value: Value, to line: inout [UInt8]) {
        switch value {
        case .null: break
        case let .integer(i): line.append(contentsOf: String(i).utf8)
        case .real, .blob: line.append(contentsOf: value.description.utf8)
        case let .text(s): appendQuoted(s, to: &line)
        }
    }

    private static func appendQuoted(_ s: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            if b == UInt8(ascii: "\"") { line.append(b) }
            line.append(b)
        }
        line.append(UInt8(ascii: "\""))
    }

    /// Header names are quoted only when they need it (a comma, quote or line break).
    private static func appendQuotedIfNeeded(_ s: String, to line: inout [UInt8]) {
        if s.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) {
            appendQuoted(s, to: &line)
        } else {
            line.append(contentsOf: s.utf8)
        }
    }
}

extension Dataset {
    /// Writes one `<table>.csv` per table plus `manifest.txt` (shape, seed, parameters,
    /// indexes, content hash) into `directory`, which must not exist or be empty. Files are
    /// written into a temporary sibling directory that is renamed into place at the end, so
    /// a failure leaves nothing half-written.
    public func writeCSV(to directory: String) throws {
        try CSVDestination(directory: directory).write { sink in
            try stream(into: StreamingTableWriter(sink: sink, hashing: false))
            return overview
        }
    }
}

/// A CSV directory being written: files go into a temporary sibling directory, renamed into
/// place with the manifest once complete and removed on any failure (a full disk included).
public struct CSVDestination: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// Runs `body` with a sink writing `<table>.csv` files, then writes `manifest.txt` from
    /// the overview it returns and renames the directory into place.
    @discardableResult
    public func write(_ body: (TableSink) throws -> DatasetOverview) throws -> DatasetOverview {
        try publishDirectory(directory, describedAs: "CSV directory", removing: FileSystem.removeDirectory) { temporary in
            let sink = CSVTableSink(directory: temporary)
            let overview = try body(sink)
            try sink.close()
            try FileSystem.writeText(overview.manifestText(), to: FileSystem.join(temporary, "manifest.txt"))
            return overview
        }
    }
}

/// One `<table>.csv` per table, in the encoding `CSVWriter` documents.
final class CSVTableSink: TableSink {
    private let directory: String
    private var writer: ByteFileWriter?

    init(directory: String) { self.directory = directory }

    func begin(_ table: TableHeader) throws {
        let writer = try ByteFileWriter(path: FileSystem.join(directory, table.name + ".csv"))
        CSVWriter.encodeHeader(scheme: table.scheme) { writer.write($0) }
        self.writer = writer
    }

    func write(_ rows: [Row]) throws {
        guard let writer else { throw WorkloadError.output("rows written outside a table") }
        CSVWriter.encode(rows: rows) { writer.write($0) }
    }

    func end() throws { try close() }

    /// Closes the open file, reporting any write error (a full disk shows up here).
    func close() throws {
        guard let writer else { return }
        self.writer = nil
        try writer.close()
    }
}
