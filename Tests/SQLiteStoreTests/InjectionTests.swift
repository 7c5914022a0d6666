import XCTest
import Relational
@testable import SQLiteStore

/// Values are bound, never spliced; identifiers are quoted with embedded quotes doubled.
final class InjectionTests: XCTestCase {
    static let hostile = "Robert'); DROP TABLE t; -- \"quoted\" ; 'single' ;;"

    func testHostileStringRoundTripsThroughValuesAndSelects() throws {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("t", scheme: try scheme("id", "name"), primaryKey: ["id"], indexes: [["name"]])
        let values: [Value] = [.text(Self.hostile), "'); DROP TABLE t; --", "a\"b", "x'00'", "?", "?1", "%_"]
        for (i, v) in values.enumerated() { try t.add(Row([.integer(Int64(i)), v])) }
        for (i, v) in values.enumerated() {
            XCTAssertEqual(try t.fetchAll(filter: "name" *== v), [Row([.integer(Int64(i)), v])])
            XCTAssertEqual(try db.evaluate(try Relation(source: t).select("name" *== v)), [Row([.integer(Int64(i)), v])])
            XCTAssertEqual(try t.fetchAll(filter: "name" *>= v).count, values.filter { $0 >= v }.count)
        }
        // Updates and deletes with the hostile value as both condition and new value.
        XCTAssertEqual(try t.update(where: "name" *== .text(Self.hostile), set: ["name": "'); DROP TABLE t; --x"]), 1)
        XCTAssertEqual(try t.delete(where: "name" *== "'); DROP TABLE t; --x"), 1)
        XCTAssertTrue(try db.hasTable(named: "t"))
        XCTAssertEqual(try t.count(), values.count - 1)
        XCTAssertEqual(try db.tableNames(), ["t"])
    }

    func testHostileTableAndAttributeNames() throws {
        let db = try SQLiteDatabase.inMemory()
        let tableName = "we\"ird\"; DROP TABLE x; --"
        let attribute = Attribute("co\"l\u{301}\"umn")  // a quote, then a combining mark
        let other = Attribute("plain")
        try db.createTable("x", scheme: try scheme("a"))
        let t = try db.createTable(tableName, scheme: try Scheme([attribute, other]), primaryKey: [attribute], indexes: [[other]])
        try t.add([Row([.text(Self.hostile), 1]), Row(["b", 2])])
        XCTAssertTrue(try db.hasTable(named: "x"))
        XCTAssertEqual(Set(try db.tableNames()), ["x", tableName])
        // Read back from SQLite's catalog: the same names, key and index.
        let reopened = try db.table(named: tableName)
        XCTAssertEqual(reopened.scheme.attributes, [attribute, other].sorted())
        XCTAssertEqual(reopened.primaryKey, [attribute])
        XCTAssertTrue(reopened.leadingIndexedAttributes.contains(other))
        XCTAssertEqual(try t.fetchAll(filter: attribute *== .text(Self.hostile)), [Row([.text(Self.hostile), 1])])
        let renamed = try Relation(source: t).rename([attribute: "n"]).select("n" *== "b")
        XCTAssertEqual(try db.evaluate(renamed), [Row(["b", 2])])
    }
}
