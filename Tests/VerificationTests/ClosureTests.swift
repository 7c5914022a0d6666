import QueryEngine
import Relational
import SQLiteStore
import XCTest
@testable import Verification

/// `closure [a -> b]` on graphs of every shape: the engine under every flag combination of
/// the tests' grid (closure-seeding on and off among them), the reference evaluator and
/// SQLite's WITH RECURSIVE agree, with and without a filter that seeds the closure; and
/// the counters show what a seeded closure reads.
final class ClosureTests: XCTestCase {
    typealias Edges = [[Value]]

    /// Small graphs, each named by what it exercises (values of edges (a, b)).
    static let graphs: [(name: String, edges: Edges)] = [
        ("chain", (1...6).map { [.integer(Int64($0)), .integer(Int64($0 + 1))] }),
        ("star", (2...7).map { [1, .integer(Int64($0))] }),
        ("balanced tree", (2...15).map { [.integer(Int64($0 / 2)), .integer(Int64($0))] }),
        ("DAG with shared descendants", [[1, 2], [1, 3], [2, 4], [3, 4], [4, 5], [4, 6], [6, 7], [5, 7]]),
        ("cycle", [[1, 2], [2, 3], [3, 4], [4, 1], [4, 5]]),
        ("self-loops", [[1, 1], [1, 2], [2, 2], [3, 3]]),
        ("null endpoints", [[1, nil], [nil, 2], [2, 3], [nil, nil], [4, nil]]),
        ("mixed values", [["x", 1], [1, 2.5], [2.5, "x"], [.blob([1]), "x"]]),
        ("empty", []),
    ]

    /// Hand-checked closures for two graphs, so the agreement below is not only with itself.
    func testHandCheckedClosures() throws {
        let chain = try Tables.make("e", ["a", "b"], [[1, 2], [2, 3], [3, 4]]).closure("a", "b")
        XCTAssertEqual(Set(try chain.rows()), [Row([1, 2]), Row([2, 3]), Row([3, 4]), Row([1, 3]), Row([2, 4]), Row([1, 4])])
        // null → null closes like any value: (1, null), (null, null), (null, 2) give (1, 2), (1, null), (null, 2).
        let nulls = try Tables.make("e", ["a", "b"], [[1, nil], [nil, nil], [nil, 2]]).closure("a", "b")
        XCTAssertEqual(Set(try nulls.rows()), [Row([1, nil]), Row([nil, nil]), Row([nil, 2]), Row([1, 2])])
        let cycle = try Tables.make("e", ["a", "b"], [[1, 2], [2, 1]]).closure("a", "b")
        XCTAssertEqual(Set(try cycle.rows()), [Row([1, 2]), Row([2, 1]), Row([1, 1]), Row([2, 2])])
        let run = try QueryEngine(preset: "all-on").run([nulls, cycle])
        XCTAssertEqual(Set(run.results[0]), Set(try nulls.rows()))
        XCTAssertEqual(Set(run.results[1]), Set(try cycle.rows()))
    }

    /// Queries over one edge table: the whole closure; seeded forwards (a filter or a join
    /// on `a`), backwards (on `b`); the closure reversed (`b -> a`); one under a rename.
    static func queries(_ e: Relation) throws -> [Relation] {
        let forward = try e.closure("a", "b")
        let starts = Relation(source: try MemoryTable(name: "starts", columns: ["a"], rows: [[1], [nil]]))
        return [
            forward,
            try forward.select(Attribute("a") *== 1),
            try forward.select(Attribute("b") *== 4),
            try forward.select(Attribute("a") *== .null),
            try starts.join(forward),
            try e.closure("b", "a").select(Attribute("b") *== 2),
            try e.rename(["a": "x", "b": "y"]).closure("x", "y").select(Attribute("x") *== 2 *|| Attribute("x") *== 3),
        ]
    }

    func testEngineReferenceAndSQLiteAgreeOnEveryShapeUnderEveryFlagSet() throws {
        let flagSets = try FlagGrid.tests().flagSets()
        XCTAssertTrue(flagSets.contains { $0.isOn(ClosureSeeding.seeding) })
        XCTAssertTrue(flagSets.contains { !$0.isOn(ClosureSeeding.seeding) })
        for (name, edges) in Self.graphs {
            for indexed in [[], ["a"], ["a", "b"]] as [[Attribute]] {
                let e = try Tables.make("e", ["a", "b"], edges, indexed: indexed)
                let queries = try Self.queries(e)
                let reference = try queries.map { Set(try ReferenceEvaluator.evaluate($0)) }
                let db = try SQLiteDatabase.inMemory()
                for (i, q) in queries.enumerated() {
                    let sql = try db.evaluate(q)
                    XCTAssertEqual(Set(sql), reference[i], "\(name) query \(i) in SQLite")
                    XCTAssertEqual(sql.count, reference[i].count, "\(name) query \(i): SQLite duplicates")
                }
                for flags in flagSets {
                    let run = try QueryEngine(flags: flags).run(queries)
                    for i in queries.indices {
                        XCTAssertEqual(Set(run.results[i]), reference[i], "\(name) indexed \(indexed) query \(i) \(flags)")
                        XCTAssertEqual(run.results[i].count, reference[i].count, "\(name) query \(i): duplicates")
                    }
                }
            }
        }
    }

    /// The same closures over an SQLite edge table: seeded fetches become indexed queries.
    func testSQLiteEdgeTableSeededAndWhole() throws {
        let db = try SQLiteDatabase.inMemory()
        let table = try db.createTable("e", scheme: try Scheme(["a", "b"]), indexes: [["a"], ["b"]])
        _ = try table.add((1...30).map { Row([.integer(Int64($0)), .integer(Int64($0 + 1))]) } + [Row([31, 1])])
        let e = Relation(source: table)
        for q in try Self.queries(e) {
            let reference = Set(try ReferenceEvaluator.evaluate(q))
            XCTAssertEqual(Set(try db.evaluate(q)), reference)
            for preset in ["all-on", "seed", "all-off"] {
                XCTAssertEqual(Set(try QueryEngine(preset: preset).run([q]).results[0]), reference, preset)
            }
        }
    }

    /// A chain 0 → 1 → … → 100: seeded from 90, the closure reads only the ten edges on the
    /// way (one per round, and an empty last round), where the whole closure reads 100.
    func testSeededClosureReadsOnlyFrontierRows() throws {
        let edges: Edges = (0..<100).map { [.integer(Int64($0)), .integer(Int64($0 + 1))] }
        let e = try Tables.make("e", ["a", "b"], edges, indexed: ["a", "b"])
        let query = try e.closure("a", "b").select(Attribute("a") *== 90)
        let want = Set((91...100).map { Row([90, .integer(Int64($0))]) })

        let seeded = try QueryEngine(preset: "all-on").run([query])
        XCTAssertEqual(Set(seeded.results[0]), want)
        XCTAssertEqual(seeded.counters.sourceRowsRead, 10)
        XCTAssertEqual(seeded.counters.onDemandRoundRows, Array(repeating: 1, count: 10) + [0])
        XCTAssertEqual(seeded.counters.filteredFetches, 11)

        for flags in [try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["closure-seeding"]),
                      try HeuristicCatalog.standard.preset("seed"), try HeuristicCatalog.standard.preset("all-off")] {
            let whole = try QueryEngine(flags: flags).run([query])
            XCTAssertEqual(Set(whole.results[0]), want, "\(flags)")
            XCTAssertEqual(whole.counters.sourceRowsRead, 100, "\(flags)")
            XCTAssertEqual(whole.counters.onDemandRoundRows, [], "\(flags)")
        }
    }

    /// A filter on `b` seeds the search backwards when the source can fetch by `b`, and
    /// leaves the closure whole when it cannot.
    func testFilterOnTheEndSeedsBackwardsOnlyWithAnIndex() throws {
        let edges: Edges = (0..<100).map { [.integer(Int64($0)), .integer(Int64($0 + 1))] }
        let want = Set((0...4).map { Row([.integer(Int64($0)), 5]) })
        let indexed = try Tables.make("e", ["a", "b"], edges, indexed: ["a", "b"]).closure("a", "b").select(Attribute("b") *== 5)
        let run = try QueryEngine(preset: "all-on").run([indexed])
        XCTAssertEqual(Set(run.results[0]), want)
        XCTAssertEqual(run.counters.onDemandRoundRows, [1, 1, 1, 1, 1, 0])
        XCTAssertEqual(run.counters.sourceRowsRead, 5)

        let unindexed = try Tables.make("e", ["a", "b"], edges, indexed: ["a"]).closure("a", "b").select(Attribute("b") *== 5)
        let whole = try QueryEngine(preset: "all-on").run([unindexed])
        XCTAssertEqual(Set(whole.results[0]), want)
        XCTAssertEqual(whole.counters.onDemandRoundRows, [])
        XCTAssertEqual(whole.counters.sourceRowsRead, 100)
    }

    /// The edge table is shared with another use: seeding copies the table node for the
    /// closure (one node), and the other use still gets every row it needs.
    func testSharedEdgeSourceIsCopiedForTheClosure() throws {
        let e = try Tables.make("e", ["a", "b"], (0..<50).map { [.integer(Int64($0)), .integer(Int64($0 + 1))] }, indexed: ["a", "b"])
        let seeded = try e.closure("a", "b").select(Attribute("a") *== 45)
        let other = try e.select(Attribute("b") *== 3)
        let run = try QueryEngine(preset: "all-on").run([seeded, other])
        XCTAssertEqual(Set(run.results[0]), Set((46...50).map { Row([45, .integer(Int64($0))]) }))
        XCTAssertEqual(Set(run.results[1]), [Row([2, 3])])
        XCTAssertEqual(run.counters.nodesCopied, 1)
        XCTAssertEqual(run.counters.onDemandRoundRows, [1, 1, 1, 1, 1, 0])
        // Five edges for the closure, one for the select.
        XCTAssertEqual(run.counters.sourceRowsRead, 6)
    }

    func testSchemeErrorsNameTheAttributes() throws {
        let wide = try Tables.make("w", ["a", "b", "c"], [])
        XCTAssertThrowsError(try wide.closure("a", "b")) { error in
            XCTAssertEqual("\(error)", "closure [a -> b]: the edge relation must have exactly the attributes 'a' and 'b', but [a, b, c] also has 'c'; project it first")
        }
        let e = try Tables.make("e", ["a", "b"], [])
        XCTAssertThrowsError(try e.closure("a", "x")) { error in
            XCTAssertTrue("\(error)".hasPrefix("closure [a -> x]: unknown attribute 'x'"), "\(error)")
        }
        XCTAssertThrowsError(try e.closure("a", "a")) { error in
            XCTAssertEqual("\(error)", "closure [a -> a]: the two ends of an edge must be different attributes")
        }
    }
}
