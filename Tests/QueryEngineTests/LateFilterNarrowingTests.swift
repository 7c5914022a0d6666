import XCTest
import Relational
@testable import QueryEngine

/// The hunt's classes for issue 15 ("where the seed's heuristics lose"), hand-built from its
/// reduced cases: a filter that reaches a node after the node filtered a child itself.
/// Counters only: rows the `things` table delivered.
final class LateFilterNarrowingTests: HuntCaseTestCase {
    /// `t1 select (label != "zzz") join t0` with `t0` empty (the hunt's largest class, 19 of
    /// its 27 cases over 4x): the select pushed its predicate at the start, so the join's
    /// `false` filter stopped at the select and every row of `things` was read.
    func testAJoinFilterReachesBelowASelectThatAlreadyFilteredItsOperand() throws {
        let things = try things()
        let query = try Relation(source: things).select("label" *!= "zzz").join(empty())
        XCTAssertEqual(try rowsRead(query, things, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-filter-narrowing"]), 10)
        XCTAssertEqual(try rowsRead(query, things), 0)
        // Without select-pushdown the join filter flows down the free edge anyway.
        XCTAssertEqual(try rowsRead(query, things, preset: "seed", disable: ["select-pushdown"]), 0)
    }

    /// The documents corpus's `select-below-lookup-join`:
    /// `selected_documents join (documents select (name != "zzz"))`. The one selected id
    /// becomes a join filter on the select after the select pushed its predicate; narrowed,
    /// documents is fetched through its id index.
    func testALookupJoinsKeysReachBelowASelect() throws {
        let documents = try Fixtures.documents(1_000)
        let query = try Fixtures.literal("selected_documents", ["id"], [[5]])
            .join(Relation(source: documents).select("name" *!= "zzz"))
        XCTAssertEqual(try rowsRead(query, documents, preset: "seed"), 1_000)
        XCTAssertEqual(try rowsRead(query, documents, disable: ["late-filter-narrowing"]), 1_000)
        XCTAssertEqual(try rowsRead(query, documents), 1)
    }

    /// `let shared = t0 select (true); output (shared intersect shared) select (false)` (the
    /// hunt's worst case, 600 rows against 0 at 300-row tables): subtree copying gives one edge its own copy of
    /// the select, whose predicate is pushed as the copy is added, before the `false` the copy
    /// was made for arrives.
    func testACopiedSelectIsNarrowedByTheFilterItWasCopiedFor() throws {
        let things = try things()
        let shared = try Relation(source: things).select(.true)
        let query = try shared.intersection(shared).select(.false)
        // Without it one of the two (the copy) reads all 10 rows. (all-on's
        // late-subtree-copying vetoes that copy anyway: both edges of the intersection pass
        // the same filter, so it is switched off too to show this heuristic's part; and
        // `self-operand-folding` folds the intersection away before the run.)
        XCTAssertEqual(try rowsRead(query, things, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-filter-narrowing", "late-subtree-copying", "self-operand-folding"]), 10)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-filter-narrowing", "self-operand-folding"]), 0)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-subtree-copying"]), 0)
        XCTAssertEqual(try rowsRead(query, things), 0)
        XCTAssertEqual(try rowsRead(query, things, disable: ["subtree-copying"]), 0)
    }

    /// `(t2 intersect t1) select (true)` with `t1` empty: the select's `true` reached both
    /// operands first; set-operand-filter now narrows that edge with the empty side's `false`.
    func testSetOperandFilterNarrowsAnEdgeThatAlreadyHasAFilter() throws {
        let things = try things()
        let query = try Relation(source: things).project(["id"]).intersection(empty()).select(.true)
        XCTAssertEqual(try rowsRead(query, things, disable: ["set-operand-filter"]), 10)
        XCTAssertEqual(try rowsRead(query, things), 0)
    }
}
