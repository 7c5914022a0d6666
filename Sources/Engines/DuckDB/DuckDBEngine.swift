#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport
import Relational
import Workloads

/// DuckDB through its official Python package, in a long-lived helper process
/// (`scripts/engines/duckdb_helper.py`, spoken to by `DuckDBClient`). The helper loads a
/// dataset once from CSV with exact column types and the same indexes as the other
/// backends; each query is timed inside the helper, from executing it to having fetched
/// every row, so the transfer to the testbed is not counted.
///
/// Settings: `threads` (default 1) and `disabled_optimizers` (DuckDB's comma-separated list,
/// e.g. `join_filter_pushdown,filter_pushdown`).
public final class DuckDBEngine: BaselineEngine {
    public static let kind = EngineKind(
        name: "duckdb", backend: "duckdb",
        summary: "DuckDB (Python package) in a helper process",
        settingsHelp: ["threads: N (default 1)", "disabled_optimizers: DuckDB optimizer names, comma-separated"],
        checkSetting: { name, value in
            switch name {
            case "threads":
                guard let n = Int(value), n >= 1, n <= 1024 else { return "threads must be an integer from 1 to 1024, got '\(value)'" }
                return nil
            case "disabled_optimizers":
                let allowed = value.allSatisfy { ("a"..."z").contains($0) || $0 == "_" || $0 == "," || $0 == " " }
                return allowed ? nil : "disabled_optimizers must be optimizer names (a-z and _) separated by commas, got '\(value)'"
            default:
                return "unknown setting '\(name)'"
            }
        },
        missing: { DuckDBEngine.missing() },
        checkQuery: { outputs in
            let translator = DialectTranslator(dialect: DuckDBDialect(), engine: "duckdb")
            do { for relation in outputs { _ = try translator.translate(relation) } } catch { return "\(error)" }
            return nil
        },
        start: { label, settings in try DuckDBEngine(label: label, settings: settings) })

    public let label: String
    public let dialect = DuckDBDialect()
    private let client: DuckDBClient

    public init(label: String, settings: EngineSettings) throws {
        self.label = label
        let setup: DuckDBHelperSetup
        do { setup = try DuckDBHelperSetup.fromEnvironment() } catch { throw EngineError.missing(engine: label, error.description) }
        client = try DuckDBClient(setup: setup, label: label)
        do {
            try client.setThreads(Int(settings["threads"] ?? "1") ?? 1)
            if let names = settings["disabled_optimizers"] {
                // Checked to be names and commas only, so it can stand in a string literal.
                try client.execute("SET disabled_optimizers = '\(names)'")
            }
        } catch {
            client.close()
            throw error
        }
    }

    deinit { client.close() }

    public var version: String { client.version }
    public var helperProcessID: Int32 { client.processID }

    public func load(_ tables: [DatasetTable]) throws -> RelationCatalog {
        let types = try tables.map { try DuckDBClient.columnTypes(of: $0, label: label) }
        var template = Array((DuckDBEngine.temporaryRoot + "/testbed-duckdb-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            let origin = DuckDBHelperSetup.environment("TMPDIR") == nil ? "" : " (TMPDIR)"
            throw EngineError.missing(
                engine: label, "cannot create a temporary directory under '\(DuckDBEngine.temporaryRoot)'\(origin): \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        defer { FileSystem.removeDirectory(directory) }
        for table in tables {
            try FileSystem.writeText(CSVWriter.text(scheme: table.scheme, rows: table.rows), to: directory + "/" + table.name + ".csv")
        }
        try client.load(tables, types: types, csvDirectory: directory)
        var relations: [String: Relation] = [:]
        for (table, columnTypes) in zip(tables, types) {
            for (i, attribute) in table.indexedAttributes.enumerated() {
                let index = dialect.quoteIdentifier("\(table.name)_index\(i)")
                try client.execute("CREATE INDEX \(index) ON \(dialect.quoteIdentifier(table.name)) (\(dialect.quoteIdentifier(attribute.name)))")
            }
            let inexact = try table.scheme.attributes.map { try table.column($0).contains(where: Emitter.inexactAsReal) }
            relations[table.name] = Relation(source: EngineTable(
                name: table.name, scheme: table.scheme, columnTypes: columnTypes, rowCount: table.rowCount, engine: label,
                inexactAsReal: inexact))
        }
        return RelationCatalog(relations)
    }

    public func prepare(_ outputs: [Relation]) throws -> EngineStatement {
        let translator = DialectTranslator(dialect: dialect, engine: label)
        return EngineStatement(outputs: try outputs.map(translator.translate))
    }

    public func run(_ statement: EngineStatement) throws -> EngineRun {
        var results: [[Row]] = []
        var nanoseconds = 0
        for output in statement.outputs {
            let (rows, time) = try client.fetch(sql: output.sql, parameters: output.parameters)
            results.append(output.rows(from: rows))
            nanoseconds += time
        }
        return EngineRun(results: results, engineMicroseconds: Double(nanoseconds) / 1000)
    }

    public func explain(_ statement: EngineStatement) throws -> [EnginePlan] {
        try statement.outputs.map { output in
            let (sql, format) = dialect.explain(output.sql)
            let (rows, _) = try client.fetch(sql: sql, parameters: output.parameters)
            // EXPLAIN's rows: (explain_key, explain_value); the plan is the value.
            let text = rows.compactMap { row -> String? in
                guard let last = row.values.last, case let .text(t) = last else { return nil }
                return t
            }.joined(separator: "\n")
            return EnginePlan(format: format, text: text.hasSuffix("\n") ? text : text + "\n")
        }
    }

    public func stop() { client.close() }

    static var temporaryRoot: String { DuckDBHelperSetup.environment("TMPDIR") ?? "/tmp" }

    /// nil when the environment names a helper script and a Python 3 that imports duckdb
    /// (`DuckDBHelperSetup`), else why not.
    static func missing() -> String? {
        do { return try DuckDBHelperSetup.fromEnvironment().checkInterpreter() } catch { return error.description }
    }
}
