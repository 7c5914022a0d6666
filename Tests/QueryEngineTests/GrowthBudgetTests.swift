import XCTest
import Relational
@testable import QueryEngine

/// Issue 9, class 3: queries that share a node with itself at every level. Unsharing them
/// fully is exponential (2^levels copies); the runner's global growth budget keeps every
/// preset within a bounded number of copied nodes. Counters only, never times.
final class GrowthBudgetTests: XCTestCase {
    static let levels = 60
    static let rows = 100

    /// `let b1 = d join d`, `let bK = bK-1 join bK-1`, output `bN select (id == 3)`.
    static func selfJoinDAG(_ documents: MemoryTable, levels: Int) throws -> Relation {
        let d = Relation(source: documents)
        var b = try d.join(d)
        for _ in 1..<levels { b = try b.join(b) }
        return try b.select(Attribute("id") *== 3)
    }

    /// `let a0 = d`, `let aK = (aK-1 select (id < 3K)) union aK-1`, output `aN select (p)`;
    /// `projecting`, `aK-1 project [id, name, parent_id]` under each select (a node between
    /// the select and the shared `aK-1`, which `select-activation-narrowing` must leave alone).
    static func selectUnionChain(_ documents: MemoryTable, levels: Int, top: Relational.Predicate,
                                 projecting: Bool = false) throws -> Relation {
        var a = Relation(source: documents)
        for k in 1...levels {
            let operand = projecting ? try a.project(["id", "name", "parent_id"]) : a
            a = try operand.select(Attribute("id") *< .integer(Int64(3 * k))).union(a)
        }
        return try a.select(top)
    }

    static var shapes: [(name: String, planned: Int, build: (MemoryTable) throws -> Relation)] { [
        ("self-join DAG", levels + 2, { try selfJoinDAG($0, levels: levels) }),
        ("select-union chain", 2 * levels + 2, {
            try selectUnionChain($0, levels: levels, top: Attribute("id") *== 3)
        }),
        ("select-union chain, unindexed filter", 2 * levels + 2, {
            try selectUnionChain($0, levels: levels, top: Attribute("name") *== "x")
        }),
        ("select-union chain through projects", 3 * levels + 2, {
            try selectUnionChain($0, levels: levels, top: Attribute("id") *== 3, projecting: true)
        }),
    ] }

    func testSixtyLevelsStayWithinTheBudgetUnderEveryPreset() throws {
        let documents = try Fixtures.documents(Self.rows)
        for preset in HeuristicCatalog.presetNames {
            for shape in Self.shapes {
                let query = try shape.build(documents)
                let run = try QueryEngine(preset: preset).run([query], capture: true)
                let c = run.counters
                let context = "\(shape.name) under \(preset)"
                XCTAssertEqual(c.nodesPlanned, shape.planned, context)
                // The default budget: max(100, 2 × the nodes the runner starts with).
                XCTAssertEqual(c.growthBudget, max(100, 2 * c.nodesAfterOptimization), context)
                XCTAssertLessThanOrEqual(c.nodesCopied, c.growthBudget, context)
                XCTAssertEqual(run.snapshots?.final.liveNodeIDs.count, c.nodesAfterOptimization + c.nodesCopied, context)
                // Each source node (the original and each copy) reads the table at most once.
                let sources = run.snapshots?.final.liveNodeIDs.filter { run.snapshots?.final[$0].operation.isSource == true }
                XCTAssertLessThanOrEqual(c.sourceRowsRead, (sources?.count ?? 0) * Self.rows, context)
                XCTAssertEqual(run.results[0].asSet, try ReferenceEvaluator.evaluate(query).asSet, context)
            }
        }
    }

    func testSelfJoinDAGReadsOnlyTheSelectedRows() throws {
        let documents = try Fixtures.documents(Self.rows)
        let query = try Self.selfJoinDAG(documents, levels: Self.levels)
        // The seed's copying (and all-on without late-subtree-copying's veto) stops at the
        // budget; the shared nodes' filters still reach every source. (`self-operand-folding`
        // folds the whole DAG to `d` before the run, so it is off where the budget is tested.)
        for flags in [try HeuristicCatalog.standard.preset("seed"),
                      try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["late-subtree-copying", "self-operand-folding"])] {
            let run = try QueryEngine(flags: flags).run([query])
            XCTAssertEqual(run.results[0].count, 1)
            XCTAssertEqual(run.counters.growthBudget, 124)
            XCTAssertLessThanOrEqual(run.counters.nodesCopied, 124)
            XCTAssertGreaterThan(run.counters.copiesRefused, 0)
            XCTAssertLessThanOrEqual(run.counters.sourceRowsRead, run.counters.subtreesCopied + 1)
        }
        // all-on without folding: each level's two edges pass `b` the same filter, so
        // late-subtree-copying vetoes every copy and `b` is read once, for the selected row.
        let unfolded = try QueryEngine(flags: try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["self-operand-folding"]))
            .run([query])
        XCTAssertEqual(unfolded.results[0].count, 1)
        XCTAssertEqual(unfolded.counters.subtreesCopied, 0)
        XCTAssertEqual(unfolded.counters.sourceRowsRead, 1)
        // all-on: the DAG is folded to `d select (id == 3)`.
        let run = try QueryEngine(preset: "all-on").run([query])
        XCTAssertEqual(run.results[0].count, 1)
        XCTAssertEqual(run.counters.nodesAfterOptimization, 2)
        XCTAssertEqual(run.counters.sourceRowsRead, 1)
    }

    /// Without copying, both operands of `b join b` hand the same filter to `b`: it must be
    /// kept once, not OR-ed with itself at every level (2^60 comparisons).
    func testSharedFilterIsNotDoubledPerLevel() throws {
        let documents = try Fixtures.documents(Self.rows)
        let query = try Self.selfJoinDAG(documents, levels: Self.levels)
        let flags = try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["subtree-copying"])
        let run = try QueryEngine(flags: flags).run([query], capture: true)
        XCTAssertEqual(run.counters.nodesCopied, 0)
        XCTAssertEqual(run.counters.sourceRowsRead, 1)
        XCTAssertEqual(run.counters.filteredFetches, 1)
        let final = try XCTUnwrap(run.snapshots)
        for (id, annotation) in final.finalAnnotations {
            if let filter = annotation.filter { XCTAssertEqual(filter.comparisonCount, 1, "node \(id): \(filter)") }
        }
    }

    /// `documents select (id == k)` for k in 1...n: every copy is one node (a copy of the
    /// shared documents source), so a budget of N allows exactly N copies.
    private func manyOutputs(_ documents: MemoryTable, _ n: Int) throws -> [Relation] {
        let d = Relation(source: documents)
        return try (1...n).map { try d.select(Attribute("id") *== .integer(Int64($0))) }
    }

    func testLoweredBudgetIsHonouredExactly() throws {
        let documents = try Fixtures.documents(Self.rows)
        let outputs = try manyOutputs(documents, 20)
        let expected = try outputs.map { try ReferenceEvaluator.evaluate($0).asSet }
        for budget in [0, 1, 5, 19, 40] {
            let flags = try HeuristicCatalog.standard.flagSet(
                preset: "all-on", set: ["graph-growth-budget": String(budget), "graph-growth-per-node": "0"])
            let run = try QueryEngine(flags: flags).run(outputs)
            let c = run.counters
            XCTAssertEqual(c.growthBudget, budget)
            // 19 copies are wanted (the last select finds documents with one parent left).
            XCTAssertEqual(c.nodesCopied, min(budget, 19), "budget \(budget)")
            XCTAssertEqual(c.subtreesCopied, min(budget, 19), "budget \(budget)")
            XCTAssertEqual(c.copiesRefused > 0, budget < 19, "budget \(budget)")
            XCTAssertEqual(run.results.map(\.asSet), expected, "budget \(budget)")
        }
    }

    func testLoweredBudgetBoundsTheSelfSharingDAG() throws {
        let documents = try Fixtures.documents(Self.rows)
        let query = try Self.selfJoinDAG(documents, levels: 12)
        for budget in [0, 3, 13, 50] {
            let flags = try HeuristicCatalog.standard.flagSet(
                preset: "all-on", set: ["graph-growth-budget": String(budget), "graph-growth-per-node": "0"])
            let run = try QueryEngine(flags: flags).run([query])
            XCTAssertEqual(run.counters.growthBudget, budget)
            XCTAssertLessThanOrEqual(run.counters.nodesCopied, budget, "budget \(budget)")
            XCTAssertEqual(run.results[0].asSet, try ReferenceEvaluator.evaluate(query).asSet)
        }
    }

    func testBudgetFlagsAreTunablesOutsideTheCanonicalString() throws {
        let catalog = HeuristicCatalog.standard
        XCTAssertFalse(try catalog.preset("all-on").canonical.contains("graph-growth"))
        XCTAssertFalse(try catalog.preset("all-off").canonical.contains("graph-growth"))
        let lowered = try catalog.flagSet(preset: "all-on", set: ["graph-growth-budget": "7"])
        XCTAssertTrue(lowered.canonical.contains("graph-growth-budget=7"))
        XCTAssertEqual(try catalog.parseCanonical(lowered.canonical), lowered)
        // A huge per-node allowance saturates instead of trapping.
        XCTAssertEqual(GrowthBudget.limit(minimum: 3, perNode: Int.max, nodes: 5), Int.max)
        XCTAssertEqual(GrowthBudget.limit(minimum: 100, perNode: 2, nodes: 61), 122)
        XCTAssertEqual(GrowthBudget.limit(minimum: 100, perNode: 2, nodes: 10), 100)
    }

    /// A catalog without the budget's tunables still gets the core default.
    func testRunnerHasABudgetWithoutTheTunables() throws {
        let documents = try Fixtures.documents(Self.rows)
        let catalog = HeuristicCatalog([SelectPushdown.self, SubtreeCopying.self])
        let query = try Self.selfJoinDAG(documents, levels: Self.levels)
        let run = try QueryEngine(preset: "all-on", catalog: catalog).run([query])
        XCTAssertEqual(run.counters.growthBudget, GrowthBudget.defaultLimit(forNodes: Self.levels + 2))
        XCTAssertLessThanOrEqual(run.counters.nodesCopied, run.counters.growthBudget)
    }

    func testBoundedSubtreeStopsAtTheLimit() throws {
        let documents = try Fixtures.documents(10)
        let graph = Planner.plan([try Self.selfJoinDAG(documents, levels: 5)])
        let root = graph.outputNodes[0]
        XCTAssertEqual(graph.subtree(of: root).count, 7)
        XCTAssertEqual(graph.subtree(of: root, upTo: 7)?.count, 7)
        XCTAssertNil(graph.subtree(of: root, upTo: 6))
        XCTAssertNil(graph.subtree(of: root, upTo: 0))
    }
}
