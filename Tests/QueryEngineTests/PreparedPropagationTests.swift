import QueryEngine
import Relational
import XCTest

/// A transaction whose shape of change was seen before (same observed relations, same
/// changed sources and signs, same empty rules) runs the derivative graphs prepared for the
/// first one, rebound to its own delta rows: no query is prepared again, and the changes and
/// counters are those of a fresh preparation.
final class PreparedPropagationTests: XCTestCase {
    private struct Fixture {
        let db: TransactionalDatabase
        let documents: Relation
        let selected: Relation
        let observed: [Relation]
    }

    /// 1,000 documents, the seed's selected-document-parent and every document beside its
    /// parent's name, both observed.
    private func fixture(_ mode: TransactionalDatabase.Mode, preset: String, selecting id: Int = 500) throws -> Fixture {
        let documents = Relation(source: try Fixtures.documents(1000))
        let selected = Relation(source: try MemoryTable(
            name: "selected_documents", columns: ["id"], rows: [[.integer(Int64(id))]], indexedAttributes: ["id"]))
        let parent = try selected.join(documents).project(["parent_id"]).rename(["parent_id": "id"])
            .join(documents).named("parent")
        let parents = try documents.project(["id", "name"]).rename(["id": "parent_id", "name": "parent_name"])
        let named = try documents.join(parents).named("named")
        let db = TransactionalDatabase(engine: try QueryEngine(preset: preset), mode: mode)
        for r in [parent, named] { try db.observe(r) { _ in } }
        return Fixture(db: db, documents: documents, selected: selected, observed: [parent, named])
    }

    private func select(_ f: Fixture, _ id: Int) throws -> PropagationReport {
        try f.db.update(f.selected, set: ["id": .integer(Int64(id))])
        return try XCTUnwrap(f.db.lastReport)
    }

    private func rename(_ f: Fixture, _ id: Int, _ name: String) throws -> PropagationReport {
        try f.db.update(f.documents, where: Attribute("id") *== .integer(Int64(id)), set: ["name": .text(name)])
        return try XCTUnwrap(f.db.lastReport)
    }

    func testASecondTransactionOfTheSameShapePreparesNothingAndMatchesRequery() throws {
        for preset in ["all-on", "all-off"] {
            for mode in [TransactionalDatabase.Mode.incremental, .incrementalSingle] {
                let label = "\(preset) \(mode)"
                let f = try fixture(mode, preset: preset)
                let requery = try fixture(.requery, preset: preset)
                let steps: [(Fixture) throws -> PropagationReport] = [
                    { try self.select($0, 750) }, { try self.select($0, 500) }, { try self.select($0, 750) },
                    { try self.rename($0, 123, "A") }, { try self.rename($0, 123, "B") }, { try self.rename($0, 124, "C") },
                ]
                for (n, step) in steps.enumerated() {
                    let report = try step(f)
                    let expected = try step(requery)
                    XCTAssertEqual(report.changes, expected.changes, "\(label), transaction \(n + 1)")
                    XCTAssertFalse(report.changes.allSatisfy(\.isEmpty), "\(label), transaction \(n + 1)")
                    XCTAssertGreaterThan(report.engineRuns, 0, "\(label), transaction \(n + 1)")
                    // Transactions 1 and 4 are new shapes; the others repeat one.
                    if n == 0 || n == 3 {
                        XCTAssertGreaterThan(report.queriesPrepared, 0, "\(label), transaction \(n + 1)")
                    } else {
                        XCTAssertEqual(report.queriesPrepared, 0, "\(label), transaction \(n + 1)")
                    }
                }
                for r in f.observed {
                    XCTAssertEqual(Set(try ReferenceEvaluator.evaluate(r)), Set(try f.db.engine.run([r]).results[0]), label)
                }
            }
        }
    }

    /// A rebound plan runs as a freshly prepared one: same changes, rows read and runs as a
    /// database that meets the same transaction for the first time.
    func testAReusedPlanCountsAsAFreshOne() throws {
        for preset in ["all-on", "all-off"] {
            let reused = try fixture(.incremental, preset: preset)
            _ = try select(reused, 750)
            let second = try select(reused, 250)
            XCTAssertEqual(second.queriesPrepared, 0, preset)

            let fresh = try fixture(.incremental, preset: preset, selecting: 750)
            let first = try select(fresh, 250)
            XCTAssertGreaterThan(first.queriesPrepared, 0, preset)

            XCTAssertEqual(second.changes, first.changes, preset)
            XCTAssertEqual(second.engineRuns, first.engineRuns, preset)
            XCTAssertEqual(second.counters.sourceRowsRead, first.counters.sourceRowsRead, preset)
            XCTAssertEqual(second.deltaRowsRead, first.deltaRowsRead, preset)
            XCTAssertEqual(second.counters.filtersProvided, first.counters.filtersProvided, preset)
        }
    }

    /// A new shape (an add where there were updates) prepares its own graphs; observing
    /// another relation forgets what was prepared.
    func testANewShapeOrANewObservationPreparesAgain() throws {
        let f = try fixture(.incremental, preset: "all-on")
        _ = try select(f, 750)
        XCTAssertEqual(try select(f, 500).queriesPrepared, 0)
        try f.db.add(rows: [Row([.integer(5000), .text("new"), .integer(750)])], to: f.documents)
        let added = try XCTUnwrap(f.db.lastReport)
        XCTAssertGreaterThan(added.queriesPrepared, 0)

        let before = f.db.queriesPrepared
        try f.db.observe(f.documents) { _ in }
        _ = try select(f, 750)
        XCTAssertGreaterThan(f.db.queriesPrepared, before)
    }
}
