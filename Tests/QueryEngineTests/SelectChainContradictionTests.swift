import Relational
import XCTest
@testable import QueryEngine

/// `select-pushdown` over a chain of selects on a shared source, where an outer select's
/// filter reaches the chain first: each inner select's predicate then narrows the edge only
/// over a tree it reads alone, so predicates that contradict only together (`id == 58` and
/// `id < 45`) were each left off, and the shared source was read under the outer filter
/// alone. The predicates of the selects above count in the contradiction test. Issue 15,
/// hunt corpus seed 422 case 1937 at `--rows 300` (93 rows read against 2).
final class SelectChainContradictionTests: XCTestCase {
    func testAChainWhosePredicatesContradictTogetherReadsNothingOfASharedSource() throws {
        let documents = try Fixtures.documents(100)
        let docs = Relation(source: documents)
        let id = Attribute("id"), parent = Attribute("parent_id")
        // The outer `parent_id < id` reaches the chain first; it is no key the index answers.
        let chain = try docs.select(id *== 58).select(id *< 45).select(.comparison(.attribute(parent), .less, .attribute(id)))
        let selected = try Fixtures.literal("selected", ["id"], [[.integer(5)]])
        let lookup = try selected.join(docs)
        for preset in ["seed", "all-on"] {
            let run = try QueryEngine(preset: preset).run([chain, lookup])
            XCTAssertTrue(run.results[0].isEmpty, preset)
            XCTAssertEqual(run.results[1].count, 1, preset)
            // The one selected row and the document it keys; the chain's edge is `false`.
            XCTAssertEqual(run.counters.sourceRowsRead, 2, preset)
            XCTAssertEqual(Fixtures.rowsDelivered(by: "documents", in: run), 1, preset)
        }
    }

    /// Only selects straight above, each the only reader of the one below, count: a select
    /// whose operand another node also reads gives nothing to the test.
    func testPredicatesAboveStopAtASharedSelect() throws {
        let documents = try Fixtures.documents(10)
        let docs = Relation(source: documents)
        let id = Attribute("id")
        let inner = try docs.select(id *== 3)
        let outer = try inner.select(id *< 5).select(id *> 1)
        let graph = Planner.plan([outer, try inner.project(["id"])])
        guard let innerID = graph.liveNodeIDs.first(where: {
            if case .apply(.select(id *== 3)) = graph[$0].operation { true } else { false }
        }) else { return XCTFail("no inner select") }
        XCTAssertEqual(SelectPushdown.predicatesAbove(innerID, graph), [])
        let single = Planner.plan([outer])
        guard let soleID = single.liveNodeIDs.first(where: {
            if case .apply(.select(id *== 3)) = single[$0].operation { true } else { false }
        }) else { return XCTFail("no inner select") }
        XCTAssertEqual(SelectPushdown.predicatesAbove(soleID, single), [id *< 5, id *> 1])
    }
}
