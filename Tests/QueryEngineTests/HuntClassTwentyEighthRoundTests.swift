import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-eighth round (twenty-fourth session): the two held-out cases the
/// twenty-third session left open, seed 192 cases 433 and 250 at `--rows 3000`.
final class HuntClassTwentyEighthRoundTests: HuntCaseTestCase {
    /// Case 433: `t0 closure [d -> b] select (d == 732) join t1 intersect t1 join t0`. The
    /// select pins the search's start; the join above keys the same attribute from `t1`,
    /// whose five values hold no 732, so once `t1` is drained the search has nothing to
    /// find. Sized at its first fetch (one row) it went before `t1` and followed a chain of
    /// 30 edges; `filter-aware-ordering` now sees that `t1`'s known keys miss the pin.
    func testASearchWhosePinTheKeysAboveMissWaits() throws {
        let (t0, t1) = try closureTables()
        let query = try closureQuery(t0, t1)
        // `t1`'s 5 rows, and the 2 rows of `t0` its keys find for the second join.
        XCTAssertEqual(try totalRead(query, [t0, t1]), 7)
        XCTAssertEqual(try totalRead(query, [t0, t1], disable: ["filter-aware-ordering"]), 38)
    }

    /// Keys that hold the pinned value do not empty the search, so it is still sized at its
    /// first fetch and goes first (seed 54 case 1134's rule, kept).
    func testASearchWhosePinTheKeysHoldIsNotDeferred() throws {
        let (t0, _) = try closureTables()
        let t1 = try MemoryTable(name: "t1", columns: ["d"], rows: [[732], [1000], [1001], [5000], [5001]].map { $0.map(Value.integer) })
        let query = try closureQuery(t0, t1)
        let withRule = try totalRead(query, [t0, t1])
        XCTAssertEqual(withRule, try totalRead(query, [t0, t1], disable: ["filter-aware-ordering"]))
    }

    /// `t0(b, d)` indexed on `d`: the edge `732 -> 0`, a chain `0 -> 1 -> … -> 30`, and 250
    /// unrelated edges `1000 + i -> 2000 + i`; `t1(d)`: five values, none 732, two in `t0`.
    private func closureTables() throws -> (t0: MemoryTable, t1: MemoryTable) {
        var rows: [[Value]] = [[.integer(0), .integer(732)]]
        rows += (0..<30).map { [.integer($0 + 1), .integer($0)] }
        rows += (0..<250).map { [.integer(2000 + $0), .integer(1000 + $0)] }
        let t0 = try MemoryTable(name: "t0", columns: ["b", "d"], rows: rows, indexedAttributes: ["d"])
        let t1 = try MemoryTable(name: "t1", columns: ["d"], rows: [[165], [1000], [1001], [5000], [5001]].map { $0.map(Value.integer) })
        return (t0, t1)
    }

    private func closureQuery(_ t0: MemoryTable, _ t1: MemoryTable) throws -> Relation {
        let searched = try Relation(source: t0).closure("d", "b").select("d" *== 732).join(Relation(source: t1))
        return try searched.intersection(Relation(source: t1).join(Relation(source: t0)))
    }
}
