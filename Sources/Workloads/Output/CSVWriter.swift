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
        var line: [UInt8] = []
        line.reserveCapacity(256)
        for (i, a) in scheme.attributes.enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            appendQuotedIfNeeded(a.name, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        sink(line)
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
        switch FileSystem.kind(of: directory) {
        case .missing: break
        case .directory where FileSystem.isEmptyDirectory(directory): break
        case .directory: throw WorkloadError.output("'\(directory)' already exists and is not empty; choose a new directory")
        default: throw WorkloadError.output("'\(directory)' exists and is not a directory")
        }
        let temporary = FileSystem.temporarySibling(of: directory)
        try FileSystem.makeDirectory(temporary)
        do {
            for t in tables {
                let writer = try ByteFileWriter(path: temporary + "/" + t.name + ".csv")
                CSVWriter.encode(scheme: t.scheme, rows: t.rows) { writer.write($0) }
                try writer.close()
            }
            try FileSystem.writeText(manifestText(), to: temporary + "/manifest.txt")
            if FileSystem.kind(of: directory) == .directory { FileSystem.removeEmptyDirectory(directory) }
            try FileSystem.rename(temporary, to: directory)
        } catch {
            FileSystem.removeDirectory(temporary)
            throw error
        }
    }

    /// The manifest written next to CSV files.
    public func manifestText() -> String {
        var lines = [
            "shape: \(shape)", "rows: \(rowsRequested)", "seed: \(seed)", "params: \(parameters)",
            "content-hash: \(contentHashHex)",
            "csv-encoding: null = empty unquoted field; text always double-quoted; integers and reals bare; blobs x'hex'",
        ]
        for t in tables {
            lines.append("table \(t.name): \(t.scheme) rows \(t.rows.count) indexed [" + t.indexedAttributes.map(\.name).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
