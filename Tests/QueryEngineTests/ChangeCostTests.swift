import QueryEngine
import Relational
import XCTest

/// Deterministic counters of change propagation on 10,000 documents observed through the
/// seed's selected-document-parent: a transaction touching a row or two reads a handful of
/// source rows under `all-on`, not the documents table.
final class ChangeCostTests: XCTestCase {
    private func setUp(_ mode: TransactionalDatabase.Mode, preset: String = "all-on") throws
        -> (TransactionalDatabase, Relation, Relation)
    {
        let documents = Relation(source: try Fixtures.documents(10_000))
        let selected = Relation(source: try MemoryTable(
            name: "selected_documents", columns: ["id"], rows: [[1000]], indexedAttributes: ["id"]))
        let parent = try selected.join(documents).project(["parent_id"]).rename(["parent_id": "id"])
            .join(documents).named("parent")
        let db = TransactionalDatabase(engine: try QueryEngine(preset: preset), mode: mode)
        try db.observe(parent) { _ in }
        return (db, parent, selected)
    }

    func testRenamingTheSelectedDocumentsParentReadsAFewRows() throws {
        let (db, parent, _) = try setUp(.incremental)
        try db.update(parent, set: ["name": "Renamed"])
        let report = try XCTUnwrap(db.lastReport)
        XCTAssertEqual(report.changes[0], RowChange(
            added: [Row([999, "Renamed", 998])], removed: [Row([999, "doc 999", 998])]))
        XCTAssertLessThanOrEqual(report.counters.sourceRowsRead, 10)
        XCTAssertGreaterThan(report.engineRuns, 1)
    }

    /// As one graph, the parent's added rows wait on the documents' state before, which
    /// waits on the documents table, which the added rows' join would have filtered.
    func testTheOneGraphRouteReadsTheDocumentsTableForTheSameRename() throws {
        let (db, parent, _) = try setUp(.incrementalSingle)
        try db.update(parent, set: ["name": "Renamed"])
        let report = try XCTUnwrap(db.lastReport)
        XCTAssertEqual(report.changes[0].added, [Row([999, "Renamed", 998])])
        XCTAssertGreaterThanOrEqual(report.counters.sourceRowsRead, 10_000)
        XCTAssertEqual(report.engineRuns, 1)
    }

    func testChangingTheSelectionReadsAFewRowsInEveryIncrementalMode() throws {
        for mode in [TransactionalDatabase.Mode.incremental, .incrementalSingle, .requery] {
            let (db, _, selected) = try setUp(mode)
            try db.update(selected, set: ["id": 5005])
            let report = try XCTUnwrap(db.lastReport)
            XCTAssertEqual(report.changes[0], RowChange(
                added: [Row([5004, "doc 5004", 5003])], removed: [Row([999, "doc 999", 998])]), "\(mode)")
            XCTAssertLessThanOrEqual(report.counters.sourceRowsRead, 30, "\(mode)")
        }
    }
}
