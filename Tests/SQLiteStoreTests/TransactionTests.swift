import XCTest
import Relational
@testable import SQLiteStore

/// Mutations run in transactions: a failing batch changes nothing.
final class TransactionTests: XCTestCase {
    private func table() throws -> (SQLiteDatabase, SQLiteTable) {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("pets", scheme: try scheme("id", "name"), primaryKey: ["id"])
        try t.add([Row([1, "cat"]), Row([2, "dog"])])
        return (db, t)
    }

    func testFailingBatchLeavesTableUnchanged() throws {
        let (_, t) = try table()
        let before = Set(try t.allRows())
        // The third row clashes with id 1: none of the batch may stay.
        assertSQLiteError(["table 'pets' already has a row with primary key (id = 1)"], kind: .constraint) {
            try t.add([Row([3, "fish"]), Row([4, "owl"]), Row([1, "cow"])])
        }
        XCTAssertEqual(Set(try t.allRows()), before)
        // A row of the wrong width in a bulk load: same.
        XCTAssertThrowsError(try t.bulkLoad([Row([5, "emu"]), Row([6])], assumeUnique: true))
        XCTAssertEqual(Set(try t.allRows()), before)
        // A repeated key under assumeUnique fails in SQLite itself, and rolls back too.
        assertSQLiteError(["UNIQUE constraint failed"], kind: .constraint) {
            try t.bulkLoad([Row([7, "yak"]), Row([2, "dog2"])], assumeUnique: true)
        }
        XCTAssertEqual(Set(try t.allRows()), before)
        // An update that would clash rolls back.
        assertSQLiteError(["primary key (id = 2)"], kind: .constraint) { try t.update(where: "id" *== 1, set: ["id": 2]) }
        XCTAssertEqual(Set(try t.allRows()), before)
    }

    func testExplicitTransactionRollsBackEverything() throws {
        let (db, t) = try table()
        struct Stop: Error {}
        XCTAssertThrowsError(try db.transaction {
            try t.add(Row([3, "fish"]))
            try t.delete(where: "id" *== 1)
            try t.update(where: "id" *== 2, set: ["name": "wolf"])
            try db.transaction { try t.add(Row([9, "nested"])) }  // nested: a savepoint
            throw Stop()
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertEqual(Set(try t.allRows()), [Row([1, "cat"]), Row([2, "dog"])])
        XCTAssertFalse(db.isInTransaction)
        // And a successful one commits.
        try db.transaction { try t.add(Row([3, "fish"])) }
        XCTAssertEqual(try t.count(), 3)
    }

    func testSetSemanticsOfAddUpdateDelete() throws {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("s", scheme: try scheme("a", "b"))   // the whole row is the key
        XCTAssertEqual(try t.add([Row([1, "x"]), Row([1, "x"]), Row([1.0, "x"]), Row([2, "x"])]), 2)
        // Updating b on both rows keeps them distinct; setting a makes them equal: one remains.
        XCTAssertEqual(try t.update(where: .true, set: ["b": "y"]), 2)
        XCTAssertEqual(try t.update(where: .true, set: ["a": 5]), 2)
        XCTAssertEqual(try t.allRows(), [Row([5, "y"])])
        XCTAssertEqual(try t.delete(where: "a" *== 5.0), 1)
        XCTAssertEqual(try t.count(), 0)
    }
}
