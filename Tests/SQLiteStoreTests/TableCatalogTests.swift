import XCTest
import Relational
import SQLiteStore

final class TableCatalogTests: XCTestCase {
    func testDropTableForgetsItAndTheNameCanBeReused() throws {
        let db = try SQLiteDatabase.inMemory()
        let scheme = try Scheme(["id", "name"])
        let table = try db.createTable("people", scheme: scheme, primaryKey: ["id"])
        _ = try table.add(Row([1, "Lancelot"]))
        XCTAssertEqual(try db.tableNames(), ["people"])

        try db.dropTable(named: "people")
        XCTAssertFalse(try db.hasTable(named: "people"))
        XCTAssertEqual(try db.tableNames(), [])
        XCTAssertThrowsError(try db.table(named: "people"))

        let again = try db.createTable("people", scheme: try Scheme(["id"]), primaryKey: ["id"])
        XCTAssertEqual(again.scheme, try Scheme(["id"]))
        XCTAssertEqual(try again.count(), 0)
        // Dropping a table that does not exist is not an error.
        XCTAssertNoThrow(try db.dropTable(named: "nobody"))
    }
}
