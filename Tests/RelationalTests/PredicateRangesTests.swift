import XCTest
@testable import Relational

/// `Predicate.mayMatch(within:)` and `MemoryTable.provablyMatchesNothing`: ruling a filter
/// out from each column's lowest and highest value, in the total value order.
final class PredicateRangesTests: XCTestCase {
    /// t(a, b, e): a from 0 to 9, b from 5 to 14, e a number or null, never text.
    private func table() throws -> MemoryTable {
        var rows: [[Value]] = []
        for i in 0..<10 {
            let e: Value = i == 3 ? .null : .real(Double(i) / 2)
            rows.append([.integer(Int64(i)), .integer(Int64(i + 5)), e])
        }
        return try MemoryTable(name: "t", columns: ["a", "b", "e"], rows: rows)
    }

    func testComparisonsOutsideAColumnsRangeMatchNothing() throws {
        let t = try table()
        for ruledOut: Predicate in [Attribute("a") *< 0, Attribute("a") *> 9, Attribute("a") *== 10, Attribute("a") *>= "x",
                                    Attribute("e") *>= "x,y", .comparison(.value(0), .greater, .attribute("a")),
                                    .not(Attribute("a") *<= 9), .comparison(.attribute("a"), .notEqual, .attribute("a")),
                                    .comparison(.attribute("e"), .greater, .attribute("b")),
                                    Attribute("a") *< 0 *&& Attribute("b") *== 7, Attribute("a") *< 0 *|| Attribute("a") *> 20,
                                    .inSet(attributes: ["a"], keys: [Row([20]), Row(["x"])]), .false] {
            XCTAssertTrue(t.provablyMatchesNothing(ruledOut), "\(ruledOut)")
            XCTAssertEqual(try t.fetchAll(filter: ruledOut), [], "\(ruledOut)")
        }
        for possible: Predicate in [Attribute("a") *<= 0, Attribute("a") *== 5, Attribute("e") *== .null, Attribute("e") *< 0,
                                    .not(Attribute("a") *< 9), .comparison(.attribute("a"), .equal, .attribute("b")),
                                    Attribute("a") *< 0 *|| Attribute("b") *== 7, .not(.inSet(attributes: ["a"], keys: [Row([1])])),
                                    .inSet(attributes: ["a"], keys: [Row([20]), Row([9])]), .true] {
            XCTAssertFalse(t.provablyMatchesNothing(possible), "\(possible)")
        }
    }

    /// An AND narrows each attribute by its comparisons with constants before asking the
    /// others (the hunt's case 338): `e < 0` leaves `e` only its null (its numbers start at
    /// 0), and then `a < e` needs an `a` below null. `e <= a` still may hold (null <= 3).
    func testAnAndNarrowsAttributesBeforeComparingThem() throws {
        let t = try table()
        let onlyNull = Attribute("e") *< 0
        let ruledOut: Predicate = .and([.comparison(.attribute("a"), .less, .attribute("e")), .and([Attribute("b") *> 0, onlyNull])])
        XCTAssertTrue(t.provablyMatchesNothing(ruledOut))
        XCTAssertEqual(try t.fetchAll(filter: ruledOut), [])
        let possible: Predicate = .and([onlyNull, .comparison(.attribute("e"), .lessOrEqual, .attribute("a"))])
        XCTAssertFalse(t.provablyMatchesNothing(possible))
        XCTAssertEqual(try t.fetchAll(filter: possible).count, 1)
        for empty: Predicate in [Attribute("a") *>= 4 *&& Attribute("a") *< 4,
                                 Attribute("e") *== .null *&& Attribute("e") *> 1, Attribute("a") *> 2 *&& Attribute("a") *== 1] {
            XCTAssertTrue(t.provablyMatchesNothing(empty), "\(empty)")
        }
        XCTAssertFalse(t.provablyMatchesNothing(Attribute("a") *>= 4 *&& Attribute("a") *<= 4))
    }

    /// Never wrong: over every comparison of each column with constants around its range,
    /// and ANDs, ORs and NOTs of pairs of them, a filter ruled out fetches no row.
    func testRuledOutFiltersFetchNoRow() throws {
        let t = try table()
        let constants: [Value] = [.null, -1, 0, 2.5, 4.5, 9, 14, 15, "x", .blob([1])]
        var leaves: [Predicate] = []
        for a in ["a", "b", "e"] {
            for op in ComparisonOperator.allCases {
                for v in constants { leaves.append(.comparison(.attribute(Attribute(a)), op, .value(v))) }
                leaves.append(.comparison(.attribute(Attribute(a)), op, .attribute(a == "a" ? "b" : "a")))
            }
        }
        var ruledOut = 0
        for (i, p) in leaves.enumerated() {
            let q = leaves[(i * 7 + 3) % leaves.count]
            for f in [p, .and([p, q]), .or([p, q]), .not(p), .not(.and([p, q]))] where t.provablyMatchesNothing(f) {
                ruledOut += 1
                XCTAssertEqual(try t.fetchAll(filter: f), [], "\(f)")
            }
        }
        XCTAssertGreaterThan(ruledOut, 100)
    }

    /// Ruling out is monotone (the hunt's estimate checks ask the same): an AND with a
    /// ruled-out part is ruled out, and a ruled-out OR rules out each part.
    func testRulingOutIsMonotone() throws {
        let t = try table()
        let p = Attribute("a") *> 9, q = Attribute("b") *== 7
        XCTAssertTrue(t.provablyMatchesNothing(.and([p, q])))
        XCTAssertTrue(t.provablyMatchesNothing(.or([p, Attribute("a") *< 0])))
        XCTAssertFalse(t.provablyMatchesNothing(.or([p, q])))
    }

    /// The ranges stay sound bounds through every change to the rows without a pass over
    /// the column: an add widens them, a delete leaves them (still a bound), an update
    /// widens them with its new values, and removing every row resets them (an empty table
    /// matches nothing).
    func testRangesFollowChanges() throws {
        let t = try table()
        let above = Attribute("a") *> 9
        XCTAssertTrue(t.provablyMatchesNothing(above))
        try t.add(Row([20, 0, 0]))
        XCTAssertFalse(t.provablyMatchesNothing(above))
        XCTAssertEqual(try t.delete(where: Attribute("a") *== 20), 1)
        XCTAssertEqual(t.range(ofColumn: 0), ValueRange(lowest: 0, highest: 20))
        XCTAssertFalse(t.provablyMatchesNothing(above), "a bound wider than the rows never rules out a filter wrongly")
        try t.add(Row([.null, 0, 0]))
        XCTAssertEqual(t.range(ofColumn: 0), ValueRange(lowest: .null, highest: 20, lowestNonNull: 0))
        XCTAssertEqual(try t.delete(where: Attribute("a") *== .null), 1)
        XCTAssertEqual(try t.update(where: Attribute("a") *== 9, set: ["a": 30]), 1)
        XCTAssertFalse(t.provablyMatchesNothing(above))
        XCTAssertEqual(t.range(ofColumn: 0), ValueRange(lowest: .null, highest: 30, lowestNonNull: 0))
        t.removeAll()
        XCTAssertNil(t.range(ofColumn: 0))
        XCTAssertTrue(t.provablyMatchesNothing(.true))
    }
}
