import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, fourteenth round: with `select-pushdown` a select's predicate reaches a shared
/// join first, so a join's key filter arriving later narrows that edge AND-ed with it. When
/// the predicate reads both sides of the shared join (`b > d`, an OR with `c < d`), the
/// runner passes the AND to neither side, and `late-subtree-copying`'s walk (the seed's
/// `subtree-copying` one) found no source the keys fetch selectively: no copy, and the keys
/// were lost in the OR with the other parent's filter. Without `select-pushdown` the keys
/// arrive alone and the seed copies. The walk now follows a join side with the part of the
/// filter it reads, as `join-conjunct-pushdown` gives it.
final class HuntClassFourteenthRoundTests: HuntCaseTestCase {
    /// Seed 29 case 1753: `t2 join ((t1 rename [a -> b] join shared select (…)) minus shared)
    /// select (b > d …)`, `shared = t0 join [b = d] t2`, `t0` indexed on `b`, `t2` unindexed.
    /// `t1` (4 rows) is drained first; its keys narrow the inner select's edge into `shared`
    /// AND-ed with `b > d`, which neither side of `shared` reads whole, so no copy was made,
    /// the keys were lost in the OR with the difference's `b > d`, `t0` read all 5 rows, and
    /// `t2`, waiting on the outer join too, all 60. Copied, `t0`'s copy is keyed by the index
    /// and reads nothing, the difference's left side completes empty, and its `false`, with
    /// the outer join's, keeps `t0` and `t2` unread.
    func testAKeyNarrowingAndedWithACrossSideSelectIsCopied() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["b"], rows: [55, 65, 46, 2, 43].map { [.integer($0)] },
                                 indexedAttributes: ["b"])
        let t1 = try MemoryTable(name: "t1", columns: ["a"], rows: [[.real(70.5)], [.null], [.integer(14)], [.integer(30)]],
                                 indexedAttributes: ["a"])
        let t2 = try MemoryTable(name: "t2", columns: ["d"], rows: (0..<60).map { [.integer($0)] })
        let shared = try Relation(source: t0).equijoin(Relation(source: t2), matching: [JoinPair("b", "d")])
        let left = try Relation(source: t1).rename(["a": "b"]).join(shared.select("b" *!= 1_000))
        let bAboveD = Relational.Predicate.comparison(.attribute(Attribute("b")), .greater, .attribute(Attribute("d")))
        let query = try Relation(source: t2).join(left.difference(shared).select(.all([bAboveD, "d" *!= 44])))
        XCTAssertEqual(try totalRead(query, [t0, t1, t2], preset: "seed"), 69)
        XCTAssertEqual(try totalRead(query, [t0, t1, t2], disable: ["select-pushdown"]), 4)
        XCTAssertEqual(try totalRead(query, [t0, t1, t2]), 4)
        // The copy counts on the conjuncts reaching the copy's `t0`: without them it is read
        // in full as well, unless `late-subtree-copying` copies `t0` for a join whose other
        // parent waits on it (the eighteenth session's case 5: 22 rows; 18 since the
        // twenty-ninth session, whose `set-operand-filter` also filters a started operand
        // with a source still to drain).
        XCTAssertEqual(try totalRead(query, [t0, t1, t2], disable: ["join-conjunct-pushdown", "late-subtree-copying"]), 69)
        XCTAssertEqual(try totalRead(query, [t0, t1, t2], disable: ["join-conjunct-pushdown"]), 18)
    }

    /// Seed 38 case 1469: `(shared join t2 intersect shared) select (c < d or b != "")`,
    /// `shared = t1 join [e = c] t3`, `t1` indexed on `d`, `t2` one row. `t2`'s key `d ==
    /// 1000` narrows the outer join's edge into `shared` AND-ed with the select's OR, whose
    /// `c < d` no side of `shared` reads, so the key was lost in the OR with the
    /// intersection's edge and `t1`'s matches of `t3` were read. Copied, `t1`'s copy reads
    /// nothing by its index, the intersection's left side completes empty, and its `false`
    /// keeps `t1` and `t3` unread.
    func testAKeyNarrowingAndedWithACrossSideOrIsCopied() throws {
        let t1 = try MemoryTable(name: "t1", columns: ["b", "d", "e"],
                                 rows: (0..<100).map { [.text("r\($0)"), .integer($0), .integer($0 % 40)] },
                                 indexedAttributes: ["d"])
        let t2 = try MemoryTable(name: "t2", columns: ["d"], rows: [[.integer(1_000)]])
        let t3 = try MemoryTable(name: "t3", columns: ["c"], rows: [[.integer(36)], [.integer(5)]], indexedAttributes: ["c"])
        let shared = try Relation(source: t1).equijoin(Relation(source: t3), matching: [JoinPair("e", "c")])
        let cBelowD = Relational.Predicate.comparison(.attribute(Attribute("c")), .less, .attribute(Attribute("d")))
        let query = try shared.join(Relation(source: t2)).intersection(shared).select(.any([cBelowD, "b" *!= .text("")]))
        XCTAssertEqual(try totalRead(query, [t1, t2, t3], preset: "seed"), 8)
        XCTAssertEqual(try totalRead(query, [t1, t2, t3], disable: ["select-pushdown"]), 1)
        XCTAssertEqual(try totalRead(query, [t1, t2, t3]), 1)
    }

    /// Seed 45 case 973: `(shared2 union shared2 select (e == 70)) join ((t0 minus shared)
    /// select (a > 14 and d > 5)) project [e]`, `shared = t0 select (a < 35)`, `shared2 =
    /// shared join [a = c] t1`, `t1` empty. The outer select made the difference active at
    /// the start, so `shared` had heard from it; `t1`'s `false`, given last, was OR-ed with
    /// the select's range, and `t0` read the range's rows. The difference is active but may
    /// still narrow (the outer join waits on the union): copied, the empty join's side reads
    /// nothing, the union completes empty, and the outer join's `false` reaches `t0` through
    /// the difference.
    func testAnEmptyJoinsFalseGivenLastIsCopiedWhenTheActiveOtherParentMayNarrow() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["a", "d", "e"],
                                 rows: (0..<60).map { [.integer($0), .integer($0 % 10), .integer($0)] }, indexedAttributes: ["e"])
        let t1 = try MemoryTable(name: "t1", columns: ["c"], rows: [])
        let shared = try Relation(source: t0).select("a" *< 35)
        let shared2 = try shared.equijoin(Relation(source: t1), matching: [JoinPair("a", "c")])
        let right = try Relation(source: t0).difference(shared).select(.all(["a" *> 14, "d" *> 5]))
        let query = try shared2.union(shared2.select("e" *== 70)).join(right).project(["e"])
        XCTAssertEqual(try totalRead(query, [t0, t1], preset: "seed"), 47)
        XCTAssertEqual(try totalRead(query, [t0, t1], disable: ["select-pushdown"]), 0)
        XCTAssertEqual(try totalRead(query, [t0, t1]), 0)
    }
}
