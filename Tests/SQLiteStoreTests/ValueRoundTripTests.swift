import XCTest
import Relational
@testable import SQLiteStore

final class ValueRoundTripTests: XCTestCase {
    /// Columns have no affinity, so every value comes back with its own storage class.
    func testValuesComeBackExactlyAsStored() throws {
        let db = try SQLiteDatabase.inMemory()
        let table = try db.createTable("t", scheme: try scheme("id", "v"), primaryKey: ["id"])
        let values: [Value] = [
            .null, 0, -7, .integer(.max), .integer(.min), 3.0, -0.5, 1e300, .real(-.infinity),
            "", "007", "3", "héllo ✓", "a\u{0}b", .blob([]), .blob([0, 255, 39]),
        ]
        for (i, v) in values.enumerated() { try table.add(Row([.integer(Int64(i)), v])) }
        let back = try table.fetchAll().sorted()
        XCTAssertEqual(back.count, values.count)
        for row in back {
            guard case let .integer(i) = row[0] else { return XCTFail("bad id \(row)") }
            let expected = values[Int(i)]
            XCTAssertEqual(row[1].typeName, expected.typeName, "value \(expected) changed class to \(row[1])")
            XCTAssertEqual(row[1], expected)
            if case let .text(s) = expected { XCTAssertEqual(row[1], .text(s)); XCTAssertEqual(row[1].description, expected.description) }
        }
    }

    /// NaN would become NULL in SQLite; it is refused with a clear error instead.
    func testNaNIsRefused() throws {
        let db = try SQLiteDatabase.inMemory()
        let table = try db.createTable("t", scheme: try scheme("v"))
        assertSQLiteError(["NaN"], kind: .unsupportedValue) { try table.add(Row([.real(.nan)])) }
        XCTAssertEqual(try table.count(), 0)
    }

    /// SQLite's comparison of every pair of these values agrees with `Value.compare`, including
    /// integers against reals near 2^53 and 2^63, across storage classes, and for prefixes.
    func testSQLiteOrderMatchesValueOrder() throws {
        let db = try SQLiteDatabase.inMemory()
        let values: [Value] = [
            .null, .integer(.min), -3, -2.5, .real(-0.0), 0, 0.5, 1, 1.0, 3, 3.0,
            9_007_199_254_740_992, 9_007_199_254_740_993, 9_007_199_254_740_992.0,
            .integer(.max), 9_223_372_036_854_775_807.0, .real(.infinity), .real(-.infinity),
            "", "A", "a", "a\u{0}", "ab", "é", "Z", .blob([]), .blob([0]), .blob([0, 1]), .blob([1]),
        ]
        let table = try db.createTable("v", scheme: try scheme("x", "y"))
        for a in values { for b in values { try table.add(Row([a, b])) } }
        for op in ComparisonOperator.allCases {
            let predicate = Predicate.comparison(.attribute("x"), op, .attribute("y"))
            let fromSQLite = rowSet(try table.fetchAll(filter: predicate))
            let test = try CompiledPredicate(predicate, scheme: table.scheme)
            let expected = Set(try table.allRows().filter { test.matches($0) })
            XCTAssertEqual(fromSQLite, expected, "operator \(op.rawValue)")
            // The same comparisons with one side a bound constant.
            for v in values {
                for p in [Predicate.comparison(.attribute("x"), op, .value(v)),
                          Predicate.comparison(.value(v), op, .attribute("x"))] {
                    let got = Set(try table.fetchAll(filter: p))
                    let check = try CompiledPredicate(p, scheme: table.scheme)
                    XCTAssertEqual(got, Set(try table.allRows().filter { check.matches($0) }), "\(p)")
                }
            }
        }
    }
}
