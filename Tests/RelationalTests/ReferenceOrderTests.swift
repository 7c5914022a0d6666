import XCTest
@testable import Relational

/// The oracle's own total order: the documented cases, totality, and agreement with
/// `Value`'s order (two independent implementations of one specification).
final class ReferenceOrderTests: XCTestCase {
    private func sign(_ x: Int) -> Int { x < 0 ? -1 : (x > 0 ? 1 : 0) }

    func testDocumentedOrder() {
        let c = ReferenceOrder.compare as (Value, Value) -> Int
        XCTAssertEqual(c(.null, .null), 0)
        XCTAssertLessThan(c(.null, .integer(Int64.min)), 0)
        XCTAssertLessThan(c(.real(-.infinity), .text("")), 0)
        XCTAssertLessThan(c(.text("zzz"), .blob([])), 0)
        XCTAssertEqual(c(.integer(3), .real(3.0)), 0)
        XCTAssertEqual(c(.real(3.0), .integer(3)), 0)
        XCTAssertEqual(c(.integer(0), .real(-0.0)), 0)
        XCTAssertLessThan(c(.integer(3), .real(3.5)), 0)
        XCTAssertGreaterThan(c(.integer(-3), .real(-3.5)), 0)
        // 2^53 + 1 is not a double: it must not round to the real 2^53.
        XCTAssertGreaterThan(c(.integer(9_007_199_254_740_993), .real(9_007_199_254_740_992.0)), 0)
        XCTAssertLessThan(c(.integer(Int64.max), .real(9_223_372_036_854_775_808.0)), 0)
        XCTAssertEqual(c(.integer(Int64.min), .real(-9_223_372_036_854_775_808.0)), 0)
        XCTAssertLessThan(c(.integer(Int64.max), .real(1e19)), 0)
        XCTAssertLessThan(c(.real(.nan), .real(-.infinity)), 0)
        XCTAssertLessThan(c(.real(.nan), .integer(Int64.min)), 0)
        XCTAssertEqual(c(.real(.nan), .real(.nan)), 0)
        XCTAssertLessThan(c(.text("B"), .text("a")), 0)
        XCTAssertLessThan(c(.text("ab"), .text("abc")), 0)
        XCTAssertNotEqual(c(.text("\u{e9}"), .text("e\u{301}")), 0)
        XCTAssertLessThan(c(.blob([1]), .blob([1, 0])), 0)
        XCTAssertLessThan(c(.blob([0, 9]), .blob([1])), 0)
    }

    /// Values where the two implementations could plausibly part ways.
    private let pool: [Value] = [
        .null, .integer(Int64.min), .integer(-3), .integer(0), .integer(3), .integer(Int64.max),
        .integer(9_007_199_254_740_993), .real(.nan), .real(-.infinity), .real(-3.5), .real(-0.0), .real(0.0),
        .real(3.0), .real(3.5), .real(9_007_199_254_740_992.0), .real(9_223_372_036_854_775_808.0),
        .real(-9_223_372_036_854_775_808.0), .real(.infinity), .text(""), .text("3"), .text("B"), .text("a"),
        .text("\u{e9}"), .text("e\u{301}"), .blob([]), .blob([0]), .blob([0x61]),
    ]

    func testAgreesWithValueOrderAndIsTotal() {
        for a in pool {
            for b in pool {
                let c = ReferenceOrder.compare(a, b)
                XCTAssertEqual(sign(c), sign(Value.compare(a, b)), "\(a) vs \(b)")
                XCTAssertEqual(sign(c), -sign(ReferenceOrder.compare(b, a)), "antisymmetry: \(a) vs \(b)")
                for d in pool where c <= 0 && ReferenceOrder.compare(b, d) <= 0 {
                    XCTAssertLessThanOrEqual(ReferenceOrder.compare(a, d), 0, "transitivity: \(a) ≤ \(b) ≤ \(d)")
                }
            }
        }
    }

    func testSetsWithoutHashing() {
        let rows: [Row] = [[3, "x"], [3.0, "x"], [nil, "x"], [.null, "x"], [2, "y"], [3, "y"]]
        let distinct = ReferenceOrder.sortedDistinct(rows)
        XCTAssertEqual(distinct.count, 4)
        XCTAssertEqual(ReferenceOrder.duplicateCount(sorted: ReferenceOrder.sorted(rows)), 2)
        XCTAssertTrue(ReferenceOrder.contains(distinct, [3.0, "y"]))
        XCTAssertFalse(ReferenceOrder.contains(distinct, [3.5, "y"]))
        XCTAssertTrue(ReferenceOrder.contains(distinct, [nil, "x"]))
    }
}
