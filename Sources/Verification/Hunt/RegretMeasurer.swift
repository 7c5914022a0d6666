import QueryEngine
import Relational

/// What one engine run of a hunted case cost.
public struct HuntRun: Sendable, Equatable {
    public let rowsRead: Int
    public let microseconds: Double
    public let resultRows: Int
}

/// One case measured under every flag set of a grid (and, for small graphs, under the
/// seed preset with every initiator order forced). Regret is a run's rows read divided by
/// the least rows read by any of them; counts of zero are taken as one, so a run that
/// reads nothing has regret 1 and one that reads 5 rows against a best of 0 has regret 5.
public struct CaseRegret: Sendable {
    /// Per flag set of the grid, in grid order.
    public let runs: [HuntRun]
    /// The seed preset with each initiator order forced (rank order); empty for graphs with
    /// more sources than the measurer's limit.
    public let orderRuns: [HuntRun]
    /// Sources of the case (distinct tables).
    public let sources: Int
    /// Outputs whose results differ between flag sets (an engine bug; `verify` reduces it).
    public let disagreements: Int

    public var bestRows: Int { (runs + orderRuns).map(\.rowsRead).min() ?? 0 }
    public var bestMicroseconds: Double { (runs + orderRuns).map(\.microseconds).min() ?? 0 }
    /// The forced order (rank from 0) reading fewest rows, first of equals.
    public var bestOrder: Int? {
        orderRuns.indices.min { orderRuns[$0].rowsRead < orderRuns[$1].rowsRead }
    }

    public func regret(_ run: HuntRun) -> Double { Self.ratio(run.rowsRead, bestRows) }

    public func timeRegret(_ run: HuntRun) -> Double {
        run.microseconds / max(bestMicroseconds, 1)
    }

    static func ratio(_ rows: Int, _ best: Int) -> Double { Double(max(rows, 1)) / Double(max(best, 1)) }
}

/// Runs cases under a hunt grid on the memory backend (tables with the case's indexes).
public struct RegretMeasurer {
    public let grid: HuntGrid
    /// Every initiator order is tried for cases with at most this many sources.
    public var maxOrderSources = 4
    public var batchSize = CaseChecker.defaultBatchSize
    /// Cases whose all-off run moves more rows than this through its nodes (rows in plus rows
    /// out, summed; a closure over a few hundred cyclic edges makes millions) are skipped: a
    /// deterministic bound that keeps a hunt's time in proportion to its cases.
    public var maxWork = RegretMeasurer.defaultMaxWork
    /// The bound `testbed hunt` and `testbed verify --random --rows` start from.
    public static let defaultMaxWork = 2_000_000

    /// A case skipped because its first run did more work than `maxWork`: `work` rows moved,
    /// or nil when the run was stopped part way (`QueryEngine.rowLimit`): held-out seed 160
    /// case 953 at `--rows 3000` joins a closure's pairs with a 2,984-row table sharing no
    /// attribute, 1.7 billion rows, and took 24 GB before the kernel killed the hunt; it is
    /// now stopped after 3.5 s at 0.6 GB.
    public struct TooMuchWork: Error, CustomStringConvertible {
        public let work: Int?
        public let limit: Int
        public var description: String {
            work.map { "the all-off run moved \($0) rows through its nodes" }
                ?? "the all-off run emitted more than \(limit) rows through its nodes and was stopped"
        }
    }

    public init(grid: HuntGrid) { self.grid = grid }

    public func measure(_ graph: CaseGraph) throws -> CaseRegret {
        let outputs = try Self.memoryOutputs(graph)
        var reference: [[Row]]?
        var disagreements = 0
        func run(_ flags: FlagSet) throws -> HuntRun {
            let (run, results) = try self.run(outputs, flags)
            let sorted = results.map { ResultComparison.Sorted($0).distinct }
            if let reference {
                disagreements += zip(reference, sorted).filter { !ResultComparison.same($0, $1) }.count
            } else {
                reference = sorted
            }
            return run
        }
        // One untimed run first, so the first flag set's time does not pay for cold caches;
        // under all-off, which filters nothing, so it bounds the work of the other runs.
        try Self.checkWork(outputs, limit: maxWork, catalog: grid.catalog, engineCatalog: grid.engineCatalog,
                           batchSize: batchSize)
        // And one under the grid's first flag set (by default all-on, whose heuristics'
        // code the other sets run a part of): otherwise that set alone pays for bringing
        // its code into the caches, which put all-on's median time regret 0.3 higher when
        // it ran first than when it ran last (seed 27, 300 cases).
        if let first = grid.flagSets.first { _ = try self.run(outputs, first.flags) }
        let runs = try grid.flagSets.map { try run($0.flags) }
        let sources = graph.compacted().tables.count
        var orderRuns: [HuntRun] = []
        if sources >= 2, sources <= maxOrderSources {
            orderRuns = try (0..<Permutations.count(sources)).map { try run(try grid.seedWithOrder($0)) }
        }
        return CaseRegret(runs: runs, orderRuns: orderRuns, sources: sources, disagreements: disagreements)
    }

    /// One run of prebuilt outputs: its cost and each output's rows.
    func run(_ outputs: [Relation], _ flags: FlagSet) throws -> (HuntRun, [[Row]]) {
        var engine = QueryEngine(flags: flags, catalog: grid.engineCatalog)
        engine.batchSize = batchSize
        engine.checked = false
        let run = try engine.run(outputs)
        return (HuntRun(rowsRead: run.counters.sourceRowsRead, microseconds: run.timings.totalMicroseconds,
                        resultRows: run.results.reduce(0) { $0 + $1.count }), run.results)
    }

    /// Rows read per forced order `ranks` under `flags` (for the robustness report).
    public func orderCosts(_ graph: CaseGraph, flags: FlagSet, ranks: [Int]) throws -> [HuntRun] {
        let outputs = try Self.memoryOutputs(graph)
        return try ranks.map { try run(outputs, try grid.withOrder(flags, $0)).0 }
    }

    /// Writes each grid flag set's plan graphs of `graph` (`<flag set>-final.svg` and the
    /// others, `PlanExport`) to `directory`, and those of the seed preset under `bestOrder`
    /// (`seed+best-order-final.svg`; `CaseRegret.bestOrder` of the case's measurement, nil
    /// when the case was too large for every order to be tried); returns the paths written.
    public func writePlans(_ graph: CaseGraph, bestOrder: Int?, to directory: String) throws -> [String] {
        let outputs = try Self.memoryOutputs(graph)
        var written: [String] = []
        func write(_ flags: FlagSet, as name: String) throws {
            var engine = QueryEngine(flags: flags, catalog: grid.engineCatalog)
            engine.batchSize = batchSize
            guard let snapshots = try engine.run(outputs, capture: true).snapshots else { return }
            written += try PlanExport.writePlans(snapshots, to: directory, baseName: name)
        }
        for set in grid.flagSets { try write(set.flags, as: set.name) }
        if let bestOrder { try write(try grid.seedWithOrder(bestOrder), as: "seed+best-order") }
        return written
    }

    /// The case's outputs over fresh memory tables with its indexes.
    /// Runs `outputs` once under all-off (which filters nothing, so it bounds every other
    /// flag set's work) and throws `TooMuchWork` when its nodes move more than `limit` rows,
    /// stopping the run part way once they emit that many. `testbed verify --random` asks
    /// it too, before the reference evaluator and SQLite see the case.
    static func checkWork(_ outputs: [Relation], limit: Int, catalog: HeuristicCatalog,
                          engineCatalog: HeuristicCatalog? = nil, batchSize: Int) throws {
        var engine = QueryEngine(flags: try catalog.preset("all-off"), catalog: engineCatalog ?? catalog)
        engine.batchSize = batchSize
        engine.checked = false
        engine.rowLimit = limit
        let work: Int
        do {
            work = try engine.run(outputs).counters.perNode.reduce(0) { $0 + $1.rowsIn + $1.rowsOut }
        } catch is RunTooLarge {
            throw TooMuchWork(work: nil, limit: limit)
        }
        if work > limit { throw TooMuchWork(work: work, limit: limit) }
    }

    static func memoryOutputs(_ graph: CaseGraph) throws -> [Relation] {
        let tables = try graph.tables.map { t in
            let table = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            try table.add(contentsOf: t.rows)
            return Relation(source: table)
        }
        return try graph.relations(over: tables)
    }
}
