import Relational
import XCTest
@testable import QueryEngine

/// `select-activation-narrowing`: a select whose parental filter arrives before its own
/// predicate was pushed down gives its operand both. Hunt corpus seed 363 case 1365 at
/// `--rows 300`, rebuilt over other data: `shared = (t1 join t0) select (c == 23) project
/// [d, e]`, `shared_2 = shared select (e < d)`, `(shared intersect shared_2) join t0` and
/// `shared_2` the outputs. Folded, the intersection is `shared_2`; its `e < d` reaches the
/// inner select first, and `c == 23`, which no row of `t0` holds, was left off the product
/// over the shared `t0`: `t1` was read under `e < d` alone.
final class SelectActivationNarrowingTests: HuntCaseTestCase {
    private func tables() throws -> (t0: MemoryTable, t1: MemoryTable) {
        let t0 = try MemoryTable(name: "t0", columns: ["b", "c", "e"], rows: [57, 21, 27, 20, 45].map { (e: Int64) -> [Value] in
            [.integer(e % 7), .integer(e + 1), .integer(e)]
        }, indexedAttributes: ["e"])
        let t1 = try MemoryTable(name: "t1", columns: ["d"], rows: (0..<63).map { [.integer(Int64($0))] })
        return (t0, t1)
    }

    func testTheInnerPredicateReachesTheSharedSource() throws {
        let (t0, t1) = try tables()
        let a = Relation(source: t0), b = Relation(source: t1)
        let shared = try b.join(a).select(Attribute("c") *== 23).project(["d", "e"])
        let shared2 = try shared.select(.comparison(.attribute(Attribute("e")), .less, .attribute(Attribute("d"))))
        let query = try shared.intersection(shared2).join(a)
        XCTAssertEqual(try totalRead(query, [t0, t1], alsoOutput: [shared2]), 0)
        let without = try totalRead(query, [t0, t1], disable: ["select-activation-narrowing"], alsoOutput: [shared2])
        XCTAssertGreaterThan(without, 40, "the fold alone reads t1 under e < d")
        XCTAssertEqual(try totalRead(query, [t0, t1], disable: ["self-operand-folding"], alsoOutput: [shared2]), 0)
    }

    /// Over a shared node between, the filter is left alone: it would be OR-ed there with
    /// the other readers' and passed on. Sixty levels of `aK = (aK-1 project […] select pK)
    /// union aK-1` ran for minutes when it was not (`GrowthBudgetTests` runs them).
    func testASharedNodeBelowTheSelectKeepsTheFilterAsItIs() throws {
        let documents = try Fixtures.documents(20)
        let docs = Relation(source: documents)
        let id = Attribute("id")
        let projected = try docs.project(["id", "name"])
        let chain = try projected.select(id *< 6).union(projected)
        let graph = Planner.plan([try chain.select(id *== 3)])
        guard let select = graph.liveNodeIDs.first(where: {
            if case .apply(.select(id *< 6)) = graph[$0].operation { true } else { false }
        }) else { return XCTFail("no select") }
        XCTAssertFalse(SelectActivationNarrowing.readsAloneAboveSources(graph[select].children[0], graph))
        let alone = Planner.plan([try docs.project(["id", "name"]).select(id *< 6)])
        guard let lone = alone.liveNodeIDs.first(where: {
            if case .apply(.select) = alone[$0].operation { true } else { false }
        }) else { return XCTFail("no select") }
        XCTAssertTrue(SelectActivationNarrowing.readsAloneAboveSources(alone[lone].children[0], alone))
    }

    /// A shared source as the operand is narrowed when the narrowed filter fetches it by an
    /// index and at most half as much. Held-out hunt seed 728 case 1211 at `--rows 300`,
    /// rebuilt over other data: union flattening makes `(shared union shared) select (c ==
    /// 30)` a select straight over the shared `t0` (`shared = t0 join t0`, folded), which the
    /// join above reads too; the weak top filter reached the select first, and `t0` was read
    /// under it, every `seed` flag set too (68 rows where 2 do).
    func testASharedSourceFetchedByAnIndexIsNarrowed() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["c"], rows: (0..<68).map { [.integer(Int64($0))] },
                                 indexedAttributes: ["c"])
        let a = Relation(source: t0), c = Attribute("c")
        let shared = try a.join(a)
        let shared2 = try shared.union(shared).select(c *== 30)
        let query = try shared2.union(shared2.select(c *< 100)).join(shared).rename([c: "a"]).select(Attribute("a") *>= 0)
        XCTAssertEqual(try totalRead(query, [t0]), 2)
        XCTAssertEqual(try totalRead(query, [t0], preset: "seed"), 68)
        XCTAssertEqual(try totalRead(query, [t0], disable: ["select-activation-narrowing"]), 68)
        XCTAssertEqual(try totalRead(query, [t0], disable: ["union-flattening"]), 3)
    }

    /// Without an index the narrowed filter fetches no fewer rows, and the edge is left: the
    /// select would get a copy of the source reading the same rows again.
    func testASharedSourceWithoutAnIndexIsLeft() throws {
        let t0 = try MemoryTable(name: "t0", columns: ["c"], rows: (0..<68).map { [.integer(Int64($0))] })
        let graph = Planner.plan([try Relation(source: t0).select(Attribute("c") *== 30)])
        guard let source = graph.liveNodeIDs.first(where: { graph[$0].operation.isSource }) else { return XCTFail("no source") }
        let weak = Attribute("c") *>= 0
        XCTAssertFalse(SelectActivationNarrowing.fetchesFarFewer(source, .all([Attribute("c") *== 30, weak]), than: weak, graph))
        let indexed = try MemoryTable(name: "t0", columns: ["c"], rows: (0..<68).map { [.integer(Int64($0))] },
                                      indexedAttributes: ["c"])
        let other = Planner.plan([try Relation(source: indexed).select(Attribute("c") *== 30)])
        guard let table = other.liveNodeIDs.first(where: { other[$0].operation.isSource }) else { return XCTFail("no source") }
        XCTAssertTrue(SelectActivationNarrowing.fetchesFarFewer(table, .all([Attribute("c") *== 30, weak]), than: weak, other))
    }
}
