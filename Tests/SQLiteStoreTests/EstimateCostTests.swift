import XCTest
import Relational
@testable import SQLiteStore

/// What an estimate costs in SQL: the index names leading with an attribute are read from
/// the schema once per attribute (every estimate used to ask again), so a repeated estimate
/// runs only its indexed count; after `createIndex`, the new index is seen.
final class EstimateCostTests: XCTestCase {
    private func documents() throws -> (SQLiteDatabase, SQLiteTable) {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("documents", scheme: try scheme("id", "name", "parent_id"),
                                   primaryKey: ["id"], indexes: [["parent_id"]])
        let rows = (0..<200).map { i -> Row in
            Row([.integer(Int64(i)), .text("doc \(i % 50)"), i < 10 ? .null : .integer(Int64(i / 10))])
        }
        XCTAssertEqual(try t.bulkLoad(rows, assumeUnique: true), 200)
        return (db, t)
    }

    func testRepeatedEstimateRunsOnlyItsCount() throws {
        let (db, t) = try documents()
        XCTAssertEqual(t.estimatedCount(filter: "parent_id" *== 7), 10)
        let before = db.statementsRun
        XCTAssertEqual(t.estimatedCount(filter: "parent_id" *== 7), 10)
        XCTAssertEqual(db.statementsRun - before, 1, "only the indexed count, not the schema again")
        XCTAssertEqual(t.estimatedCount(filter: .any(["parent_id" *== 7, "parent_id" *== 8])), 20)
        XCTAssertEqual(db.statementsRun - before, 3)
    }

    func testANewIndexIsSeenByLaterEstimates() throws {
        let (db, t) = try documents()
        try db.analyze()
        XCTAssertEqual(t.estimatedCount(filter: "name" *== "doc 3"), 200)   // unindexed: the upper bound
        XCTAssertEqual(t.estimatedCount(filter: "parent_id" *== 7), 10)     // sqlite_stat1 for parent_id
        try t.createIndex(on: ["name"])
        try db.analyze()
        XCTAssertEqual(t.estimatedCount(filter: "name" *== "doc 3"), 4)     // sqlite_stat1 for the new index
    }
}
