import QueryEngine
import Relational
import SQLiteStore
import XCTest

/// SQLite tables in a transactional database: changes land in the file, observers of a
/// join over a memory table and an SQLite table get exact changes, rollback restores both.
final class SQLiteMutableSourceTests: XCTestCase {
    func testTransactionsOverSQLiteAndMemoryTables() throws {
        let sqlite = try SQLiteDatabase.inMemory()
        let table = try sqlite.createTable("fruit", scheme: Scheme(["id", "name"]), primaryKey: ["id"])
        try table.add([Row([1, "Apple"]), Row([2, "Pear"]), Row([3, .null])])
        let fruits = Relation(source: table)
        let picked = Relation(source: try MemoryTable(name: "picked", columns: ["fruit_id"], rows: [[1]]))
        let view = try fruits.equijoin(picked, matching: [JoinPair("id", "fruit_id")])
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        var seen: [RowChange] = []
        try db.observe(view) { seen.append($0) }

        try db.update(fruits, where: Attribute("id") *== 1, set: ["name": "Apples"])
        try db.transaction {
            try db.delete(from: fruits, where: Attribute("name") *== .null)
            try db.update(picked, set: ["fruit_id": 2])
        }
        XCTAssertEqual(seen, [
            RowChange(added: [Row([1, 1, "Apples"])], removed: [Row([1, 1, "Apple"])]),
            RowChange(added: [Row([2, 2, "Pear"])], removed: [Row([1, 1, "Apples"])]),
        ])
        XCTAssertEqual(Set(try table.fetchAll()), [Row([1, "Apples"]), Row([2, "Pear"])])

        XCTAssertThrowsError(try db.transaction {
            try db.delete(from: fruits)
            try db.add(rows: [Row([9])], to: fruits)
        })
        XCTAssertEqual(Set(try table.fetchAll()), [Row([1, "Apples"]), Row([2, "Pear"])])
        XCTAssertEqual(seen.count, 2)
    }

    /// Seed 001's stack: a transactional database over change-logging SQLite tables.
    /// Observers see each transaction; the SQLite table sees nothing until save.
    func testTransactionsOverAChangeLoggingDatabase() throws {
        let sqlite = try SQLiteDatabase.inMemory()
        let base = try sqlite.createTable("fruit", scheme: Scheme(["id", "name"]), primaryKey: ["id"])
        try base.add([Row([1, "Apple"])])
        let log = ChangeLoggingDatabase(sqlite)
        let fruits = Relation(source: try log.table(named: "fruit"))
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        try db.declareKey(["id"], of: fruits)
        var seen: [RowChange] = []
        try db.observe(try fruits.select(Attribute("name") *!= "Apple")) { seen.append($0) }
        try db.transaction {
            try db.add([["id": 2, "name": "Pear"]], to: fruits)
            try db.update(fruits, where: Attribute("id") *== 1, set: ["name": "Apples"])
        }
        XCTAssertEqual(seen, [RowChange(added: [Row([1, "Apples"]), Row([2, "Pear"])])])
        XCTAssertEqual(Set(try base.allRows()), [Row([1, "Apple"])])
        XCTAssertThrowsError(try db.add([["id": 2, "name": "Plum"]], to: fruits))
        try log.save()
        XCTAssertEqual(Set(try base.allRows()), [Row([1, "Apples"]), Row([2, "Pear"])])
    }
}
