import Relational
import SQLiteStore
import Workloads

/// SQLite in this process: an in-memory database per load, queries translated by the
/// SQLite translator (`SQLTranslator`), run and fetched through the SQLite C library.
/// `sqlite-analyzed` runs `ANALYZE` after loading.
public final class SQLiteEngine: BaselineEngine {
    public static let plain = kind(name: "sqlite", analyze: false)
    public static let analyzed = kind(name: "sqlite-analyzed", analyze: true)

    private static func kind(name: String, analyze: Bool) -> EngineKind {
        EngineKind(
            name: name, backend: "sqlite",
            summary: analyze ? "SQLite in process, with ANALYZE after loading" : "SQLite in process, without ANALYZE",
            start: { label, _ in SQLiteEngine(label: label, analyze: analyze) })
    }

    public let label: String
    public let analyze: Bool
    public let dialect = SQLiteDialect()
    /// The database of the last load (nil before the first and after `stop`).
    public private(set) var database: SQLiteDatabase?

    public init(label: String, analyze: Bool) {
        self.label = label
        self.analyze = analyze
    }

    public func load(_ tables: [DatasetTable]) throws -> RelationCatalog {
        let db = try SQLiteDatabase.inMemory()
        let loaded = try DatasetTable.load(tables, into: db, analyze: analyze)
        database = db
        return RelationCatalog(loaded.mapValues { Relation(source: $0) })
    }

    public func prepare(_ outputs: [Relation]) throws -> EngineStatement {
        EngineStatement(outputs: try outputs.map { relation in
            let translation = try SQLTranslator.translate(relation)
            if let owner = translation.database, owner !== database {
                throw EngineError.failed(engine: label, "the query reads tables of another database than this engine's")
            }
            return SQLStatement(sql: translation.sql, parameters: translation.parameters, scheme: translation.scheme)
        })
    }

    public func run(_ statement: EngineStatement) throws -> EngineRun {
        let db = try requireDatabase()
        var results: [[Row]] = []
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            results = try statement.outputs.map { $0.rows(from: try db.query($0.sql, $0.parameters)) }
        }
        return EngineRun(results: results, engineMicroseconds: Double(elapsed.components.seconds) * 1e6
            + Double(elapsed.components.attoseconds) / 1e12)
    }

    public func explain(_ statement: EngineStatement) throws -> [EnginePlan] {
        let db = try requireDatabase()
        return try statement.outputs.map { output in
            let (sql, format) = dialect.explain(output.sql)
            // EXPLAIN QUERY PLAN rows: id, parent, notused, detail; indent by depth.
            var depth: [Int64: Int] = [0: -1]
            var lines: [String] = []
            for row in try db.query(sql, output.parameters) {
                guard row.count >= 4, case let .integer(id) = row.values[0], case let .integer(parent) = row.values[1] else { continue }
                let level = (depth[parent] ?? -1) + 1
                depth[id] = level
                let detail: String
                if case let .text(text) = row.values[3] { detail = text } else { detail = row.values[3].description }
                lines.append(String(repeating: "  ", count: level) + detail)
            }
            return EnginePlan(format: format, text: lines.joined(separator: "\n") + "\n")
        }
    }

    public func stop() { database = nil }

    private func requireDatabase() throws -> SQLiteDatabase {
        guard let database else { throw EngineError.failed(engine: label, "no data loaded") }
        return database
    }
}
