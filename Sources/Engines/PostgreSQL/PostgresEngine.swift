#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PostgresClient
import PostgresStore
import Relational
import Workloads

/// PostgreSQL: a throw-away server the testbed starts itself (initdb into a temporary
/// directory, a Unix socket only, as an unprivileged user when we are root; see
/// `PostgresServer`), talked to through libpq. Tables are typed from their data and loaded
/// through COPY with the same key and indexes as SQLite's; queries are translated by
/// `PostgresTranslator`, which keeps the testbed's value semantics. `postgres-analyzed`
/// runs ANALYZE after loading. Settings (`enable_hashjoin: off`, `work_mem: 64MB`, …) are
/// applied to the session with `set_config` before loading.
public final class PostgresEngine: BaselineEngine {
    public static let plain = kind(name: "postgres", analyze: false)
    public static let analyzed = kind(name: "postgres-analyzed", analyze: true)

    private static func kind(name: String, analyze: Bool) -> EngineKind {
        EngineKind(
            name: name, backend: "postgres",
            summary: "PostgreSQL, a server started for the run (Unix socket only)"
                + (analyze ? ", with ANALYZE after loading" : ", without ANALYZE"),
            settingsHelp: ["any PostgreSQL setting by its name, e.g. enable_hashjoin: off, work_mem: 64MB "
                           + "(set for the session; PostgreSQL checks the value when the engine starts)"],
            checkSetting: { name, value in PostgresSettings.problem(name: name, value: value) },
            missing: { PostgresSettings.missing() },
            checkQuery: { outputs in translationProblem(outputs, label: name) },
            start: { label, settings in try PostgresEngine(label: label, analyze: analyze, settings: settings) })
    }

    public let label: String
    public let analyze: Bool
    private var database: PostgresDatabase?
    private var loaded: [String] = []
    /// Whether pg_stat_statements is loaded, so `run` can report the server's own time.
    private var statementStatistics = false

    public init(label: String, analyze: Bool, settings: EngineSettings) throws {
        self.label = label
        self.analyze = analyze
        var options = PostgresServer.Options()
        let statistics = Self.statisticsLibraryInstalled()
        if statistics {
            options.settings["shared_preload_libraries"] = "pg_stat_statements"
            options.settings["pg_stat_statements.track_planning"] = "on"
        }
        let database = try Self.mapping(label) { try PostgresDatabase.start(options) }
        self.database = database
        do {
            if statistics {
                try database.connection.command("CREATE EXTENSION pg_stat_statements")
                statementStatistics = true
            }
            var values: [String: String] = [:]
            for entry in settings.entries { values[entry.name] = entry.value }
            try database.apply(settings: values)
        } catch let error as PostgresError where error.kind == .usage {
            database.stop()
            throw EngineError.usage("baseline \(label): \(error.message)")
        } catch {
            database.stop()
            throw Self.engineError(error, label)
        }
    }

    deinit { stop() }

    public func load(_ tables: [DatasetTable]) throws -> RelationCatalog {
        let db = try requireDatabase()
        return try Self.mapping(label) {
            for name in loaded { try db.connection.command("DROP TABLE IF EXISTS \(PostgresSQL.quoteIdentifier(name))") }
            loaded.removeAll()
            var relations: [String: Relation] = [:]
            for t in tables {
                // A primary key holds no null in PostgreSQL; a key with one stays a plain index.
                let key = t.primaryKey.filter { a in
                    guard let i = t.scheme.index(of: a) else { return false }
                    return !(0..<t.rowCount).contains { t.store.value(row: $0, column: i).isNull }
                }
                let table = try db.createTable(
                    t.name, scheme: t.scheme, rows: t.store, primaryKey: key, indexedAttributes: t.indexedAttributes)
                loaded.append(t.name)
                relations[t.name] = Relation(source: table)
            }
            if analyze { try db.analyze() }
            return RelationCatalog(relations)
        }
    }

    public func prepare(_ outputs: [Relation]) throws -> EngineStatement {
        try Self.mapping(label) {
            EngineStatement(outputs: try outputs.map { relation in
                let t = try PostgresTranslator.translate(relation)
                return SQLStatement(sql: t.sql, parameters: t.parameters, scheme: t.scheme)
            })
        }
    }

    /// Runs each statement and fetches every row. The engine's own time is what the server
    /// spent planning and executing the statements (sending the rows included), from
    /// pg_stat_statements, reset before and read after them (two more round trips that
    /// the testbed's call time includes); nil when that module is not installed.
    public func run(_ statement: EngineStatement) throws -> EngineRun {
        let db = try requireDatabase()
        return try Self.mapping(label) {
            if statementStatistics { try db.connection.execute("SELECT pg_stat_statements_reset()") }
            let results = try statement.outputs.map { output in
                output.rows(from: try db.connection.execute(output.sql, output.parameters).rows)
            }
            var own: Double?
            if statementStatistics {
                let rows = try db.connection.execute(
                    "SELECT coalesce(sum(total_plan_time + total_exec_time), 0)::float8 FROM pg_stat_statements "
                    + "WHERE query NOT LIKE '%pg_stat_statements%'")
                if case let .real(ms)? = rows.rows.first?.values.first { own = ms * 1000 }
            }
            return EngineRun(results: results, engineMicroseconds: own)
        }
    }

    /// pg_stat_statements ships with the server (Debian's postgresql package has it) but
    /// not everywhere: the server would refuse to start if it were preloaded and missing.
    private static func statisticsLibraryInstalled() -> Bool {
        guard let installation = try? PostgresInstallation.locate() else { return false }
        let library = installation.binDirectory + "/../lib/pg_stat_statements.so"
        return access(library, R_OK) == 0
    }

    public func explain(_ statement: EngineStatement) throws -> [EnginePlan] {
        let db = try requireDatabase()
        return try Self.mapping(label) {
            try statement.outputs.map { output in
                EnginePlan(format: "json", text: try db.connection.explain(output.sql, output.parameters) + "\n")
            }
        }
    }

    /// Stops the server and removes its directory (idempotent).
    public func stop() {
        database?.stop()
        database = nil
        loaded.removeAll()
    }

    /// The server's directory while it runs (tests check it is gone after `stop`).
    public var serverDirectory: String? { database?.server.directory }

    private func requireDatabase() throws -> PostgresDatabase {
        guard let database else { throw EngineError.failed(engine: label, "the server has been stopped") }
        return database
    }

    /// Why `outputs` cannot run here, as far as translating them tells: what the translator
    /// refuses, or a text parameter holding NUL, which the server's text type refuses when
    /// the statement is bound.
    private static func translationProblem(_ outputs: [Relation], label: String) -> String? {
        do {
            for relation in outputs {
                for value in try PostgresTranslator.translate(relation).parameters {
                    if case let .text(text) = value, text.utf8.contains(0) {
                        return "engine \(label) cannot run this: PostgreSQL text cannot hold the NUL character (in \(value))"
                    }
                }
            }
        } catch {
            return "\(engineError(error, label))"
        }
        return nil
    }

    private static func mapping<T>(_ label: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw engineError(error, label)
        }
    }

    private static func engineError(_ error: Error, _ label: String) -> Error {
        guard let error = error as? PostgresError else { return error }
        switch error.kind {
        case .notInstalled: return EngineError.missing(engine: label, error.message)
        case .startup: return EngineError.startup(engine: label, error.message)
        case .unsupportedValue: return EngineError.unsupported(engine: label, error.message)
        case .connection, .statement: return EngineError.failed(engine: label, error.message)
        case .usage: return EngineError.usage("\(label): \(error.message)")
        }
    }
}
