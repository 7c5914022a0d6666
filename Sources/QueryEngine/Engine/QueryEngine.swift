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
    /// Rows a run may emit through its nodes, summed, before it is abandoned with
    /// `RunTooLarge`: a bound for callers that run generated queries (`testbed hunt`), whose
    /// joins can multiply (a closure's pairs joined with a table they share no attribute
    /// with). Checked per batch emitted; under a limit, a large batch goes to a kernel a
    /// batch size at a time, so one join's output past the limit is at most a batch times
    /// the other operand's rows. Unbounded by default.
    public var rowLimit = Int.max

    public init(flags: FlagSet, catalog: HeuristicCatalog = .standard) {
        self.flags = flags
        self.catalog = catalog
    }

    public init(preset: String = "all-on", catalog: HeuristicCatalog = .standard) throws {
        self.init(flags: try catalog.preset(preset), catalog: catalog)
    }

    /// Whether each heuristic hook's time is measured (`QueryRun.hookReports`' microseconds;
    /// calls are counted either way). Off, the runner reads no clock around hooks.
    public var timesHooks = true

    /// Runs a query with one output per relation: prepares it (plan, optimizer passes,
    /// compiled kernels) and runs it once. With `capture`, the result keeps the graph at
    /// each stage for plan rendering.
    public func run(_ outputs: [Relation], capture: Bool = false) throws -> QueryRun {
        let prepared = try prepare(outputs)
        return try prepared.run(capture: capture, timings: prepared.preparation)
    }

    /// Plans, optimizes and compiles a query once, for many runs (`PreparedQuery`).
    public func prepare(_ outputs: [Relation]) throws -> PreparedQuery {
        try PreparedQuery(engine: self, outputs: outputs)
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
