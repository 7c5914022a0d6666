import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, eighteenth round (fifteenth session): the one case over 4× on the held-out hunt
/// seeds 72–73. `filter-aware-ordering` left a source undeferred because its rows are held
/// by a join whose other operand is undrained (`rowsAreHeld`); when that operand is held by
/// it in turn, neither is deferred, the smaller is drained first and whole, and its keys
/// take the other's rows before the filter coming down the pair can narrow either.
final class HuntClassEighteenthRoundTests: HuntCaseTestCase {
    /// Seed 73 case 1264: `shared = t1 join t0`, `shared_2 = shared minus shared join t0`,
    /// output `(shared_2 intersect shared_2 select (28.0 >= a and not (64 > b))) join t2`.
    /// `t0` and `t2` five rows each, `t0` indexed on `a` and `d`; `t1` 147 rows, unindexed,
    /// 21 of them matching `t0`'s keys. `t0` was drained first (a tie with `t2`), whole, and
    /// keyed 21 rows of `t1` (31 rows); drained first, `t2`'s keys find no row of `t0`, and
    /// `shared`'s empty operand gives `t1` `false` (5 rows).
    func testAHeldJoinSideWaitsForAProducingSideNoLargerThanItself() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["a", "b", "d"], rows: [
            [.null, .integer(50), .integer(-1)], [.null, .null, .null], [.integer(31), .integer(5), .integer(1)],
            [.integer(49), .integer(61), .null], [.real(38.0), .integer(56), .integer(3)],
        ], indexedAttributes: ["a", "d"])
        var t1Rows: [[Value]] = (0..<17).map { [.null, .integer($0)] }
        t1Rows += [[.integer(31), .integer(100)], [.integer(31), .integer(101)], [.integer(49), .integer(102)], [.real(38.0), .integer(103)]]
        t1Rows += (0..<126).map { [.integer(200 + $0), .integer($0)] }
        let t1 = try MemoryTable(name: "t1", columns: ["a", "c"], rows: t1Rows)
        let t2 = try MemoryTable(name: "t2", columns: ["b", "d"], rows: [
            [.integer(9), .real(36.0)], [.integer(8), .integer(5)], [.real(17.5), .integer(25)],
            [.integer(16), .integer(59)], [.integer(9), .integer(41)],
        ], indexedAttributes: ["b", "d"])
        let shared = try Relation(source: t1).join(Relation(source: t0))
        let shared2 = try shared.difference(shared.join(Relation(source: t0)))
        let selected = try shared2.select(.and(["a" *<= .real(28.0), .not("b" *< .integer(64))]))
        let query = try shared2.intersection(selected).join(Relation(source: t2))
        let tables = [t0, t1, t2]
        XCTAssertEqual(t1Rows.count, 147)
        // Since the forty-ninth session `self-operand-folding` folds `shared2 intersect (shared2
        // select …)` to the select, and nothing is read; off, the class stands as it was.
        XCTAssertEqual(try totalRead(query, tables), 0)
        let unfolded = ["self-operand-folding"]
        XCTAssertEqual(try totalRead(query, tables, disable: unfolded), 5)
        XCTAssertEqual(try totalRead(query, tables, preset: "seed"), 31)
        XCTAssertEqual(try totalRead(query, tables, disable: unfolded + ["filter-aware-ordering"]), 10, "join-conjunct-pushdown's partBound recovers part")
        XCTAssertEqual(try totalRead(query, tables, disable: unfolded + ["filter-aware-ordering", "join-conjunct-pushdown"]), 31)
    }

    /// Seed 23 case 1655, the rule's limit: `(shared union shared select (c < 45)) join t2`
    /// with `shared = t1 join t0`. `t0` (two rows) is held below `shared` and `t2` (two rows)
    /// produces no more, but `t2`'s key `d` is not `t0`'s: its filter cannot narrow `t0`, so
    /// `t0` is read whole in either order. Deferred, it waited until the filter reached
    /// `shared` from both the union and the select, and subtree copying gave each its own
    /// `t0` and `t1`: 8 rows against 5.
    func testAHeldSideTheFilterCannotNarrowIsNotDeferred() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["b", "c", "e"], rows: [
            [.integer(73), .integer(-1), .integer(35)], [.integer(5), .null, .integer(10)],
        ])
        var t1Rows: [[Value]] = [[.integer(57), .integer(35)], [.null, .integer(35)], [.real(43.0), .real(35.0)],
                                 [.integer(71), .integer(10)], [.integer(24), .integer(10)]]
        t1Rows += (0..<140).map { [.integer($0), .integer(100 + $0)] }
        let t1 = try MemoryTable(name: "t1", columns: ["d", "e"], rows: t1Rows, indexedAttributes: ["d"])
        let t2 = try MemoryTable(name: "t2", columns: ["d"], rows: [[.integer(15)], [.integer(43)]], indexedAttributes: ["d"])
        let shared = try Relation(source: t1).join(Relation(source: t0))
        let query = try shared.union(shared.select("c" *< .integer(45))).join(Relation(source: t2))
        let tables = [t0, t1, t2]
        XCTAssertEqual(try totalRead(query, tables), 5)
        XCTAssertEqual(try totalRead(query, tables, disable: ["filter-aware-ordering"]), 5)
    }
}
