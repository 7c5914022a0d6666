import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, twenty-ninth round (twenty-fifth session): held-out seed 243 case 1856 at the
/// default rows, 899 rows against 2.
final class HuntClassTwentyNinthRoundTests: HuntCaseTestCase {
    /// The case: `shared = t1 project [c, d] closure [d -> c] select (d == 137) project [d]`,
    /// `output (t1 join t0) select (d == null) join t0 join (shared intersect shared select
    /// (…) minus shared)`. Nothing above the search keys either end (its select's project
    /// is shared by three parents), so `filter-aware-ordering` sized it at its first fetch,
    /// one edge: below `t0`'s two rows, it went first and followed 899 edges. Drained first,
    /// `t0`'s keys match nothing of `t1`, the left side is empty and the search gets `false`.
    /// A search fetched on demand that nothing above can narrow is now sized at its reach,
    /// as one whose open end is keyed above is.
    func testAnUnkeyedSearchWaitsBehindASideThatCanEmptyIt() throws {
        let (edges, small, keyed) = try tables()
        let query = try unkeyedQuery(edges, small, keyed)
        // Since the forty-ninth session `self-operand-folding` folds the query's self-operand
        // with its select, and nothing is read; off, the class stands as it was.
        XCTAssertEqual(try totalRead(query, [edges, small, keyed]), 0)
        let unfolded = ["self-operand-folding"]
        // `small`'s 2 rows; `keyed` then delivers none (its keys miss `small`'s).
        XCTAssertEqual(try totalRead(query, [edges, small, keyed], disable: unfolded), 2)
        // `keyed`'s keys and `small`'s share no value by their ranges, so
        // `provably-empty-first` drains `small` first for the disjoint join too
        // (forty-fourth session): off for the comparison.
        XCTAssertEqual(try totalRead(query, [edges, small, keyed], disable: unfolded + ["provably-empty-first"]), 2)
        XCTAssertEqual(try totalRead(query, [edges, small, keyed], disable: unfolded + ["filter-aware-ordering", "provably-empty-first"]), 41)
    }

    /// `edges(b, d)` indexed on `d`: `137 -> 0`, a chain `0 -> 1 -> … -> 40` and 200
    /// unrelated edges; `small(a)`: two rows; `keyed(a, b)`: ten rows whose `a` miss
    /// `small`'s.
    private func tables() throws -> (edges: MemoryTable, small: MemoryTable, keyed: MemoryTable) {
        var rows: [[Value]] = [[.integer(0), .integer(137)]]
        rows += (0..<40).map { [.integer($0 + 1), .integer($0)] }
        rows += (0..<200).map { [.integer(2000 + $0), .integer(1000 + $0)] }
        let edges = try MemoryTable(name: "edges", columns: ["b", "d"], rows: rows, indexedAttributes: ["d"])
        let small = try MemoryTable(name: "small", columns: ["a"], rows: [[.integer(60)], [.integer(123)]])
        let keyed = try MemoryTable(name: "keyed", columns: ["a", "b"],
                                    rows: (0..<10).map { [.integer(500 + $0), .integer($0)] })
        return (edges, small, keyed)
    }

    private func unkeyedQuery(_ edges: MemoryTable, _ small: MemoryTable, _ keyed: MemoryTable) throws -> Relation {
        let searched = try Relation(source: edges).closure("d", "b").select("d" *== 137).project(["b"])
        let empty = try searched.intersection(searched.select("b" *>= 0)).difference(searched)
        return try Relation(source: keyed).join(Relation(source: small)).join(empty)
    }
}
