import XCTest
import Relational
@testable import QueryEngine

final class UnionFlatteningTests: XCTestCase {
    private func source(_ name: String, _ values: [Int64]) throws -> Relation {
        try Fixtures.literal(name, ["x"], values.map { [.integer($0)] })
    }

    private func optimize(_ outputs: [Relation]) throws -> (PlanGraph, [PassReport]) {
        var graph = Planner.plan(outputs)
        let passes = UnionFlattening(maxOperands: 10, maxParents: 10).optimizerPasses
        let reports = try OptimizerPipeline(passes: passes).run(&graph)
        return (graph, reports)
    }

    func testSingleOperandUnionIsRemovedAndCollected() throws {
        let a = try source("a", [1, 2])
        let doubled = try a.union(a)
        let query = try doubled.select(Attribute("x") *== 1)
        let (graph, reports) = try optimize([query])
        XCTAssertEqual(reports.first { $0.name == "single-operand-union-elimination" }?.changes, 1)
        XCTAssertEqual(reports.first { $0.name == "orphan-collection" }?.changes, 1)
        XCTAssertFalse(graph.liveNodeIDs.contains { graph[$0].operation.isUnion })
        let select = graph.outputNodes[0]
        XCTAssertTrue(graph[graph[select].children[0]].operation.isSource)
    }

    func testNestedUnionsFoldIntoTheirUnionParent() throws {
        let parts = try (1...4).map { try source("s\($0)", [$0]) }
        let inner = try parts[0].union(parts[1]).union(parts[2])
        let outer = try inner.union(parts[3])
        let (graph, _) = try optimize([outer])
        let unions = graph.liveNodeIDs.filter { graph[$0].operation.isUnion }
        XCTAssertEqual(unions, [graph.outputNodes[0]])
        XCTAssertEqual(Set(graph[unions[0]].children).count, 4)
        let run = try QueryEngine(preset: "all-on").run([outer])
        XCTAssertEqual(run.results[0].asSet, try ReferenceEvaluator.evaluate(outer).asSet)
        XCTAssertEqual(run.counters.nodesPlanned, 7)
        XCTAssertEqual(run.counters.nodesAfterOptimization, 5)
    }

    func testUnionsFeedingOutputsAreKept() throws {
        let a = try source("a", [1])
        let b = try source("b", [2])
        let inner = try a.union(b)
        let outer = try inner.union(a)
        let (graph, _) = try optimize([outer, inner])
        XCTAssertEqual(graph.liveNodeIDs.filter { graph[$0].operation.isUnion }.count, 2)
        XCTAssertNoThrow(try graph.validate(after: "test"))
    }

    func testFoldingRespectsTheOperandLimit() throws {
        let parts = try (1...6).map { try source("s\($0)", [$0]) }
        let inner = try parts[0].union(parts[1]).union(parts[2]).union(parts[3])
        let outer = try inner.union(parts[4]).union(parts[5])
        func unionsLeft(maxOperands: Int) throws -> Int {
            var graph = Planner.plan([outer])
            let passes = UnionFlattening(maxOperands: maxOperands, maxParents: 10).optimizerPasses
            _ = try OptimizerPipeline(passes: passes).run(&graph)
            return graph.liveNodeIDs.filter { graph[$0].operation.isUnion }.count
        }
        // The limit applies to operand counts before a fold, as in the seed: every union has
        // two operands, so a limit of 1 folds nothing and 10 folds the chain into one.
        XCTAssertEqual(try unionsLeft(maxOperands: 1), 5)
        XCTAssertEqual(try unionsLeft(maxOperands: 10), 1)
    }

    /// The pipeline validates after every pass, so a pass that breaks the graph is named.
    func testPipelineCatchesABrokenPass() throws {
        struct DropsAnOutput: OptimizerPass {
            let name = "drops-an-output"
            func run(_ graph: inout PlanGraph) -> Int {
                graph.kill(graph.outputNodes[0])
                return 1
            }
        }
        var graph = Planner.plan([try source("a", [1]).union(try source("b", [2]))])
        XCTAssertThrowsError(try OptimizerPipeline(passes: [DropsAnOutput()]).run(&graph)) { error in
            XCTAssertTrue("\(error)".contains("after pass drops-an-output"), "\(error)")
        }
    }

    func testDisabledPassIsSkippedByName() throws {
        let a = try source("a", [1])
        var graph = Planner.plan([try a.union(a).select(Attribute("x") *== 1)])
        let pipeline = OptimizerPipeline(
            passes: UnionFlattening(maxOperands: 10, maxParents: 10).optimizerPasses,
            disabledPasses: ["single-operand-union-elimination"])
        let reports = try pipeline.run(&graph)
        XCTAssertEqual(reports.map(\.name), ["nested-union-folding", "orphan-collection"])
        XCTAssertTrue(graph.liveNodeIDs.contains { graph[$0].operation.isUnion })
    }
}
