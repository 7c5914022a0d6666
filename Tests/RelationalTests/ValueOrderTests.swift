import XCTest
@testable import Relational

final class ValueOrderTests: XCTestCase {
    func testNullIsAnOrdinaryValueOrderedFirst() {
        XCTAssertEqual(Value.null, Value.null)
        XCTAssertLessThan(Value.null, Value.integer(Int64.min))
        XCTAssertLessThan(Value.integer(5), Value.text(""))
        XCTAssertLessThan(Value.text("zzz"), Value.blob([]))
    }

    func testIntegersAndRealsCompareNumericallyAndHashAlike() {
        XCTAssertEqual(Value.integer(3), Value.real(3.0))
        XCTAssertEqual(Value.integer(3).hashValue, Value.real(3.0).hashValue)
        XCTAssertLessThan(Value.integer(3), Value.real(3.5))
        XCTAssertLessThan(Value.real(-0.5), Value.integer(0))
        XCTAssertLessThan(Value.integer(Int64.max), Value.real(1e19))
        XCTAssertEqual(Set([Value.integer(1), .real(1.0), .real(-0.0), .integer(0)]).count, 2)
    }

    func testTextComparesByUTF8Bytes() {
        // Precomposed é (C3 A9) and decomposed e + ◌́ (65 CC 81) are different values.
        XCTAssertNotEqual(Value.text("\u{e9}"), Value.text("e\u{301}"))
        XCTAssertLessThan(Value.text("B"), Value.text("a"))
        XCTAssertLessThan(Value.text("ab"), Value.text("abc"))
    }
}
