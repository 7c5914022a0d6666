import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, forty-first session: held-out seed 504 case 1912 at `--rows 300`, a shared
/// select over a node something else reads too, whose copy `late-subtree-copying` vetoed
/// although the copied select would narrow its own read to nothing.
final class HuntClassFortyFourthRoundTests: HuntCaseTestCase {
    /// `t0(a, b, d)`: 40 rows, `b` 0…39, `d` twice that; `a` null on the five rows with
    /// `b` 0…4 and `b` elsewhere. Indexed on every attribute.
    private func table() throws -> MemoryTable {
        let rows: [[Value]] = (0..<40).map { (i: Int) -> [Value] in
            [i < 5 ? .null : .integer(Int64(i)), .integer(Int64(i)), .integer(Int64(2 * i))]
        }
        return try MemoryTable(name: "t0", columns: ["a", "b", "d"], rows: rows, indexedAttributes: ["a", "b", "d"])
    }

    /// `shared = t0 rename […]`, `shared_2 = shared select (narrowing)`, output `((shared
    /// intersect shared_2 intersect shared_2) select (g == null)) minus t0 rename […]`.
    private func query(_ t0: MemoryTable, narrowing: Relational.Predicate) throws -> Relation {
        let shared = try Relation(source: t0).rename(["a": "g", "b": "f", "d": "e"])
        let shared2 = try shared.select(narrowing)
        let left = try shared.intersection(shared2).intersection(shared2).select("g" *== .null)
        return try left.difference(Relation(source: t0).rename(["a": "e", "b": "f", "d": "g"]))
    }

    /// Both intersections give `shared_2` `g == null`, so the copy the seed's criteria ask
    /// for along one of them was vetoed (the same filter either way), and `shared` (which
    /// `shared_2`'s select cannot narrow: the intersection reads it too) delivered the five
    /// null rows. A copy is a tree the copied select alone reads: its `f == 19 and g < 71`
    /// narrows the copy to nothing, the copy completes empty, both intersections are empty,
    /// and the difference gives its right side `false` (`copiedSelectNarrows`): 0 rows.
    func testACopyOfASelectOverASharedNodeNarrowsItsOwnRead() throws {
        let t0 = try table()
        let query = try query(t0, narrowing: .all(["f" *== 19, "g" *< 71]))
        XCTAssertEqual(try totalRead(query, [t0]), 0, "5 before")
        XCTAssertEqual(try totalRead(query, [t0], disable: ["late-subtree-copying"]), 0)
        XCTAssertEqual(try totalRead(query, [t0], preset: "seed"), 46)
    }

    /// A predicate that keeps the rows the filter fetches (`f < 19` holds on all five null
    /// rows) narrows nothing: the copy would read them again, so the veto stands.
    func testASelectThatNarrowsNothingKeepsTheVeto() throws {
        let t0 = try table()
        let query = try query(t0, narrowing: "f" *< 19)
        XCTAssertEqual(try totalRead(query, [t0]), 5)
        XCTAssertEqual(try totalRead(query, [t0], disable: ["late-subtree-copying"]), 15)
    }
}
