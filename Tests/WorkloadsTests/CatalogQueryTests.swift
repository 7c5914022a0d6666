import XCTest
import QueryEngine
import Relational
@testable import Workloads

/// Every catalog query against the hand-checked fixtures, through the engine with all-on
/// and all-off and through the reference evaluator.
final class CatalogQueryTests: XCTestCase {
    /// Hand-checked results on `Fixtures` (values in scheme order).
    let expected: [String: Set<Row>] = [
        "selected-document": [Row([5, "Chapter 1, Scene 1", 3])],
        "selected-document-parent": [Row([3, "A Story: Chapter 1", 1])],
        "selected-document-children": [Row([7, "Scene 1 notes", 5])],
        "selected-document-siblings": [Row([6, "Chapter 1, Scene 2", 3])],
        "selected-document-grandparent": [Row([1, "A Story", .null])],
        // 5 → 3 → 1 → null: the null parent of the root is an edge too, but no document has id null.
        "selected-document-ancestors": [Row([1, "A Story", .null]), Row([3, "A Story: Chapter 1", 1])],
        "selected-document-descendants": [Row([7, "Scene 1 notes", 5])],
        // scheme [id, parent_id]: 7 → 5, and 5 is selected.
        "is-descendant": [Row([7, 5])],
        // scheme [animal, id, name]: Nudges was removed, Pointy added.
        "current-cats": [Row(["cat", 1, "Mickey"]), Row(["cat", 5, "Pointy"])],
        // scheme [name, tag_id]: item 2 has tags 1 and 3.
        "available-tags": [Row(["home", 2]), Row(["errand", 4])],
        "tags-for-selected-item": [Row(["work", 1]), Row(["urgent", 3])],
        "many-selects-union": [
            Row([1, "A Story", .null]), Row([2, "Cake Recipe", .null]), Row([3, "A Story: Chapter 1", 1]),
            Row([5, "Chapter 1, Scene 1", 3]), Row([6, "Chapter 1, Scene 2", 3]), Row([7, "Scene 1 notes", 5]),
        ],
        // The literal (0, "Unfiled", null) is nobody's parent.
        "tiny-initiator-parent": [Row([3, "A Story: Chapter 1", 1])],
        // 5 is the parent of 7.
        "selected-with-children": [Row([5])],
        // scheme [comment, id, name, serial_number]; every fixture employee has id <= 500.
        "first-employees-equipment": [
            Row(["laptop", 1, "Jane Doe", "HQ1234"]), Row(["monitor", 1, "Jane Doe", "HQ5678"]),
            Row(["phone", 2, "John Smith", "HQ9999"]), Row(["laptop", 4, "Sally Jones", "HQ0001"]),
        ],
        // scheme [comment, id, name, serial_number]
        "employee-equipment": [
            Row(["laptop", 1, "Jane Doe", "HQ1234"]), Row(["monitor", 1, "Jane Doe", "HQ5678"]),
            Row(["phone", 2, "John Smith", "HQ9999"]),
        ],
    ]

    func testTheCatalogHasEveryRequiredQueryWithDescriptionAndShape() throws {
        let queries = try QueryCatalog.load(directory: catalogDirectory)
        let required = [
            "selected-document", "selected-document-parent", "selected-document-children",
            "selected-document-siblings", "selected-document-grandparent", "current-cats", "available-tags",
            "tags-for-selected-item", "many-selects-union",
            "selected-document-ancestors", "selected-document-descendants", "is-descendant",
            "tiny-initiator-parent", "selected-with-children", "first-employees-equipment",
        ]
        for name in required { XCTAssertTrue(queries.contains { $0.name == name }, "missing \(name)") }
        for q in queries {
            XCTAssertFalse(q.description.isEmpty, "\(q.name) has no description")
            XCTAssertNotNil(q.shape, "\(q.name) has no shape")
            XCTAssertNotNil(expected[q.name], "\(q.name) has no hand-checked result")
        }
        XCTAssertEqual(try QueryCatalog.find("selected-document-parent", directory: catalogDirectory).shape, .documents)
        XCTAssertThrowsError(try QueryCatalog.find("selected-document-parnet", directory: catalogDirectory)) { error in
            XCTAssertEqual("\(error)", "no catalog query named 'selected-document-parnet'; did you mean 'selected-document-parent'? (`testbed queries` lists them)")
        }
    }

    func testEveryCatalogQueryGivesTheHandCheckedResult() throws {
        for q in try QueryCatalog.load(directory: catalogDirectory) {
            guard let shape = q.shape, let want = expected[q.name] else { continue }
            for preset in ["all-on", "all-off"] {
                let query = try q.parse(catalog: Fixtures.catalog(for: shape))
                let run = try QueryEngine(preset: preset).run(query.relations)
                XCTAssertEqual(run.results.count, 1)
                XCTAssertEqual(Set(run.results[0]), want, "\(q.name) \(preset)")
                XCTAssertEqual(run.results[0].count, want.count, "\(q.name) \(preset): no duplicates")
            }
            let query = try q.parse(catalog: Fixtures.catalog(for: shape))
            XCTAssertEqual(Set(try ReferenceEvaluator.evaluate(query.relations[0])), want, "\(q.name) reference")
        }
    }

    /// Generated data on both backends: the engine under both presets agrees with the
    /// reference evaluator on every catalog query.
    func testCatalogQueriesOnGeneratedDataAgreeAcrossEnginesAndBackends() throws {
        for q in try QueryCatalog.load(directory: catalogDirectory) {
            guard let shape = q.shape else { continue }
            let dataset = try shape.generate(rows: 400, seed: 11)
            // One reference answer per query: every backend holds the same dataset.
            var reference: Set<Row>?
            for backend in Backend.allCases {
                let loaded = try LoadedDataset(dataset, backend: backend)
                let query = try q.parse(catalog: loaded.catalog)
                let expected = try reference ?? Set(ReferenceEvaluator.evaluate(query.relations[0]))
                reference = expected
                for preset in ["all-on", "all-off"] {
                    let run = try QueryEngine(preset: preset).run(query.relations)
                    XCTAssertEqual(Set(run.results[0]), expected, "\(q.name) \(backend) \(preset)")
                }
            }
        }
    }

    func testSelectPushdownReadsFewRowsOnTheSeedQuery() throws {
        let dataset = try Shape.documents.generate(rows: 10_000, seed: 5)
        let loaded = try LoadedDataset(dataset, backend: .memory)
        let q = try QueryCatalog.find("selected-document-parent", directory: catalogDirectory)
        let (_, on) = try loaded.run(q, engine: QueryEngine(preset: "all-on"))
        let (_, off) = try loaded.run(q, engine: QueryEngine(preset: "all-off"))
        XCTAssertEqual(Set(on.results[0]), Set(off.results[0]))
        XCTAssertEqual(on.results[0].count, 1)
        XCTAssertLessThan(on.counters.sourceRowsRead, 10)
        XCTAssertGreaterThanOrEqual(off.counters.sourceRowsRead, 10_000)
    }
}
