import XCTest
import Relational
@testable import SQLiteStore

/// SQLite copies a CTE's body into every place that uses it, so a node shared with itself at
/// every level (`b1 = d join d`, `b2 = b1 join b1`, ...) expands to 2^levels table
/// references when prepared: the time doubled per level and 16 levels failed inside SQLite.
/// The translator counts the expansion (one visit per node) and refuses it up front.
final class SharedExpansionTests: XCTestCase {
    private func documents() throws -> (SQLiteDatabase, Relation) {
        let db = try SQLiteDatabase.inMemory()
        let t = try db.createTable("documents", scheme: try scheme("id", "name"), primaryKey: ["id"])
        XCTAssertEqual(try t.add((1...20).map { Row([.integer(Int64($0)), .text("doc \($0)")]) }), 20)
        return (db, Relation(source: t))
    }

    private func selfJoin(_ d: Relation, levels: Int) throws -> Relation {
        var b = try d.join(d)
        for _ in 1..<levels { b = try b.join(b) }
        return try b.select(Attribute("id") *== 3)
    }

    func testExpansionCountsTableReferencesOncePerNode() throws {
        let (_, d) = try documents()
        // b_k expands to 2^k references of documents.
        XCTAssertNoThrow(try SQLTranslator.checkExpansion(try selfJoin(d, levels: 12)))
        XCTAssertEqual(1 << 12, SQLTranslator.expandedReferenceLimit)
        assertSQLiteError(["8192 table references", "limit 4096"], kind: .translation) {
            try SQLTranslator.checkExpansion(try selfJoin(d, levels: 13))
        }
    }

    func testSixtyLevelsAreRefusedAndTwelveRun() throws {
        let (db, d) = try documents()
        assertSQLiteError(["cannot translate to one SQL statement", "shares subexpressions"], kind: .translation) {
            try db.evaluate(try selfJoin(d, levels: 60))
        }
        var a = d
        for k in 1...60 { a = try a.select(Attribute("id") *< .integer(Int64(3 * k))).union(a) }
        assertSQLiteError(["table references"], kind: .translation) {
            try db.evaluate(try a.select(Attribute("id") *== 3))
        }
        let rows = try db.evaluate(try selfJoin(d, levels: 12))
        XCTAssertEqual(rows, [Row([.integer(3), .text("doc 3")])])
    }
}
