import XCTest
@testable import Relational

final class MemoryTableTests: XCTestCase {
    /// documents(id, name, parent_id): 1010 rows; ids 0..<1000 have parent_id = id % 10 and
    /// ids 1000..<1010 are roots with a null parent. Indexed on id and parent_id.
    func documents() throws -> MemoryTable {
        let rows: [[Value]] = (0..<1010).map { i in
            [.integer(Int64(i)), .text("doc\(i)"), i >= 1000 ? .null : .integer(Int64(i % 10))]
        }
        return try MemoryTable(
            name: "documents", columns: ["id", "name", "parent_id"], rows: rows,
            indexedAttributes: ["id", "parent_id"])
    }

    func fetch(_ table: MemoryTable, _ filter: Predicate?) throws -> [Row] {
        table.resetStatistics()
        return try table.fetchAll(filter: filter)
    }

    // MARK: Selective fetch

    func testIndexedEqualityExaminesOnlyTheMatchingRow() throws {
        let table = try documents()
        let rows = try fetch(table, Attribute("id") *== 5)
        XCTAssertEqual(rows, [[5, "doc5", 5]])
        XCTAssertEqual(table.rowsExamined, 1)
        XCTAssertEqual(table.rowsDelivered, 1)
    }

    func testOrOfEqualitiesExaminesOnlyTheMatchingRows() throws {
        let table = try documents()
        let filter = Attribute("id") *== 5 *|| Attribute("id") *== 700 *|| Attribute("id") *== 5000
        let rows = try fetch(table, filter)
        XCTAssertEqual(Set(rows), [[5, "doc5", 5], [700, "doc700", 0]])
        XCTAssertEqual(table.rowsExamined, 2)
        XCTAssertEqual(table.rowsDelivered, 2)
    }

    func testAConjunctThatIsNotIndexedIsTestedOnTheIndexedCandidates() throws {
        let table = try documents()
        let rows = try fetch(table, Attribute("parent_id") *== 3 *&& Attribute("name") *>= "doc5")
        // Names compare by bytes: doc53...doc93 (5 rows) and doc503...doc993 (50 rows).
        XCTAssertEqual(rows.count, 55)
        XCTAssertEqual(table.rowsExamined, 100, "only the parent_id == 3 bucket")
        XCTAssertEqual(table.rowsDelivered, 55)
    }

    func testTheSmallerIndexBucketIsUsed() throws {
        let table = try documents()
        let rows = try fetch(table, Attribute("parent_id") *== 7 *&& Attribute("id") *== 17)
        XCTAssertEqual(rows, [[17, "doc17", 7]])
        XCTAssertEqual(table.rowsExamined, 1)
    }

    func testNullIsLookedUpThroughTheIndexLikeAnyValue() throws {
        let table = try documents()
        let roots = try fetch(table, Attribute("parent_id") *== nil)
        XCTAssertEqual(roots.count, 10)
        XCTAssertEqual(table.rowsExamined, 10)
    }

    func testIndexLookupOfARealFindsTheEqualInteger() throws {
        let table = try documents()
        XCTAssertEqual(try fetch(table, Attribute("id") *== 42.0), [[42, "doc42", 2]])
        XCTAssertEqual(table.rowsExamined, 1)
        XCTAssertEqual(try fetch(table, Attribute("id") *== 42.5), [])
        XCTAssertEqual(table.rowsExamined, 0)
    }

    func testAFilterNoIndexAnswersScansEveryRow() throws {
        let table = try documents()
        XCTAssertEqual(try fetch(table, Attribute("name") *== "doc5"), [[5, "doc5", 5]])
        XCTAssertEqual(table.rowsExamined, 1010)
        XCTAssertEqual(table.rowsDelivered, 1)
        // A range on an indexed attribute is not an equality: also a scan.
        XCTAssertEqual(try fetch(table, Attribute("id") *< 3).count, 3)
        XCTAssertEqual(table.rowsExamined, 1010)
        // An OR that does not constrain the indexed attribute in every branch: a scan.
        XCTAssertEqual(try fetch(table, Attribute("id") *== 3 *|| Attribute("name") *== "doc4").count, 2)
        XCTAssertEqual(table.rowsExamined, 1010)
        // No filter at all.
        XCTAssertEqual(try fetch(table, nil).count, 1010)
        XCTAssertEqual(table.rowsExamined, 1010)
        XCTAssertEqual(table.rowsDelivered, 1010)
    }

    func testAnUnsatisfiableFilterExaminesNothing() throws {
        let table = try documents()
        XCTAssertEqual(try fetch(table, .false), [])
        XCTAssertEqual(table.rowsExamined, 0)
        XCTAssertEqual(try fetch(table, Attribute("id") *== 1 *&& Attribute("id") *== 2), [])
        XCTAssertEqual(table.rowsExamined, 0)
    }

    func testCursorsDeliverInBatchesAndStopWhenDrained() throws {
        let table = try documents()
        let cursor = try table.makeCursor(filter: Attribute("parent_id") *== 1)
        var batches: [Int] = []
        while true {
            let batch = try cursor.next(maxRows: 30)
            if batch.isEmpty { break }
            batches.append(batch.count)
        }
        XCTAssertEqual(batches, [30, 30, 30, 10])
    }

    func testLookup() throws {
        let table = try documents()
        table.resetStatistics()
        XCTAssertEqual(try table.lookup("id", 999), [[999, "doc999", 9]])
        XCTAssertEqual(try table.lookup("id", 5000), [])
        XCTAssertEqual(table.rowsExamined, 1)
        assertRelationError("table documents has no index on 'name'") { try table.lookup("name", "doc1") }
    }

    // MARK: Estimates

    func testEstimates() throws {
        let table = try documents()
        XCTAssertEqual(table.estimatedCount(filter: nil), 1010)
        XCTAssertEqual(table.estimatedCount(filter: Attribute("id") *== 5), 1)
        XCTAssertEqual(table.estimatedCount(filter: Attribute("id") *== -5), 0)
        XCTAssertEqual(table.estimatedCount(filter: Attribute("parent_id") *== 1 *|| Attribute("parent_id") *== 2), 200)
        XCTAssertEqual(table.estimatedCount(filter: .false), 0)
        // Without an index the estimate is the whole table (an upper bound).
        XCTAssertEqual(table.estimatedCount(filter: Attribute("name") *== "doc1"), 1010)
        XCTAssertTrue(table.canFetchSelectively(Attribute("id") *== 5))
        XCTAssertTrue(table.canFetchSelectively(Attribute("id") *== 5 *&& Attribute("name") *== "x"))
        XCTAssertFalse(table.canFetchSelectively(Attribute("name") *== "doc1"))
        XCTAssertFalse(table.canFetchSelectively(Attribute("id") *> 5))
        // Estimating reads nothing.
        XCTAssertEqual(table.rowsExamined, 0)
    }

    // MARK: Changes

    /// Into an empty table `add(contentsOf:)` loads in bulk: repeated rows are kept once, the
    /// indexes answer lookups as after row-by-row adds, and a row of the wrong width refuses
    /// the whole batch before anything is added.
    func testBulkAddIntoAnEmptyTableKeepsRowsOnceAndIndexesThem() throws {
        let table = try MemoryTable(name: "delta", scheme: try Scheme(["id", "name", "parent_id"]),
                                    indexedAttributes: ["id", "name", "parent_id"])
        let rows: [Row] = (0..<100).map { i in [.integer(Int64(i)), .text("d\(i)"), .integer(Int64(i % 4))] }
        XCTAssertThrowsError(try table.add(contentsOf: rows + [[1, "short"]]))
        XCTAssertEqual(table.count, 0)
        try table.add(contentsOf: rows + rows.prefix(10))
        XCTAssertEqual(table.count, 100)
        XCTAssertEqual(Set(table.allRows), Set(rows))
        XCTAssertEqual(Set(try fetch(table, Attribute("parent_id") *== 3)), Set(rows.filter { $0.values[2] == 3 }))
        XCTAssertEqual(table.rowsExamined, 25)
        XCTAssertFalse(try table.add(rows[7]))
        table.removeAll()
        try table.add(contentsOf: rows.prefix(3))
        XCTAssertEqual(Set(table.allRows), Set(rows.prefix(3)))
    }

    func testAddHasSetSemantics() throws {
        let table = try MemoryTable(name: "t", columns: ["id", "name"], rows: [], indexedAttributes: ["id"])
        XCTAssertTrue(try table.add([1, "a"]))
        XCTAssertFalse(try table.add([1, "a"]))
        XCTAssertFalse(try table.add([1.0, "a"]), "3 and 3.0 are the same value")
        XCTAssertTrue(try table.add([1, "b"]))
        XCTAssertTrue(try table.add([nil, nil]))
        XCTAssertFalse(try table.add([nil, nil]), "null equals null")
        XCTAssertEqual(table.count, 3)
        XCTAssertEqual(try table.lookup("id", 1).count, 2)
        let duplicated = try MemoryTable(name: "d", columns: ["x"], rows: [[1], [1], [2]])
        XCTAssertEqual(duplicated.count, 2)
    }

    func testDeleteKeepsIndexesRight() throws {
        let table = try documents()
        XCTAssertEqual(try table.delete(where: Attribute("id") *== 5), 1)
        XCTAssertEqual(try table.lookup("id", 5), [])
        XCTAssertEqual(try table.lookup("parent_id", 5).count, 99)
        // Deleting moves the last row into the gap; it must still be found, by both indexes.
        XCTAssertEqual(try table.lookup("id", 1009), [[1009, "doc1009", nil]])
        XCTAssertEqual(try table.lookup("parent_id", nil).count, 10)
        XCTAssertEqual(try table.delete(where: Attribute("parent_id") *== 9), 100)
        XCTAssertEqual(try table.lookup("id", 999), [])
        XCTAssertEqual(try table.lookup("parent_id", 9), [])
        XCTAssertEqual(table.count, 909)
        try assertIndexesAgreeWithAScan(table)
        XCTAssertEqual(try table.delete(where: Attribute("id") *== 5), 0)
    }

    func testUpdateKeepsIndexesRight() throws {
        let table = try documents()
        XCTAssertEqual(try table.update(where: Attribute("id") *== 3, set: ["parent_id": 99, "name": "moved"]), 1)
        XCTAssertEqual(try table.lookup("parent_id", 99), [[3, "moved", 99]])
        XCTAssertEqual(try table.lookup("id", 3), [[3, "moved", 99]])
        XCTAssertFalse(try table.lookup("parent_id", 3).contains { $0[0] == 3 })
        XCTAssertEqual(try table.lookup("parent_id", 3).count, 99)
        try assertIndexesAgreeWithAScan(table)
    }

    func testUpdateThatMakesRowsEqualLeavesOne() throws {
        let table = try MemoryTable(name: "t", columns: ["k", "v"], rows: [[1, "a"], [2, "a"], [3, "b"]], indexedAttributes: ["k"])
        XCTAssertEqual(try table.update(where: Attribute("v") *== "a", set: ["k": 0]), 2)
        XCTAssertEqual(Set(table.allRows), [[0, "a"], [3, "b"]])
        XCTAssertEqual(try table.lookup("k", 0), [[0, "a"]])
        try assertIndexesAgreeWithAScan(table)
    }

    func testManyMixedChangesKeepIndexesRight() throws {
        let table = try documents()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for step in 0..<300 {
            switch next(3) {
            case 0: try table.delete(where: Attribute("id") *== .integer(Int64(next(1200))))
            case 1: try table.update(where: Attribute("id") *== .integer(Int64(next(1200))),
                                     set: ["parent_id": next(2) == 0 ? .null : .integer(Int64(next(20)))])
            default: try table.add([.integer(Int64(1000 + step)), "new", .integer(Int64(next(20)))])
            }
        }
        try assertIndexesAgreeWithAScan(table)
    }

    /// For each indexed attribute and every value present (plus one absent), the index
    /// lookup returns exactly the rows a scan finds.
    func assertIndexesAgreeWithAScan(_ table: MemoryTable, file: StaticString = #filePath, line: UInt = #line) throws {
        for attribute in table.indexedAttributes {
            let column = try XCTUnwrap(table.scheme.index(of: attribute))
            var values = Set(table.allRows.map { $0[column] })
            values.insert("absent")
            for value in values {
                let scanned = Set(table.allRows.filter { $0[column] == value })
                let looked = try table.lookup(attribute, value)
                XCTAssertEqual(looked.count, scanned.count, "\(attribute) = \(value)", file: file, line: line)
                XCTAssertEqual(Set(looked), scanned, "\(attribute) = \(value)", file: file, line: line)
            }
        }
        XCTAssertEqual(Set(table.allRows).count, table.count, "no duplicate rows", file: file, line: line)
    }
}
