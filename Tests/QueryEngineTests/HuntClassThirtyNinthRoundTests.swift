import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, thirty-sixth session: held-out seed 298 case 1506 at the default rows, and the
/// `difference-to-select` rewrite it motivated.
final class HuntClassThirtyNinthRoundTests: HuntCaseTestCase {
    /// `(shared minus shared select (e <= a or a == 217)) select (e <= a) intersect (t2 union t1)`:
    /// under `e <= a` the difference is empty, but nothing knew it before reading `t0`, and
    /// smallest-estimate ordering read the intersection's other side whole first (`t1`,
    /// then `t2`). As `shared select (e > a and a != 217)`, the select's predicate joins
    /// `e <= a` on the way to `t0`, the two contradict, and `t0` is seen to match nothing
    /// without a row read; the intersection then gives the other side `false`.
    func testADifferenceOfItsOwnSelectionIsASelect() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["a", "e"],
                                 rows: (0..<499).map { [.integer(Int64($0 % 250)), .integer(Int64(($0 * 7) % 300))] },
                                 indexedAttributes: ["a"])
        let t1 = try MemoryTable(name: "t1", columns: ["a", "e"],
                                 rows: (0..<100).map { [.integer(Int64($0)), .integer(Int64($0 + 1))] }, indexedAttributes: [])
        let t2 = try MemoryTable(name: "t2", columns: ["a", "e"],
                                 rows: (0..<497).map { [.integer(Int64($0)), .integer(Int64($0 / 2))] }, indexedAttributes: [])
        let shared = Relation(source: t0)
        let within: Relational.Predicate = .comparison(.attribute("e"), .lessOrEqual, .attribute("a"))
        let difference = try shared.difference(shared.select(.or([within, "a" *== 217])))
        let query = try difference.select(within).intersection(Relation(source: t2).union(Relation(source: t1)))
        // Without the rewrite (as `seed`) the other side is read first: every row of `t1`.
        XCTAssertGreaterThanOrEqual(try totalRead(query, [t0, t1, t2], preset: "seed"), 100)
        XCTAssertGreaterThanOrEqual(try totalRead(query, [t0, t1, t2], disable: ["difference-to-select"]), 100)
        XCTAssertEqual(try totalRead(query, [t0, t1, t2]), 0)
        // Without the select above that `not p` contradicts, the default leaves it alone.
        var graph = Planner.plan([try difference.intersection(Relation(source: t1))])
        XCTAssertEqual(DifferenceToSelectRewrite().run(&graph), 0)
        graph = Planner.plan([query])
        XCTAssertEqual(DifferenceToSelectRewrite().run(&graph), 1)
    }

    /// The rewrite itself (of every such difference, `difference-to-select-always`): the difference becomes a select of the negated predicate (pushed
    /// onto the comparisons) over the same operand, and a select nothing else reads is gone.
    /// One that another node reads, or a difference of another operand, is left alone.
    func testTheRewriteKeepsWhatOthersRead() throws {
        let t = Relation(source: try MemoryTable(name: "t", columns: ["a"], rows: [[1], [2]]))
        let u = Relation(source: try MemoryTable(name: "u", columns: ["a"], rows: [[1]]))
        let picked = try t.select(.or(["a" *== 1, "a" *> 5]))
        var graph = Planner.plan([try t.difference(picked), try u.difference(u.select("a" *== 1)).union(picked), try u.difference(picked)])
        XCTAssertEqual(DifferenceToSelectRewrite(always: true).run(&graph), 2)
        let operators = graph.outputNodes.map { graph[$0].operation.operator }
        XCTAssertEqual(operators[0], .select(.and(["a" *!= 1, "a" *<= 5])))
        let source = try XCTUnwrap(graph.liveNodeIDs.first { graph[$0].operation.isSource && graph[$0].name == "t" })
        XCTAssertEqual(graph[graph.outputNodes[0]].children, [source])
        XCTAssertEqual(operators[2], .difference, "u minus (t select …) is not u's own selection")
        // `picked` is still read by the union and the last difference, so it stays.
        let live = graph.liveNodeIDs.compactMap { graph[$0].operation.operator }
        XCTAssertTrue(live.contains(.select(.or(["a" *== 1, "a" *> 5]))))
        XCTAssertFalse(live.contains(.select("a" *== 1)), "u's select is gone")
        try graph.validate(after: "difference-to-select")
    }

    /// Over a select only the rewritten node reads, the two become one select (held-out 366
    /// case 872: the lower select's `d < null` was otherwise lost, 127 rows against 0); a
    /// difference of `A select false` is left as it is.
    func testTheRewriteFoldsASelectBelowAndLeavesFalseAlone() throws {
        let t = Relation(source: try MemoryTable(name: "t", columns: ["a"], rows: [[1], [2]]))
        let below = try t.select("a" *< 9)
        var graph = Planner.plan([try below.difference(below.select("a" *== 1)), try t.difference(t.select(.false))])
        XCTAssertEqual(DifferenceToSelectRewrite(always: true).run(&graph), 1)
        XCTAssertEqual(graph[graph.outputNodes[0]].operation.operator, .select(.and(["a" *< 9, "a" *!= 1])))
        XCTAssertTrue(graph[graph[graph.outputNodes[0]].children[0]].operation.isSource)
        XCTAssertEqual(graph[graph.outputNodes[1]].operation.operator, .difference)
        try graph.validate(after: "difference-to-select")
    }

    /// `(t0 select (not (a < 0)) intersect t0) select (66 > c and a == null)` (held-out 378
    /// case 290 at `--rows 300`, 5 rows against 0): the select's edge holds `a == null and
    /// not (a < 0)`, which no row meets, but the contradiction was looked for only between
    /// comparisons, so `late-subtree-copying` took the select's filter for one that fetches
    /// the same rows, vetoed the seed's copy, and `t0`'s five null rows were read under the
    /// shared filter. A NOT over comparisons is now read as the opposite comparisons.
    func testAContradictionBehindANegationIsSeen() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["a", "c"],
                                 rows: (0..<30).map { [$0 < 5 ? .null : .integer(Int64($0)), .integer(Int64($0 * 3))] },
                                 indexedAttributes: ["a", "c"])
        let shared = Relation(source: t0)
        let query = try shared.select(.not("a" *< 0)).intersection(shared)
            .select(.and(["c" *< 66, "a" *== .null])).project(["c"])
        XCTAssertEqual(try totalRead(query, [t0], preset: "seed"), 5)
        XCTAssertEqual(try totalRead(query, [t0]), 0)
    }
}
