import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-fourth round (twentieth session): the re-hunt of seeds 26–127 at
/// `--rows 300` with the fix for 26/56 found two more forms of the same veto.
final class HuntClassTwentyFourthRoundTests: HuntCaseTestCase {
    /// Seed 27 case 1636: `shared = t0 select (e > 61)` under a difference's right side and
    /// a join, `((t0 minus shared) join shared) select (e == 2)`, `t0` indexed on `e`. The
    /// outer select's `e == 2` reaches `t0` from the difference and, through the shared
    /// select before its own turn, from the select. `subtree-copying` asks to copy `t0`
    /// for the difference; `late-subtree-copying` vetoed it, as the select gives the same
    /// `e == 2`. But copied, `t0` is left to the select alone, whose `e > 61` then narrows
    /// it to nothing: `shared` is empty, the join gives the difference `false`, and the copy
    /// reads nothing either. Vetoed, `t0` delivered its 5 rows with `e == 2`.
    func testACopyThatLeavesTheSourceToASelectIsNotVetoed() throws {
        let rows: [[Value]] = (0..<150).map { [.integer($0), .integer($0 % 7), .integer($0 % 30)] }
        let t0 = try MemoryTable(name: "t0", columns: ["a", "b", "e"], rows: rows, indexedAttributes: ["a", "e"])
        let shared = try Relation(source: t0).select("e" *> 61)
        let query = try Relation(source: t0).difference(shared).join(shared).select("e" *== 2)
        XCTAssertEqual(try totalRead(query, [t0]), 0)
        XCTAssertEqual(try totalRead(query, [t0], disable: ["late-subtree-copying"]), 0)
        XCTAssertEqual(try totalRead(query, [t0], preset: "seed"), 0)
    }

    /// The gate: a select whose predicate no index reads narrows nothing that is fetched, so
    /// the copy would read the original's rows again and the veto stands.
    func testTheVetoStandsWhenTheSelectNarrowsNoFetch() throws {
        let rows: [[Value]] = (0..<150).map { [.integer($0), .integer($0 % 7), .integer($0 % 30)] }
        let t0 = try MemoryTable(name: "t0", columns: ["a", "b", "e"], rows: rows, indexedAttributes: ["a", "e"])
        let shared = try Relation(source: t0).select("b" *!= 3)
        let query = try Relation(source: t0).difference(shared).join(shared).select("e" *== 2)
        XCTAssertEqual(try totalRead(query, [t0]), 5)
    }

    /// Seed 92 case 730: `(t1 select (d < c) minus t1 join t0) select (c == null) join
    /// [b = b, c = e] t2`, `t1` 300 rows indexed on `c` and `d`, `t0` one row, `t2` two.
    /// The select's copy, made at the start, would get `c == null and d < c`, which matches
    /// nothing (nothing is below null, the least value); but `pinnedValuesContradict` saw
    /// no pinned `d` to compare, the index estimates it as `c == null` alone, and the copy
    /// was vetoed as giving the same `c == null` as the join. `t1` then read its null rows
    /// under the later keys (12 rows in all, 3 without `late-subtree-copying`; here 7 and 3).
    /// Now the copy is made and reads nothing, and `provably-empty-first` drains it first:
    /// its empty left side empties the difference and the outer join gives the rest `false`.
    func testNothingIsBelowAPinnedNull() throws {
        let rows: [[Value]] = (0..<300).map { i in
            [i % 5 == 0 ? .null : .integer(i % 80), i % 6 == 0 ? .null : .integer(i % 50), .integer(i % 40)]
        }
        let t1 = try MemoryTable(name: "t1", columns: ["b", "c", "d"], rows: rows, indexedAttributes: ["c", "d"])
        let t0 = try MemoryTable(name: "t0", columns: ["b", "d"], rows: [[.integer(12), .integer(7)]])
        let t2 = try MemoryTable(name: "t2", columns: ["b", "e"], rows: [[.integer(72), .integer(3)], [.null, .null]])
        let left = try Relation(source: t1).select(.comparison(.attribute("d"), .less, .attribute("c")))
        let query = try left.difference(Relation(source: t1).join(Relation(source: t0))).select("c" *== .null)
            .equijoin(Relation(source: t2), matching: [JoinPair("b", "b"), JoinPair("c", "e")])
        XCTAssertEqual(try totalRead(query, [t1, t0, t2]), 0)
        XCTAssertEqual(try totalRead(query, [t1, t0, t2], disable: ["late-subtree-copying"]), 0)
    }

    func testNothingIsBelowNull() {
        let pinned = Predicate.all(["c" *== .null, .comparison(.attribute("d"), .less, .attribute("c"))])
        XCTAssertTrue(pinned.pinnedValuesContradict)
        let flipped = Predicate.all(["c" *== .null, .comparison(.attribute("c"), .greater, .attribute("d"))])
        XCTAssertTrue(flipped.pinnedValuesContradict)
        // `d <= c` holds where `d` is null too.
        let atMost = Predicate.all(["c" *== .null, .comparison(.attribute("d"), .lessOrEqual, .attribute("c"))])
        XCTAssertFalse(atMost.pinnedValuesContradict)
        let above = Predicate.all(["c" *== .null, .comparison(.attribute("d"), .greater, .attribute("c"))])
        XCTAssertFalse(above.pinnedValuesContradict)
    }
}
