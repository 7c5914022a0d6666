import QueryEngine
import Relational
import XCTest

/// The counted mode (`TransactionalDatabase.Mode.counted`) on hand-built cases: exact
/// changes, no engine run, and deterministic source rows read per transaction (each row a
/// probe of a source's index returns counts once).
final class CountedPropagationTests: XCTestCase {
    private func engine(_ preset: String = "all-on") throws -> QueryEngine { try QueryEngine(preset: preset) }

    /// The seed's selected-document-parent on 10,000 documents (parent of i is i − 1).
    private func selection(_ preset: String = "all-on") throws -> (TransactionalDatabase, Relation, Relation) {
        let documents = Relation(source: try Fixtures.documents(10_000))
        let selected = Relation(source: try MemoryTable(
            name: "selected_documents", columns: ["id"], rows: [[1000]], indexedAttributes: ["id"]))
        let parent = try selected.join(documents).project(["parent_id"]).rename(["parent_id": "id"]).join(documents)
        let db = TransactionalDatabase(engine: try engine(preset), mode: .counted)
        try db.observe(parent) { _ in }
        return (db, parent, selected)
    }

    /// One selection change reads four rows: the new and the old selected document, and the
    /// new and the old parent, each one lookup by id. No engine runs; the same again for the
    /// next change, and under all-off: flags do not change the counted mode's work.
    func testASelectionChangeReadsFourRowsAndRunsNoQuery() throws {
        for preset in ["all-on", "all-off"] {
            let (db, _, selected) = try selection(preset)
            try db.update(selected, set: ["id": 5005])
            let report = try XCTUnwrap(db.lastReport)
            XCTAssertEqual(report.changes[0], RowChange(
                added: [Row([5004, "doc 5004", 5003])], removed: [Row([999, "doc 999", 998])]), preset)
            XCTAssertEqual(report.counters.sourceRowsRead, 4, preset)
            XCTAssertEqual(report.engineRuns, 0, preset)
            try db.update(selected, set: ["id": 7007])
            let again = try XCTUnwrap(db.lastReport)
            XCTAssertEqual(again.changes[0], RowChange(
                added: [Row([7006, "doc 7006", 7005])], removed: [Row([5004, "doc 5004", 5003])]), preset)
            XCTAssertEqual(again.counters.sourceRowsRead, 4, preset)
        }
    }

    /// Renaming a document observed through every document beside its parent's name: the
    /// renamed row is matched with its parent (one lookup by id, after and before) and the
    /// renamed parent with its children (one lookup by parent_id, after and before): 2 × (1 +
    /// children) rows. With `id` declared a key the projection keeps no counts (no state at
    /// all); without it, a count per document, and the same rows read.
    func testARenameUnderALargeJoinReadsTwiceTheDocumentAndItsChildren() throws {
        for declared in [true, false] {
            let table = try Fixtures.documents(10_000)
            for id in 20_001...20_007 { try table.add(Row([.integer(Int64(id)), .text("extra \(id)"), .integer(5005)])) }
            let children = 8  // 5006 and the seven added here
            let documents = Relation(source: table)
            let parents = try documents.project(["id", "name"]).rename(["id": "parent_id", "name": "parent_name"])
            let named = try documents.join(parents)
            let db = TransactionalDatabase(engine: try engine(), mode: .counted)
            if declared { try db.declareKey(["id"], of: documents) }
            try db.observe(named) { _ in }
            XCTAssertEqual(db.countedStateRows, declared ? 0 : 10_007)
            let before = Set(try ReferenceEvaluator.evaluate(named))
            try db.update(documents, where: Attribute("id") *== .integer(5005), set: ["name": .text("Renamed")])
            let report = try XCTUnwrap(db.lastReport)
            XCTAssertEqual(report.changes[0].applied(to: before), Set(try ReferenceEvaluator.evaluate(named)))
            XCTAssertEqual(report.changes[0].added.count, 1 + children)
            XCTAssertEqual(report.counters.sourceRowsRead, 2 * (1 + children), "declared \(declared)")
            XCTAssertEqual(report.engineRuns, 0)
        }
    }

    /// A rolled-back transaction (explicitly, or by a statement the database refuses) leaves
    /// the counted state as it was: the next committed change is exact.
    func testARollbackLeavesTheCountedStateRight() throws {
        let (db, parent, selected) = try selection()
        var state = Set(try ReferenceEvaluator.evaluate(parent))
        try db.begin()
        try db.update(selected, set: ["id": 5005])
        try db.rollback()
        XCTAssertThrowsError(try db.transaction {
            try db.update(selected, set: ["id": 3003])
            try db.add([["nope": 1]], to: selected)
        })
        XCTAssertEqual(Set(try ReferenceEvaluator.evaluate(parent)), state)
        for id: Int64 in [2002, 1000, 41] {
            try db.update(selected, set: ["id": .integer(id)])
            let change = try XCTUnwrap(db.lastReport).changes[0]
            let after = Set(try ReferenceEvaluator.evaluate(parent))
            XCTAssertEqual(change, RowChange.between(before: state, after: after), "selecting \(id)")
            state = after
        }
    }

    /// Sources without indexes get a maintained copy (its probes count as source rows read);
    /// `3` and `3.0` join, and a null key joins a null key, as in the reference evaluator.
    func testUnindexedSourcesNullsAndNumericKeys() throws {
        let left = try MemoryTable(name: "l", columns: ["k", "a"], rows: [[3, "x"], [.null, "n"]])
        let right = try MemoryTable(name: "r", columns: ["k", "b"], rows: [[3.0, "y"]])
        let joined = try Relation(source: left).join(Relation(source: right))
        let db = TransactionalDatabase(engine: try engine(), mode: .counted)
        try db.observe(joined) { _ in }
        XCTAssertEqual(db.countedStateRows, 3 * 2)  // both tables copied, one index each
        var state = Set(try ReferenceEvaluator.evaluate(joined))
        for rows in [[Row(["m", .null])], [Row(["z", 3])]] {  // scheme order: b, k
            try db.add(rows: rows, to: Relation(source: right))
            let change = try XCTUnwrap(db.lastReport).changes[0]
            let after = Set(try ReferenceEvaluator.evaluate(joined))
            XCTAssertEqual(change, RowChange.between(before: state, after: after))
            XCTAssertEqual(change.added.count, 1)
            state = after
        }
    }

    /// Closure has no counted rule: when its edges change it is re-evaluated by the engine
    /// (one run) and diffed with its copy; a change elsewhere runs nothing.
    func testClosureFallsBackToOneEngineRunWhenItsEdgesChange() throws {
        let edges = try MemoryTable(name: "edges", columns: ["from", "to"], rows: [[1, 2], [2, 3]], indexedAttributes: ["from"])
        let other = try MemoryTable(name: "other", columns: ["x"], rows: [[1]], indexedAttributes: ["x"])
        let reach = try Relation(source: edges).closure("from", "to")
        let db = TransactionalDatabase(engine: try engine(), mode: .counted)
        try db.observe(reach) { _ in }
        try db.observe(Relation(source: other)) { _ in }
        try db.add(rows: [Row([3, 4])], to: Relation(source: edges))
        let report = try XCTUnwrap(db.lastReport)
        XCTAssertEqual(report.changes[0].added, [Row([1, 4]), Row([2, 4]), Row([3, 4])])
        XCTAssertEqual(report.engineRuns, 1)
        try db.add(rows: [Row([2])], to: Relation(source: other))
        XCTAssertEqual(try XCTUnwrap(db.lastReport).engineRuns, 0)
        try db.delete(from: Relation(source: edges), where: Attribute("from") *== .integer(2))
        XCTAssertEqual(try XCTUnwrap(db.lastReport).changes[0].removed, [Row([1, 3]), Row([1, 4]), Row([2, 3]), Row([2, 4])])
    }

    /// Removing an observer drops the state; the next transaction's `begin` rebuilds it from
    /// the sources before they change, so the projection's counts are not counted twice.
    func testRemovingAnObserverRebuildsTheStateBeforeTheNextTransaction() throws {
        let (db, parent, selected) = try selection()
        let other = try db.observe(try selected.project(["id"])) { _ in }
        db.removeObserver(other)
        var state = Set(try ReferenceEvaluator.evaluate(parent))
        for id: Int64 in [5005, 1000] {
            try db.update(selected, set: ["id": .integer(id)])
            let report = try XCTUnwrap(db.lastReport)
            let after = Set(try ReferenceEvaluator.evaluate(parent))
            XCTAssertEqual(report.changes, [RowChange.between(before: state, after: after)], "selecting \(id)")
            state = after
        }
    }

    /// Two observations sharing a subexpression share its node (and its counts).
    func testSharedSubexpressionsShareState() throws {
        let documents = Relation(source: try Fixtures.documents(100))
        let selected = Relation(source: try MemoryTable(
            name: "selected_documents", columns: ["id"], rows: [[10], [20]], indexedAttributes: ["id"]))
        let parentIDs = try selected.join(documents).project(["parent_id"])
        let db = TransactionalDatabase(engine: try engine(), mode: .counted)
        try db.observe(parentIDs) { _ in }
        let alone = db.countedStateRows
        try db.observe(try parentIDs.select(Attribute("parent_id") *== .integer(9))) { _ in }
        XCTAssertEqual(db.countedStateRows, alone)
        try db.update(selected, where: Attribute("id") *== .integer(20), set: ["id": 30])
        let report = try XCTUnwrap(db.lastReport)
        XCTAssertEqual(report.changes[0], RowChange(added: [Row([29])], removed: [Row([19])]))
        XCTAssertEqual(report.changes[1], RowChange())
    }
}
