import Engines
import QueryEngine
import Relational
import Workloads

/// What one repetition measured.
public struct CellMeasurement {
    public var planMicroseconds: Double
    public var optimizeMicroseconds: Double
    public var runMicroseconds: Double
    public var results: [[Row]]
    /// nil for baseline engines (the testbed's counters do not apply).
    public var counters: RunCounters?
    /// The testbed's optimizer passes and heuristic hooks, timed (empty for baseline engines).
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

/// A baseline engine: the same relation graph translated to the engine's SQL (timed as
/// "plan") and run by the engine, fetching every row (timed as "run": the engine's own time
/// when it reports one, e.g. measured inside a helper process, else the time of the call).
public struct EngineExecutor: CellExecutor {
    public let query: ExperimentQuery
    public let catalog: RelationCatalog
    public let engine: any BaselineEngine

    public func execute() throws -> CellMeasurement {
        let parsed = try Query.parse(query.text, catalog: catalog, file: query.origin)
        let clock = ContinuousClock()
        var statement = EngineStatement(outputs: [])
        let plan = try clock.measure { statement = try engine.prepare(parsed.relations) }
        var run = EngineRun(results: [], engineMicroseconds: nil)
        let wall = try clock.measure { run = try engine.run(statement) }
        return CellMeasurement(
            planMicroseconds: plan.microseconds, optimizeMicroseconds: 0,
            runMicroseconds: run.engineMicroseconds ?? wall.microseconds, results: run.results, counters: nil)
    }
}
