import Relational
import XCTest
@testable import QueryEngine

/// The runner's generic path checks the engine's invariants when asked, whatever the
/// operator: rows never arrive on an operand that completed, and a node never emits a row
/// twice. Both are driven by hand here, since a correct engine never breaks them.
final class EngineInvariantTests: XCTestCase {
    private func renameRunner(checked: Bool) throws -> (Runner, source: NodeID, edge: Edge) {
        let t = Relation(source: try MemoryTable(name: "t", columns: ["a"], rows: [[1], [2]]))
        let graph = Planner.plan([try t.rename(["a": "b"])])
        let runner = try Runner(graph: graph, heuristics: [], counters: RunCounters(), batchSize: 10, checkInvariants: checked)
        let rename = graph.outputNodes[0]
        return (runner, graph[rename].children[0], Edge(parent: rename, operand: 0))
    }

    func testARowEmittedTwiceIsReported() throws {
        let (runner, _, edge) = try renameRunner(checked: true)
        runner.receive([Row([1])], along: edge)
        XCTAssertNil(runner.invariantViolation)
        runner.receive([Row([2]), Row([1])], along: edge)
        XCTAssertEqual(runner.invariantViolation, "node \(edge.parent) (rename(a -> b)) emitted the row (1) twice")
    }

    func testRowsOnACompletedOperandAreReported() throws {
        let (runner, source, edge) = try renameRunner(checked: true)
        runner.markComplete(source)
        runner.receive([Row([1])], along: edge)
        XCTAssertEqual(runner.invariantViolation,
                       "node \(edge.parent) (rename(a -> b)) received 1 row(s) on operand 0 after it completed")
    }

    func testUncheckedRunsDoNotLook() throws {
        let (runner, source, edge) = try renameRunner(checked: false)
        runner.receive([Row([1])], along: edge)
        runner.markComplete(source)
        runner.receive([Row([1])], along: edge)
        XCTAssertNil(runner.invariantViolation)
    }

    func testABrokenInvariantFailsTheRun() throws {
        let (runner, _, edge) = try renameRunner(checked: true)
        runner.receive([Row([1])], along: edge)
        // The drain delivers (1) again: the run stops with the invariant's message.
        XCTAssertThrowsError(try runner.run()) { error in
            XCTAssertTrue("\(error)".contains("engine invariant broken"), "\(error)")
            XCTAssertTrue("\(error)".contains("emitted the row (1) twice"), "\(error)")
        }
    }

    func testCheckedRunsOfCorrectQueriesPass() throws {
        let documents = try Fixtures.documents(50)
        let docs = Relation(source: documents)
        let selected = try Fixtures.literal("selected", ["id"], [[13]])
        let parent = try selected.join(docs).project(["parent_id"]).rename(["parent_id": "id"]).join(docs)
        let query = try parent.union(try docs.select(Attribute("id") *<= 3).intersection(docs)).difference(selected.join(docs))
        for preset in ["all-on", "all-off"] {
            let graph = Planner.plan([query])
            let heuristics = HeuristicCatalog.standard.instantiate(try HeuristicCatalog.standard.preset(preset))
            let runner = try Runner(graph: graph, heuristics: heuristics, counters: RunCounters(), batchSize: 7, checkInvariants: true)
            let rows = try runner.run()[0]
            XCTAssertEqual(rows.sorted(), try query.rows().sorted(), preset)
        }
    }
}
