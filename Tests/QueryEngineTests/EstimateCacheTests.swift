import XCTest
import Relational
@testable import QueryEngine

/// Estimates are asked of a source once per (source, filter) in a run, whatever the number
/// of initiator choices, filter changes and copies.
final class EstimateCacheTests: XCTestCase {
    /// A memory table that records every estimate it is asked for.
    final class CountingTable: SourceRelation {
        let table: MemoryTable
        var asked: [Relational.Predicate?] = []
        init(_ table: MemoryTable) { self.table = table }
        var scheme: Scheme { table.scheme }
        var sourceName: String { table.sourceName }
        func makeCursor(filter: Relational.Predicate?) throws -> any RowCursor { try table.makeCursor(filter: filter) }
        func canFetchSelectively(_ filter: Relational.Predicate) -> Bool { table.canFetchSelectively(filter) }
        func estimatedCount(filter: Relational.Predicate?) -> Int? {
            asked.append(filter)
            return table.estimatedCount(filter: filter)
        }
    }

    func testEachSourceAndFilterIsEstimatedOncePerRun() throws {
        let documents = CountingTable(try Fixtures.documents(200))
        let docs = Relation(source: documents)
        let selected = CountingTable(try MemoryTable(name: "selected", columns: ["id"], rows: [[5], [17], [33]]))
        let others = CountingTable(try MemoryTable(name: "others", columns: ["id"], rows: (1...40).map { [.integer($0)] }))
        // documents is shared three ways (copied under all-on); several initiators compete.
        let chosen = try Relation(source: selected).union(Relation(source: others).select("id" *< 4)).join(docs)
        let parents = try chosen.project(["parent_id"]).rename(["parent_id": "id"]).join(docs)
        let siblings = try chosen.project(["parent_id"]).join(docs)
        let run = try QueryEngine(preset: "all-on").run([parents, siblings])
        XCTAssertGreaterThan(run.counters.subtreesCopied, 0)
        for table in [documents, selected, others] {
            // The planner asks once for the unfiltered size (the node's approximate count).
            let duringRun = Array(table.asked.dropFirst())
            XCTAssertEqual(duringRun.count, Set(duringRun.map { $0.map(\.description) ?? "nil" }).count,
                           "\(table.sourceName) asked twice for one filter: \(duringRun)")
        }
        let askedDuringRun = [documents, selected, others].reduce(0) { $0 + $1.asked.count - 1 }
        XCTAssertEqual(run.counters.estimatesAsked, askedDuringRun)
        XCTAssertGreaterThan(askedDuringRun, 3)
        XCTAssertEqual(try ReferenceEvaluator.evaluate(parents).asSet, run.results[0].asSet)
        XCTAssertEqual(try ReferenceEvaluator.evaluate(siblings).asSet, run.results[1].asSet)
    }
}
