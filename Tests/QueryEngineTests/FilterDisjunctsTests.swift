import XCTest
import Relational
@testable import QueryEngine

/// Several parents' filters OR together on one node; IN-sets over the same attributes
/// merge into their union, repeats are kept once.
final class FilterDisjunctsTests: XCTestCase {
    private func keys(_ values: [Value]) -> Set<Row> { Set(values.map { Row([$0]) }) }

    func testInSetsOverTheSameAttributesMerge() {
        var d = FilterDisjuncts()
        XCTAssertTrue(d.add(.inSet(attributes: ["id"], keys: keys([1, 2]))))
        XCTAssertTrue(d.add(.inSet(attributes: ["id"], keys: keys([2, 3]))))
        XCTAssertFalse(d.add(.inSet(attributes: ["id"], keys: keys([3]))), "a subset adds nothing")
        XCTAssertTrue(d.add(.inSet(attributes: ["parent_id"], keys: keys([1]))))
        XCTAssertTrue(d.add(.any(["name" *== "x", .inSet(attributes: ["id"], keys: keys([4]))])))
        XCTAssertFalse(d.add("name" *== "x"), "a repeated disjunct adds nothing")
        XCTAssertEqual(d.predicate, .or([
            .inSet(attributes: ["id"], keys: keys([1, 2, 3, 4])),
            .inSet(attributes: ["parent_id"], keys: keys([1])),
            "name" *== "x",
        ]))
        XCTAssertTrue(d.add(.inSet(attributes: ["id"], keys: keys([1, 2]))) == false, "old sets stay known")
    }
}
