import XCTest
import Relational
@testable import QueryEngine

final class JoinFilterTests: XCTestCase {
    private func things() throws -> MemoryTable {
        try MemoryTable(
            name: "things", columns: ["id", "label"], rows: (1...10).map { [.integer($0), .text("t\($0)")] },
            indexedAttributes: ["id"])
    }

    /// The seed preset: join-filter-pushdown (off there) would filter above the threshold too.
    private func run(_ query: Relation, threshold: String) throws -> QueryRun {
        let flags = try HeuristicCatalog.standard.flagSet(preset: "seed", set: ["join-filter-threshold": threshold])
        return try QueryEngine(flags: flags).run([query])
    }

    func testSmallOperandBecomesAFilterOnTheOther() throws {
        let things = try things()
        let query = try Fixtures.literal("wanted", ["id"], [[4]]).join(Relation(source: things))
        for threshold in ["1", "100", "unlimited"] {
            things.resetStatistics()
            let result = try run(query, threshold: threshold)
            XCTAssertEqual(result.results[0].asSet, [Row([4, "t4"])])
            XCTAssertEqual(things.rowsDelivered, 1, "threshold \(threshold)")
            XCTAssertEqual(result.counters.joinFiltersBuilt, 1)
        }
        things.resetStatistics()
        let off = try run(query, threshold: "0")
        XCTAssertEqual(off.results[0].asSet, [Row([4, "t4"])])
        XCTAssertEqual(things.rowsDelivered, 10)
        XCTAssertEqual(off.counters.joinFiltersBuilt, 0)
    }

    func testOperandLargerThanTheThresholdIsNotTurnedIntoAFilter() throws {
        let things = try things()
        let query = try Fixtures.literal("wanted", ["id"], [[4], [5], [6]]).join(Relation(source: things))
        let result = try run(query, threshold: "2")
        XCTAssertEqual(result.results[0].count, 3)
        XCTAssertEqual(things.rowsDelivered, 10)
    }

    func testFilterIsRenamedOnItsWayThroughARename() throws {
        let things = try things()
        let renamed = try Relation(source: things).rename(["id": "thing_id"])
        let query = try Fixtures.literal("wanted", ["thing_id"], [[7]]).join(renamed)
        let result = try run(query, threshold: "100")
        XCTAssertEqual(result.results[0].asSet, [Row(["t7", 7])])
        XCTAssertEqual(things.rowsDelivered, 1)
        XCTAssertEqual(result.counters.filteredFetches, 1)
    }

    func testEmptyOperandMeansTheOtherSideDeliversNothing() throws {
        let things = try things()
        let query = try Fixtures.literal("wanted", ["id"], []).join(Relation(source: things))
        let result = try run(query, threshold: "100")
        XCTAssertEqual(result.results[0].count, 0)
        XCTAssertEqual(things.rowsDelivered, 0)
    }

    func testNullJoinKeysMatchLikeAnyValue() throws {
        let left = try Fixtures.literal("left", ["k"], [[.null], [1]])
        let right = try MemoryTable(name: "right", columns: ["k", "v"], rows: [[.null, "n"], [1, "one"], [2, "two"]],
                                    indexedAttributes: ["k"])
        let query = try left.join(Relation(source: right))
        let result = try run(query, threshold: "100")
        XCTAssertEqual(result.results[0].asSet, [Row([.null, "n"]), Row([1, "one"])])
        XCTAssertEqual(right.rowsDelivered, 2)
    }
}
