import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-fourth round (twentieth session): the re-hunt of seeds 26–40 at
/// `--rows 300` with the fix for 26/56 found one more form of the same veto.
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
}
