import QueryEngine
import Relational
import XCTest
@testable import Workloads

/// A change script meets a table's primary key the same way on every backend: a row that
/// is already there is no change (relations are sets), a row or an update that would give
/// two rows one key is refused at the statement, and its transaction leaves nothing.
final class ChangeScriptKeyTests: XCTestCase {
    private func load(_ backend: Backend) throws -> LoadedDataset {
        try LoadedDataset.generate(.documents, rows: 50, seed: 42, backend: backend)
    }

    private func documents(_ loaded: LoadedDataset) throws -> Set<Row> {
        Set(try XCTUnwrap(loaded.catalog["documents"]?.source).fetchAll())
    }

    private func apply(_ text: String, to loaded: LoadedDataset) throws -> [PropagationReport] {
        let script = try ChangeScript.parse(text, targets: loaded.catalog, file: "k.changes")
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        return try script.transactions.map { try script.apply($0, to: db) }
    }

    func testAKeyClashIsRefusedAtTheStatementOnEveryBackend() throws {
        for backend in Backend.allCases {
            let loaded = try load(backend)
            let before = try documents(loaded)
            let one = try XCTUnwrap(before.first { $0.values[0] == 1 }, "\(backend): no document 1")
            XCTAssertTrue(before.contains { $0.values[0] == 2 }, "\(backend): no document 2")
            let cases: [(String, String)] = [
                // A new row with an existing key, after a change the rollback must undo.
                ("begin\ndelete documents where (id == 7)\nadd documents [id, name, parent_id] { (1, \"dup\", null) }\ncommit",
                 "k.changes:3:1: change to documents would give two rows the same key [id] (id = 1): "),
                // Two new rows with one key.
                ("add documents [id, name, parent_id] { (9001, \"a\", null), (9001, \"b\", null) }",
                 "k.changes:1:1: change to documents would give two rows the same key [id] (id = 9001): "),
                // An update moving a row onto another row's key.
                ("update documents set [id = 2] where (id == 1)",
                 "k.changes:1:1: change to documents would give two rows the same key [id] (id = 2): "),
            ]
            for (text, message) in cases {
                XCTAssertThrowsError(try apply(text, to: loaded), "\(backend): \(text)") { error in
                    XCTAssertTrue(error is QueryError, "\(backend): \(type(of: error)) \(error)")
                    XCTAssertTrue("\(error)".hasPrefix(message), "\(backend): \(error)")
                }
                XCTAssertEqual(try documents(loaded), before, "\(backend): \(text) left a change")
            }
            // The row as it is: no change, not a clash.
            let same = "add documents [id, name, parent_id] { \(SessionText.tuple(one.values)) }"
            XCTAssertEqual(try apply(same, to: loaded).map(\.sourceRowsChanged), [0], "\(backend)")
            XCTAssertEqual(try documents(loaded), before, "\(backend)")
        }
    }
}
