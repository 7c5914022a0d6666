import QueryEngine
import Relational
import SQLiteStore
import Workloads

/// What one repetition measured.
public struct CellMeasurement {
    public var planMicroseconds: Double
    public var optimizeMicroseconds: Double
    public var runMicroseconds: Double
    public var results: [[Row]]
    /// nil for SQLite engines (the testbed's counters do not apply).
    public var counters: RunCounters?
    /// The testbed's optimizer passes and heuristic hooks, timed (empty for SQLite).
    public var passes: [PassReport] = []
    public var hooks: [HookReport] = []
}

/// Runs one repetition of a cell. The runner picks one per cell; tests can supply their
/// own (see `RunHooks.executor`) to inject a deliberately wrong engine.
public protocol CellExecutor {
    func execute() throws -> CellMeasurement
}

/// The testbed engine under a flag set: parse the query against the backend's sources, then
/// plan, optimize and run it (each phase timed by the engine).
public struct TestbedExecutor: CellExecutor {
    public let query: ExperimentQuery
    public let catalog: RelationCatalog
    public let engine: QueryEngine

    public func execute() throws -> CellMeasurement {
        let parsed = try Query.parse(query.text, catalog: catalog, file: query.origin)
        let run = try engine.run(parsed.relations)
        return CellMeasurement(
            planMicroseconds: run.timings.planMicroseconds, optimizeMicroseconds: run.timings.optimizeMicroseconds,
            runMicroseconds: run.timings.runMicroseconds, results: run.results, counters: run.counters,
            passes: run.passReports, hooks: run.hookReports)
    }
}

/// A SQLite baseline: the same relation graph translated to SQL (timed as "plan") and run by
/// SQLite (timed as "run").
public struct SQLiteExecutor: CellExecutor {
    public let query: ExperimentQuery
    public let catalog: RelationCatalog
    public let database: SQLiteDatabase

    public func execute() throws -> CellMeasurement {
        let parsed = try Query.parse(query.text, catalog: catalog, file: query.origin)
        let clock = ContinuousClock()
        var translations: [SQLTranslation] = []
        let plan = try clock.measure {
            translations = try parsed.relations.map(SQLTranslator.translate)
        }
        var results: [[Row]] = []
        let run = try clock.measure {
            results = try translations.map { try database.run($0) }
        }
        return CellMeasurement(
            planMicroseconds: plan.microseconds, optimizeMicroseconds: 0, runMicroseconds: run.microseconds,
            results: results, counters: nil)
    }
}
