import XCTest
@testable import Relational

/// A key set emptied for reuse (`removeAllKeepingCapacity`, what a join table kept across
/// the runs of a prepared query does) behaves as a fresh one: nothing found, numbers given
/// from 0 again, integer and byte keys alike.
final class EncodedKeySetTests: XCTestCase {
    private func encoded(_ values: [Value]) -> KeyEncoder {
        let encoder = KeyEncoder()
        for value in values { encoder.append(value) }
        return encoder
    }

    func testEmptiedSetIsLikeAFreshOne() {
        var set = EncodedKeySet()
        for i in 0..<100 { set.insert(integer: Int64(i)) }
        set.insert(encoded([.text("a"), .integer(1)]))
        XCTAssertEqual(set.count, 101)

        set.removeAllKeepingCapacity()
        XCTAssertEqual(set.count, 0)
        XCTAssertNil(set.find(integer: 5))
        XCTAssertNil(set.find(encoded([.text("a"), .integer(1)])))
        XCTAssertTrue(set.allValues.isEmpty)

        XCTAssertEqual(set.insert(integer: 7).ordinal, 0)
        XCTAssertEqual(set.insert(encoded([.text("b")])).ordinal, 1)
        XCTAssertEqual(set.insert(integer: 7).inserted, false)
        XCTAssertEqual(set.find(integer: 7), 0)
        XCTAssertNil(set.find(integer: 5))
        XCTAssertEqual(set.allValues.count, 2)
    }
}
