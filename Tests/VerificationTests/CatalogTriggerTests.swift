import Relational
import Workloads
import XCTest
@testable import Verification

/// The catalog verification's variant datasets hold what the default ones never do (issue
/// 10): reals equal to integers in keys, nulls on a difference's right side, a join filter
/// `parent_id == null` on the indexed column, and a root document as the selection.
final class CatalogTriggerTests: XCTestCase {
    private let sizes = [20, 200]
    private let seeds: [UInt64] = [1, 2]

    /// The shape's trigger datasets (those whose `selected` parameter is `selected`, when given).
    private func datasets(_ shape: Shape, selected: String? = nil) throws -> [Dataset] {
        let verification = CatalogVerification(queries: [], sizes: sizes, seeds: seeds)
        let variants = verification.parameterSets(shape).dropFirst().filter { selected == nil || $0["selected"] == selected }
        XCTAssertFalse(variants.isEmpty, "\(shape) has a trigger variant")
        return try variants.flatMap { p in
            try sizes.flatMap { size in try seeds.map { try shape.generate(rows: size, seed: $0, parameters: p) } }
        }
    }

    private func column(_ dataset: Dataset, _ table: String, _ attribute: Attribute) throws -> [Value] {
        guard let t = dataset.table(named: table) else { throw VerificationError.usage("no table \(table)") }
        return try t.column(attribute)
    }

    private func isReal(_ v: Value) -> Bool { if case .real = v { return true } else { return false } }

    /// Rows of a catalog query's `let`-bound or output relation on a dataset.
    private func rows(_ queryName: String, _ relationName: String, on dataset: Dataset) throws -> [Row] {
        guard let query = try QueryCatalog.load().first(where: { $0.name == queryName }) else {
            throw VerificationError.usage("no catalog query \(queryName)")
        }
        let parsed = try query.parse(catalog: try dataset.memoryRelations())
        guard let relation = parsed.bindings[relationName] ?? parsed.outputs.first(where: { $0.name == relationName })?.relation
        else {
            throw VerificationError.usage("\(queryName) has no relation \(relationName)")
        }
        return try ReferenceEvaluator.evaluate(relation)
    }

    func testDocumentsVariantSelectsARootAmongRealKeysAndNullNames() throws {
        for dataset in try datasets(.documents, selected: "root") {
            let label = "rows=\(dataset.rowsRequested) seed=\(dataset.seed)"
            XCTAssertTrue(try column(dataset, "documents", "id").contains(where: isReal), label)
            XCTAssertTrue(try column(dataset, "documents", "parent_id").contains(where: isReal), label)
            XCTAssertTrue(try column(dataset, "documents", "name").contains { $0.isNull }, label)
            // The selection is a root, so the siblings difference has a null on its right side
            // and its join reaches documents through the filter parent_id == null.
            let selected = try rows("selected-document-siblings", "selected", on: dataset)
            XCTAssertEqual(selected.count, 1, label)
            XCTAssertTrue(selected.allSatisfy { $0[2].isNull }, "selected document is a root: \(selected), \(label)")
            XCTAssertFalse(try rows("selected-document-siblings", "siblings", on: dataset).isEmpty, "a root has siblings, \(label)")
        }
    }

    /// Several selected documents share parents, so `selected project [parent_id]` meets
    /// equal rows: a project (or a translation) that does not coalesce them shows.
    func testDocumentsSubtreeVariantMakesProjectsCoalesce() throws {
        for dataset in try datasets(.documents, selected: "subtree") {
            let selected = try rows("selected-document-siblings", "selected", on: dataset)
            let parents = ReferenceOrder.sortedDistinct(selected.map { Row([$0[2]]) })
            XCTAssertGreaterThan(selected.count, parents.count, "rows=\(dataset.rowsRequested) seed=\(dataset.seed)")
        }
    }

    func testTodoVariantSelectsItemsSharingTags() throws {
        var coalesced = 0
        for dataset in try datasets(.todo) {
            let selected = try column(dataset, "selected_item_ids", "item_id")
            XCTAssertEqual(selected.count, 3)
            let tagged = try column(dataset, "item_tags", "item_id").filter { t in selected.contains { ReferenceOrder.compare($0, t) == 0 } }
            coalesced += tagged.count - (try rows("available-tags", "applied", on: dataset)).count
        }
        XCTAssertGreaterThan(coalesced, 0, "some tag is applied to two selected items")
    }

    /// The variants fit every size: a counted selection is capped at the row count.
    func testVariantsFitTheSmallestSizes() throws {
        XCTAssertEqual(CatalogVerification.fitted(ShapeParameters(["selected": "3", "reals": "0.5"]), rows: 2),
                       ShapeParameters(["selected": "2", "reals": "0.5"]))
        XCTAssertEqual(CatalogVerification.fitted(ShapeParameters(["selected": "subtree"]), rows: 1),
                       ShapeParameters(["selected": "subtree"]))
        try CatalogVerification(queries: try QueryCatalog.load(), sizes: [1, 2], seeds: [1]).check()
    }

    func testPetsVariantRemovesRowsWithNullsAndRealIDs() throws {
        var nullNames = 0
        var mixedIDs = 0
        for dataset in try datasets(.pets) {
            let pets = try column(dataset, "pets", "id")
            let removed = try column(dataset, "removed", "id")
            nullNames += try column(dataset, "removed", "name").filter(\.isNull).count
            // A removed row holding 3.0 where pets holds 3 (or the other way round).
            mixedIDs += removed.filter { r in pets.contains { ReferenceOrder.compare($0, r) == 0 && isReal($0) != isReal(r) } }.count
            // Removed rows are pets rows and added ids are new, so every removed row must go,
            // whatever its id's storage class.
            let added = try column(dataset, "added", "id")
            XCTAssertEqual(try rows("current-cats", "current", on: dataset).count, pets.count + added.count - removed.count)
        }
        XCTAssertGreaterThan(nullNames, 0)
        XCTAssertGreaterThan(mixedIDs, 0)
    }

    func testTodoVariantDifferenceHasNullsOnItsRightSide() throws {
        var nullsOnRight = 0
        for dataset in try datasets(.todo) {
            XCTAssertTrue(try column(dataset, "item_tags", "tag_id").contains(where: isReal))
            nullsOnRight += try rows("available-tags", "applied", on: dataset).filter { $0[0].isNull }.count
        }
        XCTAssertGreaterThan(nullsOnRight, 0)
    }
}
