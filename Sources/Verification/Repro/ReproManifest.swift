import FileSupport
import QueryEngine
import Relational
import Workloads

/// A repro's `manifest.txt`, read strictly: `key: value` lines with the keys `flags`,
/// `backend`, `kind`, `batch-size`, `partition`, `mode` and `declare-keys` (the last two in
/// a change repro; each at most once) and `table` (one per table), and blank lines. Anything else is an error naming the manifest and its line, as
/// is a table name that could reach outside the repro directory (its CSV is `<name>.csv`
/// beside the manifest). CRLF line ends and a BOM are accepted (`SourceText`).
struct ReproManifest {
    struct TableLine {
        let name: String
        let indexed: [Attribute]
        let rows: Int
        let line: Int
    }

    var flags = ""
    var backend = "memory"
    var kind: Mismatch.Kind?
    var batchSize = CaseChecker.defaultBatchSize
    var partition: PartitionOutputs?
    var tables: [TableLine] = []
    /// A change repro's propagation mode (`TransactionalDatabase.Mode`'s raw value).
    var mode: String?
    /// A change repro: whether tables whose first attribute is a key declare it.
    var declareKeys = false
    /// The line each key other than `table` stands on, for errors found after reading.
    private(set) var lines: [String: Int] = [:]

    static let keys = ["flags", "backend", "kind", "batch-size", "partition", "mode", "declare-keys", "table"]

    /// `path` names the manifest in errors, which read `path:line: message`.
    init(_ text: String, path: String) throws {
        var seen: [String: Int] = [:]
        var empty = true
        for (index, raw) in SourceText.normalized(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> VerificationError { .repro(path: "\(path):\(number)", message: message) }
            let line = String(raw).trimmed
            if line.isEmpty { continue }
            empty = false
            guard let colon = line.firstIndex(of: ":") else {
                throw fail("\(Printable.quoted(line)) is not a `key: value` line")
            }
            let key = String(line[..<colon])
            let value = String(line[line.index(after: colon)...]).trimmed
            guard Self.keys.contains(key) else {
                throw fail("unknown key \(Printable.quoted(key)); expected one of: " + Self.keys.joined(separator: ", "))
            }
            if key != "table" {
                if let earlier = seen[key] { throw fail("'\(key)' given again (first at line \(earlier))") }
                seen[key] = number
            }
            switch key {
            case "flags": flags = value
            case "backend": backend = value
            case "kind":
                guard let known = Mismatch.Kind(rawValue: value) else {
                    throw fail("unknown kind \(Printable.quoted(value)); expected one of: "
                        + Mismatch.Kind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                kind = known
            case "batch-size":
                guard let n = Int(value), n >= 1 else {
                    throw fail("batch-size \(Printable.quoted(value)) is not a positive integer")
                }
                batchSize = n
            case "mode": mode = value
            case "declare-keys":
                guard value == "yes" || value == "no" else {
                    throw fail("declare-keys \(Printable.quoted(value)) is not yes or no")
                }
                declareKeys = value == "yes"
            case "partition":
                let n = value.split(separator: " ").map { Int($0) }
                guard n.count == 3, let whole = n[0], let matching = n[1], let rest = n[2],
                      whole >= 0, matching >= 0, rest >= 0 else {
                    throw fail("partition \(Printable.quoted(value)) is not three output numbers (WHOLE MATCHING REST)")
                }
                partition = PartitionOutputs(whole: whole, matching: matching, rest: rest)
            default:
                let table = try Self.table(value, line: number, fail: fail)
                if let earlier = tables.first(where: { $0.name == table.name }) {
                    throw fail("table '\(Printable.escaped(table.name))' listed again (first at line \(earlier.line))")
                }
                tables.append(table)
            }
        }
        lines = seen
        if empty {
            throw VerificationError.repro(path: "\(path):1", message: "the manifest is empty; a repro's manifest lists at least "
                + "its tables (`table: NAME indexed [ATTRIBUTES] rows N`), as `verify` writes it")
        }
    }

    /// `path:LINE` of `key`'s line, or `path` when the key is absent.
    func location(of key: String, path: String) -> String {
        lines[key].map { "\(path):\($0)" } ?? path
    }

    /// `NAME indexed [a, b] rows N`.
    private static func table(_ value: String, line: Int, fail: (String) -> VerificationError) throws -> TableLine {
        let expected = "expected `table: NAME indexed [ATTRIBUTES] rows N`"
        let name = String(value.prefix { $0 != " " })
        if let problem = tableNameProblem(name) { throw fail("table name \(Printable.quoted(name)) \(problem)") }
        var rest = Substring(value.dropFirst(name.count)).drop { $0 == " " }
        guard rest.hasPrefix("indexed ["), let close = rest.firstIndex(of: "]") else {
            throw fail("\(Printable.quoted(value)): \(expected)")
        }
        let list = rest[rest.index(rest.startIndex, offsetBy: "indexed [".count)..<close]
        let indexed = list.split(separator: ",").map { Attribute(String($0).trimmed) }
        if let repeated = indexed.enumerated().first(where: { indexed[..<$0.offset].contains($0.element) })?.element {
            throw fail("\(Printable.quoted(value)): '\(Printable.escaped(repeated.name))' is indexed twice")
        }
        rest = rest[rest.index(after: close)...].drop { $0 == " " }
        guard rest.hasPrefix("rows "), let rows = Int(rest.dropFirst("rows ".count)), rows >= 0 else {
            throw fail("\(Printable.quoted(value)): \(expected)")
        }
        return TableLine(name: name, indexed: indexed, rows: rows, line: line)
    }

    /// Why `name` cannot name a table whose rows are `<name>.csv` in the repro directory,
    /// or nil: it must be a plain file-name part, never a path.
    static func tableNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.contains("/") { return "contains '/'; a table's CSV must be in the repro directory" }
        if name.contains("..") { return "contains '..'; a table's CSV must be in the repro directory" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            return "contains a control character"
        }
        return nil
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return String(s)
    }
}
