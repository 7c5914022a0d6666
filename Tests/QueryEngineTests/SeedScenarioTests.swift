import XCTest
import Relational
@testable import QueryEngine

/// Seed 000's document scenario: selected id → its document → parent_id → renamed to id →
/// joined with documents again. Subtree copying is what keeps it from scanning.
final class SeedScenarioTests: XCTestCase {
    func check(rows n: Int) throws {
        let documents = try Fixtures.documents(n)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let expected = try ReferenceEvaluator.evaluate(query).asSet
        XCTAssertEqual(expected, [Row([.integer(2), .text("doc 2"), .integer(1)])])

        let allOn = try QueryEngine(preset: "all-on").run([query])
        XCTAssertEqual(allOn.results[0].asSet, expected)
        XCTAssertLessThanOrEqual(Fixtures.rowsDelivered(by: "documents", in: allOn), 2)
        XCTAssertEqual(allOn.counters.subtreesCopied, 1)

        let flags = try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["subtree-copying"])
        let noCopy = try QueryEngine(flags: flags).run([query])
        XCTAssertEqual(noCopy.results[0].asSet, expected)
        XCTAssertEqual(Fixtures.rowsDelivered(by: "documents", in: noCopy), n)
        XCTAssertEqual(noCopy.counters.subtreesCopied, 0)
    }

    func testOneThousandDocuments() throws { try check(rows: 1_000) }

    func testOneHundredThousandDocuments() throws { try check(rows: 100_000) }

    /// Counter regression: the exact counters of the seed scenario at 100k under all-on.
    func testCountersPinnedAt100k() throws {
        let documents = try Fixtures.documents(100_000)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let run = try QueryEngine(preset: "all-on").run([query])
        let counters = Dictionary(uniqueKeysWithValues: run.counters.columns.map { ($0.name, $0.value) })
        XCTAssertEqual(counters, [
            "source_rows_read": 3,  // selected id, then one document per documents node
            "filters_provided": 2,  // both joins turn their one-row side into a filter
            "filters_activated": 2,
            "filtered_fetches": 2,
            "join_filters_built": 2,
            "subtrees_copied": 1,  // documents, for selectedDocumentMetadata
            "nodes_copied": 1,
            "nodes_planned": 6,
            "nodes_after_optimization": 6,
        ])
        XCTAssertEqual(run.counters.initiatorOrder, ["selected_documents", "documents", "documents"])
    }
}
