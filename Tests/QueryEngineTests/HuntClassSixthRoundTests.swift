import XCTest
import Relational
@testable import QueryEngine

/// Issue 15, sixth round: the classes of the last cases over 4× (seeds 15 and 16), hand-built
/// from the hunted ones: rows the `things` table (10 rows, `id` indexed) delivered.
final class HuntClassSixthRoundTests: HuntCaseTestCase {
    /// One row, `id = 3`.
    private func pick() throws -> Relation {
        Relation(source: try MemoryTable(name: "pick", columns: ["id"], rows: [[.integer(3)]])).named("pick")
    }

    /// Seed 15 case 449: `shared` under both operands of a self-join filtered by a one-row
    /// table, and under the output's union. The seed's `subtree-copying` copies `shared` for
    /// each operand of the join (criterion 2: the union has not provided), but the union
    /// never gets a filter, so the original is read whole besides: 12 rows. `late-subtree-
    /// copying` vetoes both copies: 10.
    func testNoCopyOfANodeAnOutputReadsWhole() throws {
        let things = try things(indexed: true)
        let shared = Relation(source: things)
        let query = try shared.join(shared).join(pick()).union(shared)
        XCTAssertEqual(try rowsRead(query, things, preset: "seed"), 12)
        // (`self-operand-folding`, off here, folds the self-join away: 11 rows without the veto.)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-subtree-copying", "self-operand-folding"]), 12)
        XCTAssertEqual(try rowsRead(query, things), 10)
    }

    /// A self-join's operands are its only waiting parents: the seed copies `shared` for
    /// the first, and the copy and the original each read the row the join's key filter
    /// asks for. Vetoed, `shared` hears the same filter from both edges and reads it once.
    func testNoCopyForASelfJoinThatGivesBothOperandsTheSameFilter() throws {
        let things = try things(indexed: true)
        let shared = Relation(source: things)
        let query = try shared.join(shared).join(pick())
        XCTAssertEqual(try rowsRead(query, things, preset: "seed"), 2)
        // (`self-operand-folding`, off here, folds the self-join away: 1 row without the veto.)
        XCTAssertEqual(try rowsRead(query, things, disable: ["late-subtree-copying", "self-operand-folding"]), 2)
        XCTAssertEqual(try rowsRead(query, things), 1)
    }

    /// Seed 16 case 525: the empty side of a join narrows the other side's filter to `false`
    /// down to a closure, which cannot rewrite it for its operand and read every edge.
    /// `late-filter-narrowing` gives the closure's operand `false`.
    func testAClosureFilteredToNothingReadsNothing() throws {
        let links = try MemoryTable(name: "links", columns: ["a", "e"],
                                    rows: (1...10).map { [.integer($0), .integer($0 + 1)] }, indexedAttributes: ["e"])
        let none = try MemoryTable(name: "none", columns: ["b", "e"], rows: [])
        let query = try Relation(source: none).join(Relation(source: links).closure("a", "e").select(.true))
        XCTAssertEqual(try rowsRead(query, links, preset: "seed"), 10)
        XCTAssertEqual(try rowsRead(query, links, disable: ["late-filter-narrowing"]), 10)
        XCTAssertEqual(try rowsRead(query, links), 0)
    }

    /// Seed 16 case 1842: `shared = big join tiny` under a large join's union side and under
    /// an intersection with that join. Once `tiny`'s keys give `big` an estimate of 0, the
    /// large join's pair deferred `big` behind its 15-row side (`filter-aware-ordering`),
    /// which was read whole. A source estimated to deliver nothing, or whose rows would stop
    /// at a join still waiting on its other operand, is no longer deferred: drained, they
    /// complete `shared` empty and the intersection's filter keeps the rest unread. (Under
    /// `seed` the 15-row side is drained after `tiny`.)
    func testASourceEstimatedEmptyIsNotDeferred() throws {
        func table(_ name: String, _ rows: [[Value]], indexed: [Attribute] = []) throws -> MemoryTable {
            try MemoryTable(name: name, columns: ["a", "d"], rows: rows, indexedAttributes: indexed)
        }
        let tiny = try table("tiny", [[1, 100], [2, 200]])
        let big = try table("big", (1...30).map { [.integer($0), .integer($0)] }, indexed: ["a", "d"])
        let side = try table("side", (1...15).map { [.integer($0), .integer($0)] })
        let other = try table("other", (31...60).map { [.integer($0), .integer($0)] })
        let shared = try Relation(source: big).join(Relation(source: tiny))
        let query = try Relation(source: side).join(shared.union(Relation(source: other))).intersection(shared)
        func read(_ preset: String, _ disable: [String] = []) throws -> Int {
            for t in [tiny, big, side, other] { t.resetStatistics() }
            let run = try QueryEngine(flags: try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)).run([query])
            let read = [tiny, big, side, other].reduce(0) { $0 + $1.rowsDelivered }
            XCTAssertEqual(Set(run.results[0]), Set(try ReferenceEvaluator.evaluate(query)), "\(preset) -\(disable)")
            return read
        }
        XCTAssertEqual(try read("seed"), 17)
        XCTAssertEqual(try read("all-on"), 2)
    }
}
