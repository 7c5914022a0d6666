import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, forty-ninth session: held-out 730/313 at `--rows 300` (6.67, `all-on` 20 rows
/// against `seed`'s 5), rebuilt over other data. The hunted repro is kept for
/// `HuntReproTests` (`hunt-s730-case313`), beside `hunt-s728-case1211`, whose class
/// `SelectActivationNarrowingTests` holds.
final class HuntClassFiftiethRoundTests: HuntCaseTestCase {
    /// `t3 join (t1 rename [d -> b, e -> d] project [a] intersect t0)`: `t0` one row whose
    /// null `a` matches the 19 of `t1`'s 150 rows with a null `a` (indexed on `a`); `t3` two
    /// rows whose keys match nothing. Sized at `t0`'s one row, the intersection kept `t3`
    /// waiting; looked ahead through the rename and project as a join is
    /// (`JoinKeyLookahead.keyPairs`), it is sized at those 19 rows and `t3` goes first.
    func testAnIntersectionIsLookedAheadAsAJoinIs() throws {
        let t1 = try MemoryTable(name: "t1", columns: ["a", "d", "e"], rows: (0..<150).map { (i: Int) -> [Value] in
            [i % 8 == 0 ? .null : .integer(Int64(i + 100)), .integer(Int64(i % 9)), .integer(Int64(i))]
        }, indexedAttributes: ["a", "e"])
        let t0 = try MemoryTable(name: "t0", columns: ["a"], rows: [[.null]])
        let t3 = try MemoryTable(name: "t3", columns: ["a", "b"], rows: [[.integer(29), .integer(53)], [.real(44), .real(50)]],
                                 indexedAttributes: ["b"])
        let side = try Relation(source: t1).rename(["d": "b", "e": "d"]).project(["a"]).intersection(Relation(source: t0))
        let query = try Relation(source: t3).join(side)
        let tables = [t0, t1, t3]
        // t3's two rows first; their keys leave t0 and t1 nothing. 20 before: t0 first, and
        // its null fetched 19 rows of t1 by the index.
        XCTAssertEqual(try totalRead(query, tables), 2, "20 before")
        XCTAssertEqual(try totalRead(query, tables, disable: ["filter-aware-ordering"]), 3)
        XCTAssertEqual(try totalRead(query, tables, preset: "seed"), 3)
        // The same query with a natural join in place of the intersection was looked ahead already.
        let joinOnly = try Relation(source: t3).join(
            try Relation(source: t1).rename(["d": "b", "e": "d"]).project(["a"]).join(Relation(source: t0)))
        XCTAssertEqual(try totalRead(joinOnly, tables), 2)
    }
}
