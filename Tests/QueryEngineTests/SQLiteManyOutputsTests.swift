import XCTest
import Relational
import SQLiteStore
@testable import QueryEngine

/// Issue 9, class 9: over SQLite, the engine's cost grew quadratically with the number of
/// outputs (1,000 outputs: 13.7 s against 0.4 s in memory). Every initiator choice asked
/// every remaining source for a fresh estimate, and each SQLite estimate ran queries (index
/// names from the schema, an indexed count). Now a source is estimated once per filter
/// state, so the SQL issued grows linearly with the outputs.
final class SQLiteManyOutputsTests: XCTestCase {
    private func documents(in database: SQLiteDatabase) throws -> SQLiteTable {
        let table = try database.createTable(
            "documents", scheme: Scheme(["id", "name", "parent_id"]), primaryKey: ["id"], indexes: [["parent_id"]])
        var rows: [Row] = []
        for i in 1...300 {
            let parent: Value = i % 10 == 1 ? .null : .integer(Int64(i - 1))
            rows.append(Row([.integer(Int64(i)), .text("doc \(i)"), parent]))
        }
        try table.add(rows)
        return table
    }

    /// Statements the engine runs for `documents select (id == k)`, k in 1...n, as n outputs.
    private func statements(outputs n: Int) throws -> (statements: Int, perOutputRows: [Int]) {
        let database = try SQLiteDatabase.inMemory()
        let table = try documents(in: database)
        let d = Relation(source: table)
        let outputs = try (1...n).map { try d.select(Attribute("id") *== .integer(Int64($0))) }
        let before = database.statementsRun
        let run = try QueryEngine(preset: "all-on").run(outputs)
        XCTAssertEqual(run.counters.sourceRowsRead, n)
        XCTAssertEqual(run.counters.nodesCopied, n - 1)
        return (database.statementsRun - before, run.results.map(\.count))
    }

    func testStatementsGrowLinearlyWithTheOutputs() throws {
        let small = try statements(outputs: 25)
        let large = try statements(outputs: 100)
        XCTAssertEqual(small.perOutputRows, Array(repeating: 1, count: 25))
        XCTAssertEqual(large.perOutputRows, Array(repeating: 1, count: 100))

        // One SELECT per source copy plus a bounded number of estimate queries each.
        XCTAssertLessThanOrEqual(large.statements, 2 * 100 + 5)
        XCTAssertLessThanOrEqual(large.statements, 4 * small.statements + 10)
    }
}
