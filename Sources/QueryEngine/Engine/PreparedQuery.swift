import Relational

/// A query planned, optimized and compiled once, to run many times: the plan graph after
/// the optimizer passes, the enabled heuristics and each node's compiled kernel are built in
/// `QueryEngine.prepare` and shared by every run. A run starts from fresh runtime state
/// (each node's state and kernel emptied in place, or an empty copy of the kernel on the
/// first run; the optimized graph as a copy-on-write value), so the
/// just-in-time decisions — initiators, filters, copies — are taken at run time exactly as
/// in `QueryEngine.run`, and results and counters are the same.
///
/// What a plan depends on is fixed for the prepared query's life: the relation objects it
/// was planned from (kept alive here), the engine's flags, disabled passes, batch size and
/// checked mode. Source data may change between runs: sources are read, and estimated, at
/// run time. (Only the planner's `approximateCount`, a label in rendered plans, is the
/// count at preparation.) This is what SQLite's prepared statements are to its queries.
public final class PreparedQuery {
    public let outputs: [Relation]
    let engine: QueryEngine
    /// The heuristics whose optimizer passes ran during preparation; the first run uses
    /// them, later runs what each gives (`Heuristic.instanceForRun`, see `run`).
    let heuristics: [any Heuristic]
    private var preparedInstancesUsed = false
    /// The instances the last run used, updated in place for the next (see `heuristicsForRun`).
    private var runHeuristics: [any Heuristic] = []
    /// The heuristics that give each run an instance of its own (`instanceForRun` not
    /// `self`), found at the second run; nil before.
    private var renewedPerRun: [Int]?
    /// Which heuristics each hook calls (`HookPlan`), shared by every run.
    let hookPlan: HookPlan
    let planned: PlanGraph
    private(set) var optimized: PlanGraph
    /// The optimizer passes that ran during preparation.
    public let passReports: [PassReport]
    /// Time planning and optimizing took, once.
    public let preparation: PhaseTimings
    /// Per node of `optimized`: its compiled kernel, of which each run takes an empty copy.
    let kernels: [(any Kernel)?]
    /// What each run starts from (`RunTemplate`): the optimized graph's order, sources,
    /// labels and growth budget, worked out once.
    let template: RunTemplate
    private let plannedNodeCount: Int
    /// The node state the last finished run handed back (`Runner.handOverRuntimes`); the
    /// next run resets it in place. Taken (nil) while a run uses it.
    private var spareRuntimes: [NodeRuntime]?
    /// The hook timer the last finished run counted with; the next run resets and reuses it.
    private var spareHookTimer: HookTimer?
    /// The graph the last finished run edited (copies added), restored by the next run to
    /// `optimized` in place (`PlanGraph.restore(to:)`).
    private var spareGraph: PlanGraph?
    /// The estimate cache the last finished run asked; the next run empties and reuses it.
    private var spareEstimates: EstimateCache?

    init(engine: QueryEngine, outputs: [Relation]) throws {
        if !engine.disabledPasses.isEmpty { try engine.catalog.checkPassNames(engine.disabledPasses.sorted()) }
        let clock = ContinuousClock()
        var timings = PhaseTimings()
        self.engine = engine
        self.outputs = outputs
        heuristics = engine.catalog.instantiate(engine.flags)

        var graph = PlanGraph()
        timings.planMicroseconds = clock.measure { graph = Planner.plan(outputs) }.microseconds
        planned = graph

        let pipeline = OptimizerPipeline(
            passes: heuristics.flatMap(\.optimizerPasses), disabledPasses: engine.disabledPasses,
            validate: engine.checked)
        let optimizeStart = clock.now
        passReports = try pipeline.run(&graph)
        timings.optimizeMicroseconds = (clock.now - optimizeStart).microseconds
        optimized = graph
        preparation = timings
        kernels = try graph.nodes.indices.map { try NodeRuntime.compile(graph[$0], in: graph) }
        // The prepared heuristics have the flags each run's fresh ones get, so the same
        // growth budget and report names.
        template = RunTemplate(graph: graph, heuristics: heuristics)
        hookPlan = HookPlan(heuristics: heuristics, graph: graph)
        plannedNodeCount = planned.liveNodeIDs.count
    }

    /// Re-reads each source's approximate count, as preparation did. The runner consults it
    /// (filter-aware ordering guesses a third of a source whose active filter its estimate
    /// cannot see, judged against that count), so after the sources' contents changed —
    /// change propagation's delta tables are rebound to every transaction's rows — a run
    /// following this decides exactly as a freshly prepared query would. (The planned graph,
    /// kept for rendering, keeps the counts at preparation.)
    public func refreshSourceCounts() {
        for id in optimized.nodes.indices {
            guard case let .source(source) = optimized.nodes[id].operation else { continue }
            let count = source.estimatedCount(filter: nil)
            if optimized.nodes[id].approximateCount != count { optimized.nodes[id].approximateCount = count }
        }
    }

    /// One run from fresh runtime state. Its timings count the run alone (planning and
    /// optimizing took place once, see `preparation`); with `capture`, the result keeps the
    /// graph at each stage for plan rendering.
    public func run(capture: Bool = false) throws -> QueryRun {
        try run(capture: capture, timings: PhaseTimings())
    }

    /// Heuristics may keep state for the length of a run (filter-aware ordering's pairs, for
    /// one), so a run gets instances no earlier run used, unless a heuristic says its
    /// instance keeps none (`Heuristic.instanceForRun`). The first run takes the prepared
    /// instances, so a one-shot `QueryEngine.run` makes each heuristic once.
    private func heuristicsForRun() -> [any Heuristic] {
        // A run started inside another run of this query (none does today) must not share
        // the outer run's instances: an instance `instanceForRun` hands out again (filter-aware
        // ordering's) is reset when handed out. It gets instances made anew from the flags.
        if runsInProgress > 1, let renewed = renewedPerRun {
            var nested = runHeuristics
            for i in renewed { nested[i] = Self.fresh(like: heuristics[i], engine.flags) }
            return nested
        }
        if !preparedInstancesUsed {
            preparedInstancesUsed = true
            return heuristics
        }
        // Worked out once per prepared query, at its second run: a heuristic whose
        // `instanceForRun` gives the prepared instance itself keeps no state for a run and
        // serves every run (the protocol's contract for `self`), so later runs ask only the
        // others (three of the fourteen under `all-on`). Before, every run asked all of them,
        // about 3,500 instructions of existential copies a run.
        guard let renewed = renewedPerRun else {
            var renewed: [Int] = []
            runHeuristics = heuristics
            for i in heuristics.indices {
                let instance = heuristics[i].instanceForRun() ?? Self.fresh(like: heuristics[i], engine.flags)
                if instance !== heuristics[i] {
                    renewed.append(i)
                    runHeuristics[i] = instance
                }
            }
            renewedPerRun = renewed
            return runHeuristics
        }
        for i in renewed {
            runHeuristics[i] = heuristics[i].instanceForRun() ?? Self.fresh(like: heuristics[i], engine.flags)
        }
        return runHeuristics
    }

    /// Runs of this query under way (more than one only when a run starts inside another).
    private var runsInProgress = 0

    private static func fresh(like heuristic: any Heuristic, _ flags: FlagSet) -> any Heuristic {
        type(of: heuristic).make(flags) ?? heuristic
    }

    func run(capture: Bool, timings given: PhaseTimings) throws -> QueryRun {
        runsInProgress += 1
        defer { runsInProgress -= 1 }
        var timings = given
        var counters = RunCounters()
        counters.nodesPlanned = plannedNodeCount
        counters.nodesAfterOptimization = template.liveNodes.count

        let clock = ContinuousClock()
        let runStart = clock.now
        let runner = try Runner(
            graph: takeRestoredGraph(), heuristics: heuristicsForRun(), counters: counters,
            batchSize: engine.batchSize,
            checked: engine.checked, kernels: kernels, timesHooks: engine.timesHooks, template: template,
            hookPlan: hookPlan, reusing: takeSpareRuntimes(), spareTimer: takeSpareHookTimer(),
            spareEstimates: takeSpareEstimates())
        runner.rowLimit = engine.rowLimit
        let results = try runner.run()
        timings.runMicroseconds = (clock.now - runStart).microseconds

        var snapshots: PlanSnapshots?
        if capture {
            snapshots = PlanSnapshots(
                relations: outputs, planned: planned, optimized: optimized,
                final: runner.graph, finalAnnotations: runner.annotations())
        }
        let run = QueryRun(
            resultRows: results, counters: runner.counters, timings: timings, passReports: passReports,
            hookReports: runner.hookTimer.reports, snapshots: snapshots)
        spareRuntimes = runner.handOverRuntimes()
        spareHookTimer = runner.hookTimer
        spareEstimates = runner.handOverEstimates()
        spareGraph = runner.handOverGraph()
        return run
    }

    /// Makes the next run start from newly made state, as the first does (tests compare
    /// runs from reused and from fresh state).
    func dropSpareRunState() {
        spareRuntimes = nil
        spareHookTimer = nil
        spareEstimates = nil
        spareGraph = nil
    }

    private func takeSpareRuntimes() -> [NodeRuntime]? {
        defer { spareRuntimes = nil }
        return spareRuntimes
    }

    /// The last run's graph restored to `optimized`, or `optimized` itself (shared, copied on
    /// the run's first edit) when there is none or it cannot be restored.
    private func takeRestoredGraph() -> PlanGraph {
        guard var graph = spareGraph else { return optimized }
        spareGraph = nil
        return graph.restore(to: optimized) ? graph : optimized
    }

    private func takeSpareEstimates() -> EstimateCache? {
        defer { spareEstimates = nil }
        return spareEstimates
    }

    private func takeSpareHookTimer() -> HookTimer? {
        defer { spareHookTimer = nil }
        return spareHookTimer
    }
}
