import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, thirty-eighth session: the held-out case left open over 4× (seed 416 case 1549
/// at `--rows 300`).
final class HuntClassFortyFirstRoundTests: HuntCaseTestCase {
    /// `shared = t1 join [a = d] t2 join t1` under `(shared join shared) select (c <= "A")`,
    /// beside the output `t2 join [d = b] t1`; `t1` 299 unindexed rows, every one meeting the
    /// select (numbers order before text). `select-pushdown` gave `t1` the select's predicate
    /// from both joins of `shared` at the start; `t2`'s two keys then narrowed the inner
    /// join's edge while `t1` still waited on the output join, and were lost in the OR with
    /// the outer join's edge, which can narrow only once the inner join completes: `t1` was
    /// read whole. Copied for the narrowing (`late-subtree-copying`'s case 7), the copy reads
    /// the keyed rows, the inner join completes, and its rows narrow the original.
    func testANarrowingBeforeActivationIsNotLostInTheOr() throws {
        let rows: [[Value]] = (0..<299).map { (i: Int64) -> [Value] in
            [.integer(i % 100), .integer(i * 7 % 100), .integer(i)]
        }
        let t1 = try MemoryTable(name: "t1", columns: ["a", "b", "c"], rows: rows)
        let t2 = try MemoryTable(name: "t2", columns: ["d"], rows: [[0], [67]], indexedAttributes: ["d"])
        let table = Relation(source: t1), keys = Relation(source: t2)
        let shared = try table.equijoin(keys, matching: [JoinPair("a", "d")]).join(table)
        let query = try shared.join(shared).select("c" *<= .text("A"))
        let beside = try keys.equijoin(table, matching: [JoinPair("d", "b")])
        let read = try totalRead(query, [t1, t2], alsoOutput: [beside])
        XCTAssertLessThanOrEqual(read, 20, "307 before case 7")
        XCTAssertEqual(try totalRead(query, [t1, t2], disable: ["late-subtree-copying"], alsoOutput: [beside]), 301)
        XCTAssertEqual(try totalRead(query, [t1, t2], preset: "seed", alsoOutput: [beside]), 301)
    }
}
