import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-fifth round (twenty-first session): the two held-out cases the
/// twentieth session left open, both from seed 149 at the default `--rows 1000`.
final class HuntClassTwentyFifthRoundTests: HuntCaseTestCase {
    /// Held-out seed 149 case 183: `shared = (t2 join t0) select (a <= 3)` under both edges
    /// of a self-join with `e == 247` above. The self-join's filter activates the shared
    /// select before its own turn, and its `a <= 3` was added only over a source the select
    /// alone reads, not over a join: `t2`, whose `a` is all text (above every number), then
    /// delivered its rows (5 in the case, 1 here). Now the predicate narrows a join whose operands nothing else
    /// reads too: `t2`'s index finds nothing under `a <= 3`, its empty side gives `t0`
    /// `false`, and nothing is read.
    func testASelectsOwnPredicateNarrowsAJoinItAloneReads() throws {
        let t2 = try MemoryTable(name: "t2", columns: ["a"], rows: ["k186", "k69", "k160", "k55", "k228"].map { [.text($0)] },
                                 indexedAttributes: ["a"])
        let rows: [[Value]] = (0..<300).map { i in
            [i % 3 == 0 ? .text("k\(i % 250)") : .integer(i % 9), .text("d\(i)"), .integer(i % 250)]
        }
        let t0 = try MemoryTable(name: "t0", columns: ["a", "d", "e"], rows: rows, indexedAttributes: ["e"])
        let shared = try Relation(source: t2).join(Relation(source: t0)).select("a" *<= 3)
        let query = try shared.join(shared).select("e" *== 247)
        XCTAssertEqual(try totalRead(query, [t2, t0]), 0)
        XCTAssertEqual(try totalRead(query, [t2, t0], disable: ["late-subtree-copying"]), 0)
    }

    /// The gate: a join whose operand another node reads too is not narrowed (the narrowing
    /// would flow on into the shared operand, where it is OR-ed with the other's filter);
    /// `SelectPushdown.readsAloneATree` tells the two apart.
    func testOnlyATreeNothingElseReadsIsNarrowed() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["a", "e"], rows: [[.integer(1), .integer(2)]])
        let t1 = try MemoryTable(name: "t1", columns: ["a", "d"], rows: [[.integer(1), .integer(3)]])
        let alone = try Relation(source: t0).join(Relation(source: t1)).select("a" *<= 3)
        var graph = Planner.plan([alone])
        let aloneJoin = try XCTUnwrap(graph.liveNodeIDs.first { isJoin(graph[$0].operation) })
        XCTAssertTrue(SelectPushdown.readsAloneATree(aloneJoin, graph))
        let shared = Relation(source: t1)
        let twice = try Relation(source: t0).join(shared).select("a" *<= 3).project(["a"]).union(shared.project(["a"]))
        graph = Planner.plan([twice])
        let joins = graph.liveNodeIDs.filter { isJoin(graph[$0].operation) }
        XCTAssertFalse(joins.isEmpty)
        XCTAssertTrue(joins.allSatisfy { !SelectPushdown.readsAloneATree($0, graph) })
    }

    private func isJoin(_ operation: NodeOperation) -> Bool {
        if case .apply(.join) = operation { return true }
        return false
    }

    /// Held-out seed 149 case 1583: `(t2 join t0 join (t1 minus t1 select (d == 65))) select
    /// (a <= null)`, `t2` 500 rows unindexed, one of them (not in its statistics sample) with
    /// a null `a`; `t0` 100 rows indexed on `a` and `d`, 16 with a null `a`; `t1` two rows.
    /// `filter-aware-ordering` sized `t2 join t0` by `t2`'s sample (no match: half a sampled
    /// row, about 2 rows), no larger than `t1`, and deferred `t1`; `t2`'s null key then
    /// keyed `t0`'s 16 null rows (17 read). `a <= null` pins `a` to null, so the key
    /// look-ahead now counts the rows of `t0` that key matches (16): the join is sized at 16,
    /// `t1` goes first, its keys match nothing of `t0`, and `t2` gets `false` (2 rows).
    func testAKeyPinnedByTheFilterIsLookedAhead() throws {
        let t2Rows: [[Value]] = (0..<500).map { i in [i == 1 ? .null : .integer(i), .integer(i % 7), .integer(i % 11)] }
        let t2 = try MemoryTable(name: "t2", columns: ["a", "b", "e"], rows: t2Rows)
        let t0Rows: [[Value]] = (0..<100).map { i in [i < 16 ? .null : .integer(i), .integer(i), .integer(20 + i % 20)] }
        let t0 = try MemoryTable(name: "t0", columns: ["a", "c", "d"], rows: t0Rows, indexedAttributes: ["a", "d"])
        let t1 = try MemoryTable(name: "t1", columns: ["d"], rows: [[.real(8.0)], [.integer(134)]], indexedAttributes: ["d"])
        let right = try Relation(source: t1).difference(Relation(source: t1).select("d" *== 65))
        let query = try Relation(source: t2).join(Relation(source: t0)).join(right).select("a" *<= .null)
        XCTAssertEqual(try totalRead(query, [t2, t0, t1]), 2)
        XCTAssertEqual(try totalRead(query, [t2, t0, t1], disable: ["filter-aware-ordering"]), 2)
    }

    func testALessOrEqualNullPinsTheAttribute() {
        let filter = Predicate.all(["a" *<= .null, "e" *< 241])
        XCTAssertEqual(filter.pinnedValueSets["a"], [.null])
        XCTAssertNil(filter.impliedValueSets["a"])
        XCTAssertNil(filter.pinnedValueSets["e"])
        let flipped = Predicate.comparison(.value(.null), .greaterOrEqual, .attribute("a"))
        XCTAssertEqual(flipped.pinnedValueSets["a"], [.null])
        XCTAssertEqual(Predicate.all(["a" *<= .null, "a" *== 3]).pinnedValueSets["a"], [])
    }
}
