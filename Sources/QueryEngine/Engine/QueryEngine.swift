import Relational

/// The public face of the engine: plan the outputs, run the optimizer passes of the
/// enabled heuristics, run the query, and report rows, counters and timings.
///
///     let engine = try QueryEngine(preset: "all-on")
///     let run = try engine.run([selectedParent])
///     print(run.results[0], run.counters.sourceRowsRead)
public struct QueryEngine {
    public let catalog: HeuristicCatalog
    public let flags: FlagSet
    /// Optimizer passes to skip by name, on top of what the flags switch off (as DuckDB's
    /// `disabled_optimizers`); a name no heuristic contributes is an `UnknownPassError`.
    public var disabledPasses: Set<String> = []
    /// Rows pulled from an initiator per step.
    public var batchSize = 1024
    /// Checked mode (see `EngineChecks`): validate the graph before and after every pass and
    /// after every runtime edit, and fail the run on a broken engine invariant.
    public var checked = EngineChecks.enabledByDefault

    public init(flags: FlagSet, catalog: HeuristicCatalog = .standard) {
        self.flags = flags
        self.catalog = catalog
    }

    public init(preset: String = "all-on", catalog: HeuristicCatalog = .standard) throws {
        self.init(flags: try catalog.preset(preset), catalog: catalog)
    }

    /// Runs a query with one output per relation. With `capture`, the result keeps the
    /// graph at each stage for plan rendering.
    public func run(_ outputs: [Relation], capture: Bool = false) throws -> QueryRun {
        if !disabledPasses.isEmpty { try catalog.checkPassNames(disabledPasses.sorted()) }
        let clock = ContinuousClock()
        var timings = PhaseTimings()
        var counters = RunCounters()
        let heuristics = catalog.instantiate(flags)

        var graph = PlanGraph()
        timings.planMicroseconds = clock.measure { graph = Planner.plan(outputs) }.microseconds
        counters.nodesPlanned = graph.liveNodeIDs.count
        let planned = capture ? graph : nil

        let pipeline = OptimizerPipeline(
            passes: heuristics.flatMap(\.optimizerPasses), disabledPasses: disabledPasses, validate: checked)
        let optimizeStart = clock.now
        let reports = try pipeline.run(&graph)
        timings.optimizeMicroseconds = (clock.now - optimizeStart).microseconds
        counters.nodesAfterOptimization = graph.liveNodeIDs.count
        let optimized = capture ? graph : nil

        let runStart = clock.now
        let runner = try Runner(
            graph: graph, heuristics: heuristics, counters: counters, batchSize: batchSize, checked: checked)
        let results = try runner.run()
        timings.runMicroseconds = (clock.now - runStart).microseconds

        var snapshots: PlanSnapshots?
        if let planned, let optimized {
            snapshots = PlanSnapshots(
                relations: outputs, planned: planned, optimized: optimized,
                final: runner.graph, finalAnnotations: runner.annotations())
        }
        return QueryRun(
            resultRows: results, counters: runner.counters, timings: timings, passReports: reports,
            hookReports: runner.hookTimer.reports, snapshots: snapshots)
    }
}

/// What one run produced.
public struct QueryRun {
    /// Rows of each output, in the order the outputs were given (each a set; no order),
    /// decoded from `resultRows` on first use.
    public var results: [[Row]] { resultRows.map(\.rows) }
    /// Each output's rows as the run left them (column views into the tables' snapshots
    /// and decoded rows); `count` decodes nothing.
    public let resultRows: [ResultRows]
    public let counters: RunCounters
    public let timings: PhaseTimings
    /// Each optimizer pass that ran: changes made and time taken.
    public let passReports: [PassReport]
    /// Each heuristic hook that was called: calls and time inside it (see `HookReport`).
    public let hookReports: [HookReport]
    public let snapshots: PlanSnapshots?
}

/// The graph at each stage of one run, for plan rendering.
public struct PlanSnapshots {
    public let relations: [Relation]
    public let planned: PlanGraph
    public let optimized: PlanGraph
    public let final: PlanGraph
    /// Per node of `final`: parental filter, remaining parents, rows in and out.
    public let finalAnnotations: [NodeID: NodeAnnotation]
}

public struct NodeAnnotation: Sendable {
    public let filter: Predicate?
    public let remainingParents: Int
    public let filterActive: Bool
    public let rowsIn: Int
    public let rowsOut: Int
}

extension Runner {
    func annotations() -> [NodeID: NodeAnnotation] {
        var out: [NodeID: NodeAnnotation] = [:]
        for id in graph.liveNodeIDs {
            let r = runtimes[id]
            out[id] = NodeAnnotation(
                filter: r.filter, remainingParents: r.remainingParents, filterActive: r.filterActive,
                rowsIn: r.rowsIn, rowsOut: r.rowsOut)
        }
        return out
    }
}
