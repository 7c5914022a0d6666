import Relational
import XCTest
@testable import QueryEngine

/// Issue 15, forty-fourth session: held-out cases over 4× rebuilt over other data; the
/// hunted repros are kept for `HuntReproTests`.
final class HuntClassFortySeventhRoundTests: HuntCaseTestCase {
    private func table(_ name: String, _ columns: [Attribute], _ rows: [[Value]], indexed: [Attribute] = []) throws -> MemoryTable {
        try MemoryTable(name: name, columns: columns, rows: rows, indexedAttributes: indexed)
    }

    /// `big` 300 rows keyed by numbers (a ninth null), `d` text (a tenth null), six rows
    /// `"A"`; `joinKeys` the keys of a table joined to it by `a`; `one` a single row whose
    /// `e` matches the six by `d`.
    private func disjointJoinTables(joinKeys: [Value]) throws -> (big: MemoryTable, joinKeys: MemoryTable, one: MemoryTable) {
        let big = try table("big", ["a", "c", "d"], (0..<300).map { (i: Int) -> [Value] in
            [i % 9 == 0 ? .null : .integer(Int64(i % 76)), .integer(Int64(i * 7 % 76)),
             i % 10 == 0 ? .null : .text(i % 47 == 0 ? "A" : "k\(i % 31)")] })
        let keys = try table("keys", ["a"], joinKeys.map { [$0] }, indexed: ["a"])
        let one = try table("one", ["e"], [["A"]], indexed: ["e"])
        return (big, keys, one)
    }

    /// Held-out 607/811: `t2 join (t2 join t1) join [d = e] t0`. `t0`'s one row went first
    /// (the smallest estimate) and its key read the rows of `t2` it matches; `t1`'s keys,
    /// text against `t2`'s numbers, match none of them, which the two columns' value ranges
    /// show before anything is read. Drained first, `t1` filters `t2` to nothing and the
    /// whole join is empty: only its rows are read. So with numbers above the other
    /// column's highest.
    func testASideWhoseKeysLieOutsideItsJoinPartnersRangeGoesFirst() throws {
        for joinKeys: [Value] in [["x1", "x2"], [500, 501]] {
            let (big, keys, one) = try disjointJoinTables(joinKeys: joinKeys)
            let query = try Relation(source: big).join(Relation(source: big).join(Relation(source: keys)))
                .equijoin(Relation(source: one), matching: [JoinPair("d", "e")])
            XCTAssertEqual(try totalRead(query, [big, keys, one]), 2, "\(joinKeys)")
            XCTAssertEqual(try totalRead(query, [big, keys, one], disable: ["provably-empty-first"]), 7, "\(joinKeys)")
        }
    }

    /// Ranges that overlap tell nothing (a key inside the range may match): the smallest
    /// source still goes first.
    func testOverlappingRangesLeaveTheOrderAlone() throws {
        let (big, keys, one) = try disjointJoinTables(joinKeys: [5, 500])
        let query = try Relation(source: big).join(Relation(source: big).join(Relation(source: keys)))
            .equijoin(Relation(source: one), matching: [JoinPair("d", "e")])
        XCTAssertEqual(try totalRead(query, [big, keys, one]),
                       try totalRead(query, [big, keys, one], disable: ["provably-empty-first"]))
    }

    /// A side that empties its join but is more than twice the smallest candidate is left to
    /// the ordering: drained first it would read its own rows, which the smallest one's
    /// filter may leave unread. After `one`'s row the smallest by estimate is the 40 keys
    /// (`big` unindexed, estimated whole), but `big` under `d == "A"` is sampled at six:
    /// sized by the sample, the keys wait.
    func testALargeSideThatEmptiesItsJoinIsNotDrainedFirst() throws {
        let (big, keys, one) = try disjointJoinTables(joinKeys: (0..<40).map { .text("x\($0)") })
        let query = try Relation(source: big).join(Relation(source: big).join(Relation(source: keys)))
            .equijoin(Relation(source: one), matching: [JoinPair("d", "e")])
        XCTAssertEqual(try totalRead(query, [big, keys, one]),
                       try totalRead(query, [big, keys, one], disable: ["provably-empty-first"]))
    }

    /// Corpus 305/1716 (default rows): `(t2 join t1) select (d >= 43)` beside `output t1
    /// project [a, e]`, `t1`'s `e` text and `t2`'s numbers. `t1` is read whole for the other
    /// output in any order, so it goes first and its keys empty `t2` for free; draining `t2`
    /// first for the disjoint join read both tables (10 rows against 5), and so does the
    /// smallest-estimate ordering here, `t2` drained first by declaration order on a tie.
    func testASideWhosePartnerAnOutputReadsWholeLeavesItToThePartner() throws {
        let t1 = try table("t1", ["a", "d", "e"], (0..<6).map { (i: Int) -> [Value] in
            [.integer(Int64(i * 40)), .integer(Int64(50 + i * 30)), .text("k\(i * 17)")] }, indexed: ["d"])
        let t2 = try table("t2", ["c", "e"], (0..<6).map { (i: Int) -> [Value] in
            [.integer(Int64(i * 3)), i == 5 ? .null : .integer(Int64(100 + i * 29))] }, indexed: ["c"])
        let query = try Relation(source: t2).join(Relation(source: t1)).select("d" *>= 43)
        let whole = try Relation(source: t1).project(["a", "e"])
        XCTAssertEqual(try totalRead(query, [t1, t2], alsoOutput: [whole]), 6)
        XCTAssertEqual(try totalRead(query, [t1, t2], disable: ["provably-empty-first"], alsoOutput: [whole]), 12)
    }

    /// Ranges compare in the total value order, where null is the lowest value and equals
    /// null, and text sorts after every number.
    func testValueRangesOverlapInTheTotalValueOrder() {
        XCTAssertTrue(ValueRange(lowest: 1, highest: 5).overlaps(ValueRange(lowest: 5, highest: 9)))
        XCTAssertFalse(ValueRange(lowest: 1, highest: 5).overlaps(ValueRange(lowest: 6, highest: 9)))
        XCTAssertFalse(ValueRange(lowest: 1, highest: 5).overlaps(ValueRange(lowest: "a", highest: "z")))
        XCTAssertTrue(ValueRange(lowest: .null, highest: 5, lowestNonNull: 1).overlaps(ValueRange(lowest: .null, highest: .null)))
        XCTAssertFalse(ValueRange(lowest: 1, highest: 5).overlaps(ValueRange(lowest: .null, highest: .null)))
    }
}
