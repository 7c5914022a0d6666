import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, tenth round: the cases of seeds 21 and 22 where switching `select-pushdown`
/// (or `join-conjunct-pushdown`) off read least. In each, a filter from a select reached a
/// node first and a later, narrower filter was then lost, hand-built over small tables.
final class HuntClassTenthRoundTests: HuntCaseTestCase {
    /// Seed 22 case 860, seed 21 case 1412 (reduced `(t0 join [e = b] t1) select (c >= 14)
    /// join t2`): the select activates the inner join with `c >= 14` at the start; the probe's
    /// key filter reaches the join later as a narrowing, which the runner passes to neither
    /// side (neither reads `c`). `join-conjunct-pushdown` now gives each side what it reads of
    /// the narrowed filter too: `big` gets `a in {99}` and reads nothing.
    func testANarrowedJoinFilterGivesEachSideWhatItReads() throws {
        let big = try MemoryTable(name: "big", columns: ["a", "e"], rows: (1...10).map { [.integer($0), .integer(5)] })
        let side = Relation(source: try MemoryTable(name: "side", columns: ["b", "c"],
                                                    rows: [[.integer(5), .integer(20)], [.integer(5), .integer(30)]]))
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["a"], rows: [[.integer(99)]]))
        let query = try Relation(source: big).equijoin(side, matching: [JoinPair("e", "b")]).select("c" *>= 14).join(probe)
        XCTAssertEqual(try rowsRead(query, big, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, big, disable: ["join-conjunct-pushdown"]), 10)
        XCTAssertEqual(try rowsRead(query, big), 0)  // 10 when only activation gave conjuncts
    }

    /// Seed 21 case 891 (reduced `(shared intersect shared select (e <= 33)) join t0`,
    /// `shared = t1 join t2`): the shared join's filter is `(e <= 33 and a in {99}) or a in
    /// {99}`, which neither side reads whole; `right` reads `a in {99}` of each disjunct, so
    /// it delivers nothing and the join's other side is not read either.
    func testAnOrGivesASideWhatItReadsOfEveryDisjunct() throws {
        let left = try MemoryTable(name: "left", columns: ["d", "e"], rows: (1...10).map { [.integer($0), .integer($0)] })
        let right = try MemoryTable(name: "right", columns: ["a", "d"], rows: (1...5).map { [.integer($0), .integer($0)] })
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["a"], rows: [[.integer(99)]]))
        let shared = try Relation(source: left).join(Relation(source: right))
        let query = try shared.intersection(shared.select("e" *<= 33)).join(probe)
        XCTAssertEqual(try rowsRead(query, right, preset: "seed"), 5)
        XCTAssertEqual(try rowsRead(query, right, disable: ["join-conjunct-pushdown"]), 5)
        XCTAssertEqual(try rowsRead(query, right), 0)  // 5 when an OR was read whole or not at all
        XCTAssertEqual(
            JoinConjunctPushdown.partRead(of: .or([.and(["e" *<= 33, "a" *== 99]), "a" *== 99]), by: try Scheme(["a", "d"])),
            "a" *== 99)
        XCTAssertNil(JoinConjunctPushdown.partRead(of: .or(["e" *<= 33, "a" *== 99]), by: try Scheme(["a", "d"])))
    }

    /// Seed 21 case 1563 (reduced `(t1 join (t2 project [c, e] closure [e -> c] select
    /// (false))) select (e > b and c > 69)`): the outer select's predicate activated the join
    /// while `select-pushdown` walked the graph, and `join-conjunct-pushdown` gave the inner
    /// select `c >= 1` at once; that activated the inner select, flowed on, and took its edge
    /// before the select's own `e > 100` could, so `big` was read under the probe's keys
    /// (2 rows). The conjuncts now wait until every heuristic has seen the nodes.
    func testConjunctsWaitForTheSelectsBelowToPush() throws {
        let big = try MemoryTable(name: "big", columns: ["c", "e"], rows: (1...10).map { [.integer($0), .integer($0)] })
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["b", "c"],
                                                     rows: [[.integer(0), .integer(1)], [.integer(0), .integer(2)]]))
        let outer = Predicate.and([.comparison(.attribute("e"), .greater, .attribute("b")), "c" *>= 1])
        let query = try probe.join(Relation(source: big).select("e" *> 100)).select(outer)
        XCTAssertEqual(try rowsRead(query, big, preset: "seed"), 0)  // no conjuncts: the select pushes first
        XCTAssertEqual(try rowsRead(query, big, disable: ["join-conjunct-pushdown"]), 0)
        XCTAssertEqual(try rowsRead(query, big), 0)  // 2 when the conjuncts came first
    }

    /// Seed 22 cases 1060 and 759 (reduced `((t2 join t3) intersect t0 rename […]) select
    /// (true)`): the select's `true` reached the intersection's waiting side at the start,
    /// and `filter-aware-ordering` took any filter there for the one the other side would
    /// give, so it no longer deferred `things` (10 rows) behind `mid` (12 rows, filtered by
    /// the probe's key to nothing; then `set-operand-filter` gives `things` `false`). Only a key filter (an IN-set or `false`) counts now.
    func testAWaitingSideWithASelectsFilterIsStillDeferred() throws {
        let table = try things()
        let mid = Relation(source: try MemoryTable(name: "mid", columns: ["id", "label"],
                                                   rows: (1...12).map { [.integer(2 * $0), .text("m\($0)")] }))
        // `5` is inside `mid`'s range (even ids 2 to 24), so `provably-empty-first` cannot rule it out.
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["id"], rows: [[.integer(5)]]))
        let query = try mid.join(probe).intersection(Relation(source: table)).select(.true)
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, table, disable: ["filter-aware-ordering", "sampled-estimate-ordering"]), 10)
        XCTAssertEqual(try rowsRead(query, table), 0)  // 10 when the `true` stopped the deferral
    }

    /// Seed 21 case 1683 (reduced `(t1 join t0 join t1) select (true)`, `t1` indexed): the
    /// select's `true` reaches the shared `things` from both joins at the start; the probe's
    /// three keys then narrow the inner join's edge, lost in the OR with `true`. The index
    /// estimates the keys at 3 of 10 rows, more than the quarter `late-subtree-copying` asked
    /// for; against an OR the index cannot read a third now does, so the inner join gets a
    /// copy (3 rows) and its keys then narrow the original (3 rows).
    func testAnIndexedNarrowingOfAnOrTheIndexCannotReadIsCopied() throws {
        let table = try things(indexed: true)
        let shared = Relation(source: table)
        let probe = Relation(source: try MemoryTable(name: "probe", columns: ["id"],
                                                     rows: [[.integer(2)], [.integer(4)], [.integer(6)]]))
        let query = try probe.join(shared).join(shared).select(.true)
        XCTAssertEqual(try rowsRead(query, table, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, table, disable: ["late-subtree-copying"]), 10)
        XCTAssertEqual(try rowsRead(query, table), 6)  // 10 uncopied
    }
}
