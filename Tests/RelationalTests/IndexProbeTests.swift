import XCTest
@testable import Relational

/// `MemoryTable.probeIndex`, an estimate's look through an index: the rows of the asked
/// values' index groups when they are few enough, nil otherwise, and no cursor's read.
final class IndexProbeTests: XCTestCase {
    private func table() throws -> MemoryTable {
        try MemoryTable(
            name: "t", columns: ["id", "v"], rows: (0..<1000).map { [.integer(Int64($0)), .integer(Int64($0 % 7))] },
            indexedAttributes: ["v"])
    }

    func testTheProbeReturnsTheRowsOfTheAskedGroups() throws {
        let t = try table()
        let rows = try XCTUnwrap(t.probeIndex("v", values: [3, 8.0], limit: 200))
        XCTAssertEqual(Set(rows), Set(try t.fetchAll(filter: "v" *== 3)))
        // 3.0 finds 3 (one equality for integers and reals); 8 is no row's value.
        XCTAssertEqual(try XCTUnwrap(t.probeIndex("v", values: [3.0], limit: 200)).count, 143)
        XCTAssertEqual(try XCTUnwrap(t.probeIndex("v", values: [8], limit: 0)), [])
    }

    func testTheProbeGivesUpAboveItsLimitOrWithoutAnIndex() throws {
        let t = try table()
        XCTAssertNil(t.probeIndex("v", values: [3], limit: 142))
        XCTAssertNotNil(t.probeIndex("v", values: [3], limit: 143))
        XCTAssertNil(t.probeIndex("id", values: [3], limit: 1000))
    }

    func testTheProbeIsNotARead() throws {
        let t = try table()
        t.resetStatistics()
        _ = t.probeIndex("v", values: [1, 2], limit: 1000)
        XCTAssertEqual(t.rowsExamined, 0)
        XCTAssertEqual(t.rowsDelivered, 0)
    }
}
