import XCTest
import Relational
@testable import SQLiteStore

/// Indexed filters are index searches: rows delivered equal the matches and SQLite steps
/// through no full-table scan; an unindexed filter does scan.
final class SelectiveFetchTests: XCTestCase {
    private func documents(rows: Int) throws -> (SQLiteDatabase, SQLiteTable) {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("documents", scheme: try scheme("id", "name", "parent_id"),
                                   primaryKey: ["id"], indexes: [["parent_id"]])
        let generated = (0..<rows).map { i -> Row in
            Row([.integer(Int64(i)), .text("doc \(i)"), i < 10 ? .null : .integer(Int64(i / 10))])
        }
        XCTAssertEqual(try t.bulkLoad(generated, assumeUnique: true), rows)
        return (db, t)
    }

    func testIndexedEqualityAndInFetchDoNotScan() throws {
        let (_, t) = try documents(rows: 5000)
        let cases: [(Predicate, Int)] = [
            ("id" *== 42, 1),
            ("id" *== 4.2e1, 1),                                   // a real equal to the integer key
            ("parent_id" *== 7, 10),
            ("parent_id" *== nil, 10),                             // null through the index
            (.any(["id" *== 1, "id" *== 2, "id" *== 99_999]), 2),   // an IN list
            (.any(["parent_id" *== 3, "parent_id" *== nil]), 20),  // IN list plus IS NULL
            (.and(["parent_id" *== 5, "name" *!= "doc 50"]), 9),   // index plus a residual test
        ]
        for (filter, expected) in cases {
            XCTAssertTrue(t.canFetchSelectively(filter), "\(filter)")
            t.resetStatistics()
            let rows = try t.fetchAll(filter: filter)
            XCTAssertEqual(rows.count, expected, "\(filter)")
            XCTAssertEqual(t.rowsDelivered, expected, "\(filter)")
            XCTAssertEqual(t.fullScanSteps, 0, "\(filter) should be an index search")
        }
    }

    func testUnindexedFilterScans() throws {
        let (_, t) = try documents(rows: 2000)
        let filter: Predicate = "name" *== "doc 7"
        XCTAssertFalse(t.canFetchSelectively(filter))
        t.resetStatistics()
        XCTAssertEqual(try t.fetchAll(filter: filter).count, 1)
        XCTAssertEqual(t.rowsDelivered, 1)
        XCTAssertGreaterThan(t.fullScanSteps, 1000)
        XCTAssertTrue(t.canFetchSelectively(.false))
        XCTAssertEqual(try t.fetchAll(filter: .and(["name" *== "x", .false])), [])
    }

    /// Cursors step lazily: a first batch delivers only that batch.
    func testCursorDeliversInBatches() throws {
        let (_, t) = try documents(rows: 3000)
        t.resetStatistics()
        let cursor = try t.makeCursor(filter: nil)
        XCTAssertEqual(try cursor.next(maxRows: 100).count, 100)
        XCTAssertEqual(t.rowsDelivered, 100)
        var total = 100
        while true {
            let batch = try cursor.next(maxRows: 1000)
            if batch.isEmpty { break }
            total += batch.count
        }
        XCTAssertEqual(total, 3000)
        XCTAssertEqual(try cursor.next(maxRows: 10), [])
    }

    func testEstimates() throws {
        let (db, t) = try documents(rows: 5000)
        XCTAssertEqual(t.estimatedCount(filter: nil), 5000)
        XCTAssertEqual(t.estimatedCount(filter: "parent_id" *== 7), 10)            // exact indexed count
        XCTAssertEqual(t.estimatedCount(filter: .any(["id" *== 1, "id" *== 2])), 2)
        XCTAssertEqual(t.estimatedCount(filter: .false), 0)
        XCTAssertEqual(t.estimatedCount(filter: "name" *== "doc 1"), 5000)          // unindexed: the upper bound
        try db.analyze()
        XCTAssertEqual(t.estimatedCount(filter: "id" *== 3), 1)                      // from sqlite_stat1
        let perParent = try XCTUnwrap(t.estimatedCount(filter: "parent_id" *== 7))
        XCTAssertTrue((1...20).contains(perParent), "\(perParent)")
        // The cached count follows changes, rollbacks included.
        try t.add(Row([100_000, "new", nil]))
        XCTAssertEqual(t.estimatedCount(filter: nil), 5001)
        _ = try? db.transaction { () throws -> Void in
            try t.add(Row([100_001, "new", nil]))
            XCTAssertEqual(t.estimatedCount(filter: nil), 5002)
            throw SQLiteError(.usage, "abandon")
        }
        XCTAssertEqual(t.estimatedCount(filter: nil), 5001)
    }

    /// A filter SQLite will not prepare (sixty nested `not`s overflow its parser's stack, well
    /// inside the query language's limits) was a failed run; it is applied to every row here
    /// instead, and the fetch counts the whole table as delivered, as an unfiltered one does.
    func testAFilterSQLiteWillNotPrepareIsAppliedInProcess() throws {
        let (_, t) = try documents(rows: 200)
        var deep: Predicate = "id" *< 3
        for _ in 0..<60 { deep = .not(deep) }
        t.resetStatistics()
        let rows = try t.fetchAll(filter: deep)
        XCTAssertEqual(Set(rows.map { $0.values[0] }), [.integer(0), .integer(1), .integer(2)])
        XCTAssertEqual(t.rowsDelivered, 200)
        var odd: Predicate = "id" *< 3
        for _ in 0..<61 { odd = .not(odd) }
        XCTAssertEqual(try t.fetchAll(filter: odd).count, 197)
    }
}
