import XCTest
import Relational
@testable import QueryEngine

/// Issue 15's hunt classes fixed after `late-filter-narrowing`, hand-built from the reduced
/// cases: rows the `things` table delivered, under `seed`, `all-on` and `all-on` without the
/// heuristic that fixes the class.
final class HuntClassTests: HuntCaseTestCase {
    /// `t2 join (t3 select (true)) join t3` with `t2` empty (class "shared source with a select
    /// parent"): the select gave `t3` its `true` at the start, so the inner join's `false`
    /// only narrows that edge while `t3` waits on the outer join, which waits on `t3`.
    /// `late-subtree-copying` copies `t3` for the narrowed edge.
    func testANarrowedEdgeToASharedSourceGetsItsOwnCopy() throws {
        let things = try things(indexed: true)
        let shared = Relation(source: things)
        let query = try empty().join(shared.select(.true)).join(shared)
        XCTAssertEqual(try rowsRead(query, things, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-subtree-copying"]), 10)
        XCTAssertEqual(try rowsRead(query, things), 0)
    }

    /// `(t1 select (true)) join (t0 join t1)` with `t0` empty: the inner join's `false` is
    /// the last filter `t1` waits for, and OR-ed with the select's `true` it would read every
    /// row; copied, the inner join reads none, and the outer join's `false` then narrows the
    /// original through the select.
    func testTheLastFilterIsNotLostInAnUnselectiveOr() throws {
        let things = try things(indexed: true)
        let shared = Relation(source: things)
        let query = try shared.select(.true).join(empty().join(shared))
        XCTAssertEqual(try rowsRead(query, things, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-subtree-copying"]), 10)
        XCTAssertEqual(try rowsRead(query, things), 0)
    }

    /// `t1 select (label >= "x") join t0` over unindexed tables (class "initiator order"):
    /// the select's filter is invisible to `t1`'s estimate (10 rows), so `t0` (9 rows) looked
    /// smaller and was drained first. `filter-aware-ordering` guesses the filtered side at a
    /// third of its rows, defers `t0`, and the empty select's filter reaches it.
    func testASelectTheEstimateCannotSeeIsGuessedSmaller() throws {
        let things = try things(indexed: false)
        let other = try MemoryTable(name: "other", columns: ["id", "note"], rows: (1...9).map { [.integer($0), .text("n\($0)")] })
        let query = try Relation(source: things).select("label" *>= "x").join(Relation(source: other))
        func read(_ preset: String, _ disable: [String] = []) throws -> Int {
            things.resetStatistics()
            other.resetStatistics()
            let flags = try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)
            let run = try QueryEngine(flags: flags).run([query])
            let read = things.rowsDelivered + other.rowsDelivered
            XCTAssertEqual(Set(run.results[0]), Set(try ReferenceEvaluator.evaluate(query)), "\(preset) -\(disable)")
            return read
        }
        XCTAssertEqual(try read("seed"), 9)
        XCTAssertEqual(try read("all-on", ["filter-aware-ordering"]), 9)
        XCTAssertEqual(try read("all-on"), 0)
    }
}
