import XCTest
import Relational
@testable import QueryEngine

/// `QueryEngine.rowLimit`: a run whose nodes emit more rows than the limit is stopped with
/// `RunTooLarge`; under the limit, large batches go to the kernels a batch size at a time
/// and the results are unchanged.
final class RowLimitTests: XCTestCase {
    /// A chain of 60 edges: its closure releases 1,830 pairs in one batch when its operand
    /// completes (more than a batch); joined with the 60 edges on nothing in common, a product.
    private func closureProduct() throws -> (query: Relation, closurePairs: Int) {
        let edges = try MemoryTable(name: "edges", columns: ["c", "e"], rows: (0..<60).map { [.integer($0), .integer($0 + 1)] })
        let closure = try Relation(source: edges).closure("e", "c")
        let other = try Relation(source: edges).rename(["c": "a", "e": "b"])
        return (try closure.join(other), 60 * 61 / 2)
    }

    func testARunPastTheLimitIsStopped() throws {
        let (query, pairs) = try closureProduct()
        var engine = try QueryEngine(preset: "all-off")
        engine.rowLimit = 20_000
        XCTAssertThrowsError(try engine.run([query])) { XCTAssertTrue($0 is RunTooLarge, "\($0)") }
        // The closure's pairs were emitted as one batch; the product stopped after a part of them.
        engine.rowLimit = 10 * pairs * 60
        XCTAssertEqual(try engine.run([query]).results[0].count, pairs * 60)
    }

    /// A join whose every probing row matches every stored row: under the limit its parts
    /// are small enough that one cannot make more than the limit, so the run stops a part
    /// after crossing it. A part of a whole batch (1,000 rows here) made the million-row
    /// product at once (held-out hunt seed 194 case 665 at `--rows 3000` asked for 4 GB).
    func testAPartCannotMultiplyPastTheLimit() throws {
        let left = try MemoryTable(name: "l", columns: ["k", "a"], rows: (0..<1000).map { [.integer(0), .integer($0)] })
        let right = try MemoryTable(name: "r", columns: ["k", "b"], rows: (0..<1000).map { [.integer(0), .integer($0)] })
        var engine = try QueryEngine(preset: "all-off")
        engine.rowLimit = 5_000
        XCTAssertThrowsError(try engine.run([try Relation(source: left).join(Relation(source: right))])) { error in
            guard let tooLarge = error as? RunTooLarge else { return XCTFail("\(error)") }
            // The two tables' 2,000 rows, and the part that crossed the limit (5 rows × 1,000).
            XCTAssertLessThanOrEqual(tooLarge.emitted, 2_000 + 5_000)
            XCTAssertGreaterThan(tooLarge.emitted, 5_000)
        }
    }

    /// A closure derives its pairs inside one call, before any is emitted: under the limit
    /// it stops once the pairs it derived pass the limit, and the run is abandoned
    /// (held-out hunt seed 243 case 1823 derived pairs for minutes). A chain of 400 edges
    /// has 80,200 pairs; a complete graph on 60 values derives 60³ pairs for its 3,600.
    func testAClosureStopsOncePastTheLimit() throws {
        let chain = try MemoryTable(name: "chain", columns: ["a", "b"], rows: (0..<400).map { [.integer($0), .integer($0 + 1)] })
        var engine = try QueryEngine(preset: "all-off")
        engine.rowLimit = 2_000
        XCTAssertThrowsError(try engine.run([try Relation(source: chain).closure("a", "b")])) { error in
            guard let tooLarge = error as? RunTooLarge else { return XCTFail("\(error)") }
            // The chain's 400 rows, and the pairs up to the round that crossed the limit.
            XCTAssertGreaterThan(tooLarge.emitted, 2_000)
            XCTAssertLessThanOrEqual(tooLarge.emitted, 400 + 2_000 + 400)
        }
        // Few pairs, much work: 3,600 edges and pairs, but 216,000 derived.
        let complete = try MemoryTable(name: "complete", columns: ["a", "b"],
                                       rows: (0..<3_600).map { [.integer($0 / 60), .integer($0 % 60)] })
        engine.rowLimit = 50_000
        XCTAssertThrowsError(try engine.run([try Relation(source: complete).closure("a", "b")])) { error in
            XCTAssertTrue(error is RunTooLarge, "\(error)")
        }
        engine.rowLimit = 300_000
        XCTAssertEqual(try engine.run([try Relation(source: complete).closure("a", "b")]).results[0].count, 3_600)
        engine.rowLimit = 200_000
        XCTAssertEqual(try engine.run([try Relation(source: chain).closure("a", "b")]).results[0].count, 80_200)
    }

    func testUnderTheLimitResultsAndCountsAreUnchanged() throws {
        let edges = try MemoryTable(name: "edges", columns: ["c", "e"], rows: (0..<120).map { [.integer($0 % 40), .integer($0 % 40 + 1)] })
        let query = try Relation(source: edges).closure("e", "c").select("c" *< 30).join(Relation(source: edges))
        for batchSize in [1, 3, 1024] {
            var limited = try QueryEngine(preset: "all-on")
            limited.batchSize = batchSize
            limited.rowLimit = 1_000_000
            var free = try QueryEngine(preset: "all-on")
            free.batchSize = batchSize
            let a = try limited.run([query]), b = try free.run([query])
            XCTAssertEqual(Set(a.results[0]), Set(b.results[0]), "batch size \(batchSize)")
            XCTAssertEqual(Set(a.results[0]), Set(try ReferenceEvaluator.evaluate(query)))
            XCTAssertEqual(a.counters.sourceRowsRead, b.counters.sourceRowsRead)
            XCTAssertEqual(a.counters.perNode.map(\.rowsOut), b.counters.perNode.map(\.rowsOut))
        }
    }
}
