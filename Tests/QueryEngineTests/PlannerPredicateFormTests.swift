import XCTest
import Relational
@testable import QueryEngine

/// The planner gives every select the predicate its printed query parses to, so a graph
/// built in Swift runs as its query text does.
final class PlannerPredicateFormTests: XCTestCase {
    func testASelectOfFalseAndMoreIsPlannedAsFalse() throws {
        let t = try Fixtures.literal("t", ["a", "b"], [[1, 2], [3, 4]])
        let graph = Planner.plan([try t.select(.and([.false, .and([Attribute("a") *== 1, Attribute("b") *< 9])]))])
        guard case let .apply(.select(predicate)) = graph[graph.outputNodes[0]].operation else { return XCTFail("not a select") }
        XCTAssertEqual(predicate, .false)
    }

    /// The same select written both ways reads the same rows under `all-on`.
    func testBothFormsReadTheSameRows() throws {
        let docs = try Fixtures.documents(200)
        let nested = Predicate.and([.and([Attribute("parent_id") *== 5, .true]), .and([Attribute("id") *> 3])])
        let flat = Predicate.all([Attribute("parent_id") *== 5, Attribute("id") *> 3])
        let engine = QueryEngine(flags: try HeuristicCatalog.standard.preset("all-on"))
        let a = try engine.run([try Relation(source: docs).select(nested)])
        let b = try engine.run([try Relation(source: docs).select(flat)])
        XCTAssertEqual(a.counters.sourceRowsRead, b.counters.sourceRowsRead)
        XCTAssertEqual(a.counters.sourceRowsRead, 1, "the index on parent_id finds the one row")
        XCTAssertEqual(a.results, b.results)
    }
}
