import XCTest
import Relational
@testable import QueryEngine

/// The mechanisms hold their invariants whatever a heuristic asks: copies of started or
/// complete subtrees are refused, parent counts never go below zero, nodes never emit a row
/// twice, no rows arrive on a complete operand, and the graph is validated around every
/// pass. Checked mode turns a broken invariant into a failed run.
final class EngineInvariantTests: XCTestCase {
    /// Test only: once a join has an operand complete, asks to copy that (finished) operand.
    final class CopiesFinishedOperands: Heuristic {
        static let on = FlagKey<Bool>("copy-finished-operands")
        static let flags = [FlagSpec(name: on.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
                                     meaning: "test only: asks for copies of complete subtrees")]
        static func make(_ flags: FlagSet) -> CopiesFinishedOperands? { flags.isOn(on) ? .init() : nil }
        func operandCompleted(_ edge: Edge, run: any RunnerContext) {
            guard case .apply(.join) = run.graph[edge.parent].operation else { return }
            run.copySubtree(along: edge)
        }
    }

    private func engine(checked: Bool) throws -> QueryEngine {
        let catalog = HeuristicCatalog(HeuristicCatalog.standard.heuristics + [CopiesFinishedOperands.self])
        var engine = QueryEngine(flags: try catalog.flagSet(preset: "all-off", enable: ["copy-finished-operands"]), catalog: catalog)
        engine.checked = checked
        return engine
    }

    private func query() throws -> Relation {
        let documents = try Fixtures.documents(30)
        // The empty side completes without ever receiving a row: complete, not started.
        let none = try Fixtures.literal("none", ["id"], []).project(["id"])
        let some = try Fixtures.literal("some", ["id"], [[3], [4]])
        return try some.union(none).join(Relation(source: documents))
    }

    func testTestsRunCheckedByDefault() {
        XCTAssertTrue(EngineChecks.enabledByDefault)
        XCTAssertTrue(QueryEngine(flags: FlagSet(values: [:], specs: [])).checked)
    }

    func testACopyOfAFinishedSubtreeIsRefusedAndFailsACheckedRun() throws {
        let q = try query()
        let expected = try ReferenceEvaluator.evaluate(q).asSet
        let unchecked = try engine(checked: false).run([q])
        XCTAssertEqual(unchecked.results[0].asSet, expected)
        XCTAssertEqual(unchecked.counters.subtreesCopied, 0)
        XCTAssertGreaterThan(unchecked.counters.startedCopiesRefused, 0)
        XCTAssertThrowsError(try engine(checked: true).run([q])) { error in
            let text = "\(error)"
            XCTAssertTrue(error is EngineInvariantError, text)
            XCTAssertTrue(text.contains("copy requested along"), text)
            XCTAssertTrue(text.contains("has started") || text.contains("is complete"), text)
        }
    }

    func testACompleteButUnstartedNodeCountsAsBusy() throws {
        let none = try Fixtures.literal("none", ["id"], [])
        let projected = try none.project(["id"])
        let graph = Planner.plan([try projected.union(Fixtures.literal("x", ["id"], [[1]]))])
        let runner = try Runner(graph: graph, heuristics: [], counters: RunCounters(), batchSize: 8, checked: true)
        let project = try XCTUnwrap(graph.liveNodeIDs.first { if case .apply(.project) = graph[$0].operation { true } else { false } })
        runner.runtimes[project].complete = true  // as after its operand delivered no rows
        XCTAssertFalse(runner.runtimes[project].started)
        XCTAssertNil(runner.copySubtree(along: graph[project].parents[0]))
        XCTAssertEqual(runner.counters.startedCopiesRefused, 1)
        XCTAssertEqual(runner.graph.nodes.count, graph.nodes.count, "graph unchanged")
        XCTAssertEqual(runner.violations.count, 1)
        XCTAssertTrue(runner.violations[0].contains("is complete"), runner.violations[0])
    }

    func testAParentCountNeverGoesBelowZero() throws {
        let graph = Planner.plan([try Fixtures.literal("t", ["id"], [[1]]).select("id" *== 1)])
        let runner = try Runner(graph: graph, heuristics: [], counters: RunCounters(), batchSize: 8, checked: false)
        let select = graph.outputNodes[0]
        let source = graph[select].children[0]
        runner.runtimes[source].remainingParents = 0
        runner.provideFilter("id" *== 1, along: Edge(parent: select, operand: 0))
        XCTAssertEqual(runner.runtimes[source].remainingParents, 0)
        XCTAssertThrowsError(try runner.run()) { error in
            XCTAssertTrue("\(error)".contains("no parent left waiting"), "\(error)")
        }
    }

    /// A source breaking its contract (a row twice) is caught by checked mode only.
    final class RepeatingSource: SourceRelation {
        let scheme: Scheme
        let sourceName = "repeating"
        init() throws { scheme = try Scheme(["id"]) }
        func makeCursor(filter: Relational.Predicate?) throws -> any RowCursor { ArrayCursor([Row([1]), Row([2]), Row([1])]) }
        func canFetchSelectively(_ filter: Relational.Predicate) -> Bool { false }
        func estimatedCount(filter: Relational.Predicate?) -> Int? { 3 }
    }

    func testANodeEmittingARowTwiceFailsACheckedRun() throws {
        let q = Relation(source: try RepeatingSource())
        var engine = try QueryEngine(preset: "all-off")
        engine.checked = false
        XCTAssertEqual(try engine.run([q]).results[0].count, 3)
        engine.checked = true
        XCTAssertThrowsError(try engine.run([q])) { error in
            XCTAssertTrue("\(error)".contains("emitted row [1] twice") || "\(error)".contains("emitted row"), "\(error)")
        }
    }

    func testRowsOnACompleteOperandAreAViolation() throws {
        let graph = Planner.plan([try Fixtures.literal("t", ["id"], [[1]]).select("id" *== 1)])
        let runner = try Runner(graph: graph, heuristics: [], counters: RunCounters(), batchSize: 8, checked: true)
        let select = graph.outputNodes[0]
        runner.runtimes[select].operandComplete[0] = true
        runner.emit(graph[select].children[0], [Row([1])])
        XCTAssertEqual(runner.violations, ["rows arrived on operand 0 of node \(select) after it was complete"])
    }

    func testTheGraphIsValidatedBeforeTheFirstPass() throws {
        var graph = Planner.plan([try Fixtures.literal("t", ["id"], [[1]]).select("id" *== 1)])
        graph.nodes[graph.outputNodes[0]].outputs = []  // output no longer reachable
        XCTAssertThrowsError(try OptimizerPipeline(passes: [], validate: true).run(&graph)) { error in
            XCTAssertTrue("\(error)".contains("before the first optimizer pass"), "\(error)")
        }
        XCTAssertNoThrow(try OptimizerPipeline(passes: [], validate: false).run(&graph))
    }

    // The generic path: every operator's rows leave through `emit`, where checked runs look.

    private func renameRunner(checked: Bool) throws -> (Runner, source: NodeID, rename: NodeID) {
        let t = Relation(source: try MemoryTable(name: "t", columns: ["a"], rows: [[1], [2]]))
        let graph = Planner.plan([try t.rename(["a": "b"])])
        let runner = try Runner(graph: graph, heuristics: [], counters: RunCounters(), batchSize: 10, checked: checked)
        let rename = graph.outputNodes[0]
        return (runner, graph[rename].children[0], rename)
    }

    func testARowEmittedTwiceIsReported() throws {
        let (runner, source, rename) = try renameRunner(checked: true)
        runner.emit(source, [Row([1])])
        XCTAssertEqual(runner.violations, [])
        runner.emit(source, [Row([2]), Row([1])])
        XCTAssertEqual(runner.violations.count, 2, "\(runner.violations)")  // the source and the rename repeat (1)
        XCTAssertTrue(runner.violations.contains { $0.contains("node \(rename) (rename(a -> b)) emitted row") }, "\(runner.violations)")
    }

    func testRowsOnACompletedOperandAreReported() throws {
        let (runner, source, rename) = try renameRunner(checked: true)
        runner.markComplete(source)
        runner.emit(source, [Row([1])])
        XCTAssertTrue(runner.violations.contains("rows arrived on operand 0 of node \(rename) after it was complete"),
                      "\(runner.violations)")
    }

    func testUncheckedRunsDoNotLook() throws {
        let (runner, source, _) = try renameRunner(checked: false)
        runner.emit(source, [Row([1])])
        runner.markComplete(source)
        runner.emit(source, [Row([1])])
        XCTAssertEqual(runner.violations, [])
    }

    func testABrokenInvariantFailsTheRun() throws {
        let (runner, source, _) = try renameRunner(checked: true)
        runner.emit(source, [Row([1])])
        // The drain delivers (1) again: the run stops with the invariant's message.
        XCTAssertThrowsError(try runner.run()) { error in
            XCTAssertTrue(error is EngineInvariantError, "\(error)")
            XCTAssertTrue("\(error)".contains("twice"), "\(error)")
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
            let runner = try Runner(graph: graph, heuristics: heuristics, counters: RunCounters(), batchSize: 7, checked: true)
            let rows = try runner.run()[0].rows
            XCTAssertEqual(rows.sorted(), try query.rows().sorted(), preset)
        }
    }
}
