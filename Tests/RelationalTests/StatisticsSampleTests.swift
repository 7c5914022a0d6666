import XCTest
@testable import Relational

/// The statistics sample `sampled-estimate-ordering` tests filters on: evenly spaced, built
/// once, kept across queries, rebuilt after any change of rows, and read by no cursor.
final class StatisticsSampleTests: XCTestCase {
    func table(_ n: Int) throws -> MemoryTable {
        try MemoryTable(
            name: "t", columns: ["id", "v"], rows: (0..<n).map { [.integer(Int64($0)), .integer(Int64($0 % 7))] },
            indexedAttributes: ["id"])
    }

    func testASmallTableIsSampledWhole() throws {
        let t = try table(50)
        XCTAssertEqual(Set(t.statisticsSample()), Set(try t.fetchAll(filter: nil)))
    }

    func testALargeTableIsSampledEvenlySpaced() throws {
        let t = try table(1000)
        let sample = t.statisticsSample()
        XCTAssertEqual(sample.count, MemoryTable.statisticsSampleLimit)
        let ids = sample.map { $0[0] }
        XCTAssertEqual(ids.first, .integer(0))
        // Position i * 1000 / 128: the 65th sampled row (i = 64) is row 500.
        XCTAssertEqual(ids[64], .integer(500))
        XCTAssertEqual(Set(ids).count, sample.count)
    }

    func testTheSampleIsBuiltOnceAndReadsNoRows() throws {
        let t = try table(1000)
        t.resetStatistics()
        _ = t.statisticsSample()
        _ = t.statisticsSample()
        XCTAssertEqual(t.statisticsSamplesBuilt, 1)
        XCTAssertEqual(t.rowsExamined, 0)
    }

    func testEveryChangeOfRowsDropsTheSample() throws {
        let t = try table(10)
        _ = t.statisticsSample()
        try t.add([100, 2])
        XCTAssertTrue(t.statisticsSample().contains([100, 2]))
        XCTAssertEqual(t.statisticsSamplesBuilt, 2)
        try t.delete(where: Attribute("id") *== 100)
        XCTAssertFalse(t.statisticsSample().contains([100, 2]))
        XCTAssertEqual(t.statisticsSamplesBuilt, 3)
        t.removeAll()
        XCTAssertEqual(t.statisticsSample(), [])
        try t.add(contentsOf: (0..<40).map { [.integer(Int64($0)), 1] })
        XCTAssertEqual(t.statisticsSample().count, 40)
        XCTAssertEqual(t.statisticsSamplesBuilt, 5)
    }
}
