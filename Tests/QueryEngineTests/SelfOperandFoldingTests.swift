import Relational
import XCTest
@testable import QueryEngine

/// `self-operand-folding`: the rewrites themselves (`SelfOperandRewrite`, then
/// `SelectFolding`), and the hunted classes they answer (held-out 216/1904 at `--rows
/// 3000`, and corpus 421/630 at `--rows 300`, which folding joins alone made worse; rebuilt
/// over other data, the repros kept for `HuntReproTests`).
final class SelfOperandFoldingTests: HuntCaseTestCase {
    private func optimize(_ outputs: [Relation]) throws -> (PlanGraph, [PassReport]) {
        var graph = Planner.plan(outputs)
        let reports = try OptimizerPipeline(passes: SelfOperandFolding().optimizerPasses).run(&graph)
        return (graph, reports)
    }

    private func joins(_ graph: PlanGraph) -> Int {
        graph.liveNodeIDs.filter {
            switch graph[$0].operation {
            case .apply(.join), .apply(.intersection): return true
            default: return false
            }
        }.count
    }

    /// `t join t`, `t intersect t` and a stack of them become `t`; the select above reads it.
    func testSelfJoinsAndIntersectionsBecomeTheirOperand() throws {
        let t = try Fixtures.literal("t", ["x", "y"], [[.integer(1), .integer(2)], [.integer(3), .null]])
        let stacked = try t.join(t).join(t).intersection(t).join(t)
        let query = try stacked.select(Attribute("x") *>= 1)
        let (graph, reports) = try optimize([query])
        XCTAssertEqual(reports.first { $0.name == "self-operand-folding" }?.changes, 4)
        XCTAssertEqual(joins(graph), 0)
        XCTAssertTrue(graph[graph[graph.outputNodes[0]].children[0]].operation.isSource)
        XCTAssertNoThrow(try graph.validate(after: "test"))
    }

    /// `t minus t` is empty: a select of `false` over `t`, which the select's filter keeps
    /// from reading anything.
    func testASelfDifferenceBecomesAFalseSelect() throws {
        let t = try Fixtures.literal("t", ["x"], [[.integer(1)], [.integer(2)]])
        let query = try t.difference(t).union(t.select(Attribute("x") *== 2))
        let (graph, reports) = try optimize([query])
        XCTAssertEqual(reports.first { $0.name == "self-operand-folding" }?.changes, 1)
        let differences = graph.liveNodeIDs.filter { if case .apply(.difference) = graph[$0].operation { true } else { false } }
        XCTAssertEqual(differences, [])
        XCTAssertTrue(graph.liveNodeIDs.contains {
            if case .apply(.select(.false)) = graph[$0].operation { graph[graph[$0].children[0]].operation.isSource } else { false }
        })
        let run = try QueryEngine(preset: "all-on").run([query])
        XCTAssertEqual(run.results[0].asSet, [Row([.integer(2)])])
    }

    /// `(t select (x > 1)) minus t` is empty too, `t join (t project [x])` is `t`, and `t join
    /// (t select p)` is `t select p`: the select and the projection nothing else reads are
    /// removed with the fold, and the select under the join is then read directly.
    func testASelectMinusItsOperandIsEmptyAndAJoinWithItsProjectionOrSelectIsFolded() throws {
        let t = try Fixtures.literal("t", ["x", "y"], [[.integer(1), .integer(5)], [.integer(2), .null], [.integer(3), .integer(5)]])
        let x = Attribute("x")
        let emptied = try t.select(x *> 1).difference(t).union(t.select(x *== 3))
        let projected = try t.join(t.project(["x"])).select(x *>= 2)
        let selected = try t.join(t.select(x *> 1)).select(x *>= 2)
        let (graph, reports) = try optimize([emptied, projected, selected])
        XCTAssertEqual(reports.first { $0.name == "self-operand-folding" }?.changes, 3)
        let operations = graph.liveNodeIDs.map { graph[$0].operation.label }
        XCTAssertFalse(operations.contains("minus"), "\(operations)")
        XCTAssertFalse(operations.contains("project"), "\(operations)")
        XCTAssertEqual(joins(graph), 0, "\(operations)")
        XCTAssertNoThrow(try graph.validate(after: "test"))
        let run = try QueryEngine(preset: "all-on").run([emptied, projected, selected])
        for (i, query) in [emptied, projected, selected].enumerated() {
            XCTAssertEqual(run.results[i].asSet, try ReferenceEvaluator.evaluate(query).asSet, "output \(i)")
        }
    }

    /// The fold sees through a chain of selects (`t join (t select p select q)` is the
    /// chain), and `select-folding` then makes a chain over a shared node, whose inner
    /// selects have no other reader, one select, its inner predicates first (two merges: the
    /// chain's own, then the outer select onto it). Over a node it reads alone it stays.
    func testAFoldedChainOfSelectsBecomesOneSelect() throws {
        let t = try Fixtures.literal("t", ["x", "y"], [[.integer(1), .integer(5)], [.integer(2), .null], [.integer(4), .integer(5)]])
        let x = Attribute("x"), y = Attribute("y")
        let query = try t.join(t.select(x *> 1).select(y *== 5)).select(x *< 9)
        // `t` is read by another output too: a chain over a node it reads alone stays.
        let other = try t.project(["y"])
        let (graph, reports) = try optimize([query, other])
        XCTAssertEqual(reports.first { $0.name == "self-operand-folding" }?.changes, 1)
        XCTAssertEqual(reports.first { $0.name == "select-folding" }?.changes, 2)
        let output = graph.outputNodes[0]
        guard case let .apply(.select(merged)) = graph[output].operation else { return XCTFail("\(graph[output].operation)") }
        XCTAssertEqual(merged, Predicate.all([x *> 1, y *== 5, x *< 9]))
        XCTAssertTrue(graph[graph[output].children[0]].operation.isSource)
        XCTAssertNoThrow(try graph.validate(after: "test"))
        let run = try QueryEngine(preset: "all-on").run([query, other])
        XCTAssertEqual(run.results[0].asSet, [Row([.integer(4), .integer(5)])])
        let (alone, _) = try optimize([query])
        XCTAssertEqual(alone.liveNodeIDs.filter { if case .apply(.select) = alone[$0].operation { true } else { false } }.count, 3)
    }

    /// An inner select that another node also reads, or that feeds an output, stays its own
    /// node: merging it would take its rows from its other reader.
    func testASharedInnerSelectIsNotMerged() throws {
        let t = try Fixtures.literal("t", ["x"], [[.integer(1)], [.integer(2)], [.integer(3)]])
        let x = Attribute("x")
        let inner = try t.select(x *> 1)
        let (graph, reports) = try optimize([try inner.select(x *< 3), try inner.project(["x"]).union(t)])
        XCTAssertEqual(reports.first { $0.name == "select-folding" }?.changes, 0)
        let (alone, _) = try optimize([try inner.select(x *< 3), inner])
        XCTAssertEqual(alone.liveNodeIDs.filter { if case .apply(.select) = alone[$0].operation { true } else { false } }.count, 2)
        XCTAssertEqual(graph.liveNodeIDs.filter { if case .apply(.select) = graph[$0].operation { true } else { false } }.count, 2)
    }

    /// Corpus 421/630: `t join (t join t minus t) select (x <= 3 and x > 40)`, `t` 85 rows.
    /// The select matches nothing, and the join's key filter then reads nothing of `t`.
    /// Folding the join alone left `t minus t`, whose two edges to `t` and the outer join's
    /// waited on each other, and `t` was read whole (85 rows); folded to `t select (false)`,
    /// it is read not at all, as with nothing folded.
    func testAFoldedJoinOverADifferenceReadsNothing() throws {
        let table = try MemoryTable(name: "t", columns: ["x", "y"], rows: (0..<85).map { [.integer(Int64($0 % 9)), .integer(Int64($0))] })
        let t = Relation(source: table)
        let x = Attribute("x")
        let query = try t.join(try t.join(t).difference(t).select(Predicate.all([x *<= 3, x *> 40])))
        XCTAssertEqual(try totalRead(query, [table]), 0)
        XCTAssertEqual(try totalRead(query, [table], disable: ["self-operand-folding"]), 0)
    }

    /// Left alone: a join of two different nodes, a self-join that also pairs an attribute
    /// with another (`x = x, y = y, x = y` keeps the rows whose `x` is their `y`), and a
    /// self-join that feeds an output.
    func testOtherJoinsAreKept() throws {
        let t = try Fixtures.literal("t", ["x", "y"], [[.integer(1), .integer(2)], [.integer(2), .integer(2)]])
        let u = try Fixtures.literal("u", ["x", "y"], [[.integer(1), .integer(2)]])
        let crossPaired = try t.equijoin(t, matching: [JoinPair("x", "x"), JoinPair("y", "y"), JoinPair("x", "y")])
        let selfJoin = try t.join(t)
        let x = Attribute("x")
        let (graph, reports) = try optimize([try t.join(u).select(x *>= 0), try crossPaired.select(x *>= 0), selfJoin])
        XCTAssertEqual(reports.first { $0.name == "self-operand-folding" }?.changes, 0)
        XCTAssertEqual(joins(graph), 3)
        let run = try QueryEngine(preset: "all-on").run([crossPaired.select(x *>= 0)])
        XCTAssertEqual(run.results[0].asSet, [Row([.integer(2), .integer(2)])])
    }

    /// `keys` 40 rows (`c` 0 to 39), `big` 600 rows indexed on `c` (`c` 0 to 119, 5 rows
    /// each, so the keys match 200). `(keys join (big join big) union big) join keys`: the
    /// keys reach `big` along the self-join's two edges and the union's, and subtree copying
    /// gave each edge a copy: `big` was read under the keys three times (640 rows; with
    /// `big join big join big join big`, five times, 1,040). Without the self-joins, `big`
    /// is read once (240), as without copying.
    func testASelfJoinUnderTheKeysIsReadOnce() throws {
        let big = try MemoryTable(name: "big", columns: ["c", "d"], rows: (0..<600).map { (i: Int) -> [Value] in
            [.integer(Int64(i % 120)), .integer(Int64(i))]
        }, indexedAttributes: ["c"])
        let keys = try MemoryTable(name: "keys", columns: ["c"], rows: (0..<40).map { [.integer(Int64($0))] },
                                   indexedAttributes: ["c"])
        let k = Relation(source: keys), b = Relation(source: big)
        for (inner, without) in [(try b.join(b), 640), (try b.join(b).join(b).join(b), 1_040)] {
            let query = try k.join(inner).union(b).join(k)
            XCTAssertEqual(try totalRead(query, [big, keys]), 240)
            XCTAssertEqual(try totalRead(query, [big, keys], disable: ["self-operand-folding"]), without)
            XCTAssertEqual(try totalRead(query, [big, keys], disable: ["subtree-copying"]), 240)
        }
    }
}
