import XCTest
import Relational
@testable import QueryEngine

/// The runner's filter mechanism beyond one filter per edge: a later filter along an edge
/// narrows it, and a source whose filter is an OR of disjuncts on different indexed
/// attributes is fetched disjunct by disjunct instead of scanned.
final class FilterNarrowingTests: XCTestCase {
    /// 100 children of document 5 (ids 100...199) and ten other documents.
    private func documents() throws -> MemoryTable {
        var rows: [[Value]] = (100...199).map { [.integer(Int64($0)), .text("child \($0)"), .integer(5)] }
        rows += (1...10).map { [.integer(Int64($0)), .text("doc \($0)"), .null] }
        return try MemoryTable(name: "documents", columns: ["id", "name", "parent_id"], rows: rows,
                               indexedAttributes: ["id", "parent_id"])
    }

    private func run(_ query: Relation, _ preset: String, disable: [String] = []) throws -> QueryRun {
        try QueryEngine(flags: HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)).run([query])
    }

    /// The select's predicate reaches `documents` through the join first (`parent_id == 5`,
    /// a hundred rows); the join filter from the one-row operand then narrows that edge, so
    /// the table fetches one row. The answer is the same with everything off.
    func testAJoinFilterNarrowsAnEdgeThatAlreadyHasAFilter() throws {
        let table = try documents()
        let query = try Fixtures.literal("wanted", ["id"], [[150]]).join(Relation(source: table))
            .select(Attribute("parent_id") *== .integer(5))
        let on = try run(query, "all-on")
        XCTAssertEqual(on.results[0].asSet, [Row([150, "child 150", 5])])
        XCTAssertEqual(table.rowsDelivered, 1)
        XCTAssertEqual(on.counters.filtersNarrowed, 1)
        XCTAssertEqual(on.counters.joinFiltersBuilt, 1)
        table.resetStatistics()
        let off = try run(query, "all-off")
        XCTAssertEqual(off.results[0].asSet, [Row([150, "child 150", 5])])
        XCTAssertEqual(off.counters.filtersNarrowed, 0)
        XCTAssertEqual(table.rowsDelivered, 110)
    }

    /// `documents` feeds two joins; their join filters are on `id` and on `parent_id`, so its
    /// filter is their OR, which neither index answers alone. It is fetched by two lookups
    /// (each row once), never scanned. (Subtree copying is off: it would give each join its
    /// own copy of the table instead.)
    func testAnOrOfFiltersOnTwoIndexedAttributesIsFetchedByLookups() throws {
        let table = try documents()
        let docs = Relation(source: table)
        let byID = try Fixtures.literal("ids", ["id"], [[3]]).join(docs)
        let byParent = try Fixtures.literal("parents", ["parent_id"], [[5]]).join(docs).project(["id", "name", "parent_id"])
        let query = try byID.union(byParent)
        let result = try run(query, "all-on", disable: ["subtree-copying"])
        XCTAssertEqual(result.results[0].count, 101)
        XCTAssertEqual(table.rowsExamined, 101, "lookups, not a scan of the 110 rows")
        XCTAssertEqual(result.counters.sourceRowsRead, 2 + 101)
        let reference = Set(try ReferenceEvaluator.evaluate(query))
        XCTAssertEqual(Set(result.results[0]), reference)
        XCTAssertEqual(Set(try run(query, "all-off").results[0]), reference)
    }

    /// `MemoryTable.remove(rows:)` finds each row through membership, without a scan, and
    /// keeps indexes and membership right while the last row moves into each gap.
    func testRemovingRowsByValueNeedsNoScan() throws {
        let table = try documents()
        let doomed = try table.fetchAll(filter: Attribute("parent_id") *== .integer(5))
        table.resetStatistics()
        XCTAssertEqual(table.remove(rows: doomed + [Row([999, "absent", 5])]), 100)
        XCTAssertEqual(table.rowsExamined, 0)
        XCTAssertEqual(table.count, 10)
        XCTAssertEqual(try table.fetchAll(filter: Attribute("parent_id") *== .integer(5)), [])
        XCTAssertEqual(try table.lookup("id", 7), [Row([7, "doc 7", .null])])
        XCTAssertTrue(try table.add(Row([150, "back", 5])))
        XCTAssertFalse(try table.add(Row([7, "doc 7", .null])))
        XCTAssertEqual(Set(table.allRows).count, 11)

        // Without an index, membership is the table of row hashes.
        let plain = try MemoryTable(name: "plain", columns: ["a"], rows: (1...50).map { [.integer(Int64($0))] })
        XCTAssertEqual(plain.remove(rows: (1...50).filter { $0 % 2 == 0 }.map { Row([.integer(Int64($0))]) }), 25)
        XCTAssertEqual(Set(plain.allRows), Set((1...50).filter { $0 % 2 == 1 }.map { Row([.integer(Int64($0))]) }))
        XCTAssertFalse(try plain.add(Row([3])))
        XCTAssertTrue(try plain.add(Row([4])))
    }
}
