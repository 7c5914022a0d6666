import XCTest
import Relational
@testable import Experiments

final class ResultHashTests: XCTestCase {
    func testOrderDoesNotMatterAndIntegralRealsHashLikeIntegers() {
        let a: [[Row]] = [[Row([1, "x", .null]), Row([3, "y", 2])]]
        let b: [[Row]] = [[Row([3.0, "y", 2.0]), Row([1, "x", .null])]]
        XCTAssertEqual(ResultHash.of(a), ResultHash.of(b))
        XCTAssertEqual(ResultHash.of([[Row([-0.0])]]), ResultHash.of([[Row([0])]]))
    }

    func testDifferentResultsHashDifferently() {
        let base: [[Row]] = [[Row([1, "x"])]]
        XCTAssertNotEqual(ResultHash.of(base), ResultHash.of([[Row([1, "y"])]]))
        XCTAssertNotEqual(ResultHash.of(base), ResultHash.of([[Row([1.5, "x"])]]))
        XCTAssertNotEqual(ResultHash.of(base), ResultHash.of([[]]))
        XCTAssertNotEqual(ResultHash.of(base), ResultHash.of(base + [[]]), "outputs are kept apart")
        XCTAssertNotEqual(ResultHash.of([[Row(["1"])]]), ResultHash.of([[Row([1])]]), "text is not a number")
        XCTAssertEqual(ResultHash.of(base).count, 16)
    }
}
