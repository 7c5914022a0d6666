import XCTest
import Relational
@testable import SQLiteStore

/// Null is a value: equal to itself, smallest in the order, a fine key. SQLite agrees with
/// memory tables and the reference evaluator, through cursors and through the translator.
final class NullSemanticsTests: XCTestCase {
    private let people: [[Value]] = [
        [1, "Ann", nil], [2, "Bob", 1], [3, nil, 1], [4, "Dee", nil], [5, nil, 2],
    ]

    private func tables() throws -> (SQLiteDatabase, SQLiteTable, MemoryTable) {
        let db = try SQLiteDatabase.inMemory()
        let s = try scheme("id", "name", "parent_id")
        let sql = try db.createTable("people", scheme: s, primaryKey: ["id"], indexes: [["parent_id"], ["name"]])
        let memory = try MemoryTable(name: "people", scheme: s, indexedAttributes: ["parent_id", "name"])
        for values in people {
            // Scheme order is id, name, parent_id: the literal rows are written in that order.
            try sql.add(Row(values))
            try memory.add(Row(values))
        }
        return (db, sql, memory)
    }

    func testSelectWithNullEqualityAndOrdering() throws {
        let (db, sql, memory) = try tables()
        let predicates: [Predicate] = [
            "parent_id" *== nil, "parent_id" *!= nil, "name" *== nil,
            "parent_id" *< 2, "parent_id" *<= nil, "parent_id" *> nil, "parent_id" *>= nil,
            "parent_id" *< nil, .not("parent_id" *> 1), "name" *< "Bob",
            .any(["parent_id" *== nil, "parent_id" *== 2]), .not(.any(["name" *== nil, "name" *== "Ann"])),
            .comparison(.attribute("name"), .lessOrEqual, .attribute("parent_id")),
            .comparison(.attribute("parent_id"), .equal, .attribute("name")),
        ]
        for p in predicates {
            let expected = Set(try memory.fetchAll(filter: p))
            XCTAssertEqual(rowSet(try sql.fetchAll(filter: p)), expected, "cursor: \(p)")
            let viaSQL = try db.evaluate(try Relation(source: sql).select(p))
            XCTAssertEqual(rowSet(viaSQL), expected, "translator: \(p)")
        }
        XCTAssertEqual(Set(try sql.fetchAll(filter: "parent_id" *== nil).map { $0[0] }), [1, 4])
        XCTAssertEqual(try sql.fetchAll(filter: "parent_id" *< nil), [])
        XCTAssertEqual(try sql.fetchAll(filter: "parent_id" *>= nil).count, 5)
    }

    /// A join on a column holding nulls matches null with null, in SQLite as in memory.
    func testJoinMatchesNullWithNull() throws {
        let (db, sql, memory) = try tables()
        func query(_ source: any SourceRelation) throws -> Relation {
            let parents = try Relation(source: source).project(["parent_id"])
            return try Relation(source: source).rename(["id": "other"]).join(parents)
        }
        let expected = rowSet(try query(memory).rows())
        XCTAssertEqual(rowSet(try db.evaluate(try query(sql))), expected)
        // Rows with null parent_id join the null in the projection.
        XCTAssertTrue(expected.contains(Row(["Ann", 1, nil])), "\(expected)")
        XCTAssertEqual(expected.count, 5)
    }

    /// Nulls in key and indexed columns: a null key is a key like any other, so a second row
    /// with a null key and different values is a conflict, and an equal row is not added twice.
    func testNullsInKeysAndIndexes() throws {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("t", scheme: try scheme("k", "v"), primaryKey: ["k"], indexes: [["v"]])
        XCTAssertTrue(try t.add(Row([nil, "x"])))
        XCTAssertFalse(try t.add(Row([nil, "x"])))
        assertSQLiteError(["primary key", "k = null"], kind: .constraint) { try t.add(Row([nil, "y"])) }
        XCTAssertEqual(try t.count(), 1)
        try t.add([Row([1, nil]), Row([2, nil])])
        XCTAssertEqual(Set(try t.fetchAll(filter: "v" *== nil)), [Row([1, nil]), Row([2, nil])])
        XCTAssertTrue(t.canFetchSelectively("v" *== nil))
        XCTAssertEqual(t.estimatedCount(filter: "v" *== nil), 2)
        // A table with the whole row as key also treats equal null-holding rows as one.
        let whole = try db.createTable("w", scheme: try scheme("a", "b"))
        XCTAssertEqual(try whole.add([Row([nil, nil]), Row([nil, nil]), Row([nil, 1]), Row([1.0, nil]), Row([1, nil])]), 3)
    }
}
