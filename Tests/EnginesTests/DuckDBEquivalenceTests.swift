import Engines
import Relational
import Verification
import Workloads
import XCTest

/// A real DuckDB helper against the reference evaluator: every catalog query on datasets of
/// its shape (the default parameters and the trigger variants: reals equal to integer keys,
/// null names, a root as the selection), and 1,000+ random cases.
final class DuckDBEquivalenceTests: XCTestCase {
    func testEveryCatalogQueryEqualsTheReferenceEvaluator() throws {
        try requireDuckDB()
        let engine = try startDuckDB()
        defer { engine.stop() }
        let queries = try QueryCatalog.load()
        XCTAssertGreaterThan(queries.count, 10)
        var checked = 0
        for shape in Shape.allCases {
            let mine = queries.filter { $0.shape == shape }
            if mine.isEmpty { continue }
            let verification = CatalogVerification(queries: mine, sizes: [150], seeds: [3])
            for parameters in verification.parameterSets(shape) {
                let dataset = try shape.generate(rows: 150, seed: 3, parameters: parameters)
                let memory = try dataset.memoryRelations()
                let catalog = try engine.load(dataset.tables)
                for query in mine {
                    let expected = try query.parse(catalog: memory).relations.map { try ReferenceEvaluator().rows(of: $0) }
                    let statement = try engine.prepare(try query.parse(catalog: catalog).relations)
                    let actual = try engine.run(statement).results
                    XCTAssertEqual(actual.count, expected.count, query.name)
                    for (a, e) in zip(actual, expected) {
                        let (set, duplicates) = asSet(a)
                        XCTAssertFalse(duplicates, "\(query.name) \(parameters): a row came twice")
                        XCTAssertEqual(set, Set(e), "\(query.name) on \(shape) \(parameters)")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    /// At least 1,000 random cases run by DuckDB, none differing; cases DuckDB refuses (a
    /// union of a text and a number column) are counted apart and stay a small share.
    func testThousandRandomCasesEqualTheReferenceEvaluator() throws {
        try requireDuckDB()
        let oracles = try BaselineOracles(try EngineRegistry.parseList("duckdb"))
        defer { oracles.stop() }
        var fuzzer = Fuzzer(cases: 1100, seed: 11)
        fuzzer.baselines = oracles
        fuzzer.typedColumns = true
        fuzzer.runsPerCase = 1
        fuzzer.reduce = false
        fuzzer.reproParent = nil
        let report = try fuzzer.run()
        XCTAssertEqual(report.mismatches, 0, report.firstMismatches.map(\.description).joined(separator: "\n\n"))
        XCTAssertGreaterThanOrEqual(report.baselineRuns["duckdb"] ?? 0, 1000, report.summary)
        XCTAssertLessThan(report.baselineRefused["duckdb"] ?? 0, 110, report.summary)
    }

    /// `--engines sqlite,duckdb` starts DuckDB only (SQLite is every case's oracle already),
    /// and DuckDB's answer joins the case's oracle comparisons.
    func testDuckDBJoinsTheCaseOracles() throws {
        try requireDuckDB()
        let oracles = try BaselineOracles(try EngineRegistry.parseList("sqlite,duckdb"))
        defer { oracles.stop() }
        XCTAssertEqual(oracles.labels, ["duckdb"], "sqlite is the built-in oracle, not started again")
        let table = CaseTable(name: "t", scheme: try Scheme(["a"]), rows: [[1], [.null]])
        let source = try MemoryTable(name: "t", scheme: table.scheme)
        try source.add(contentsOf: table.rows)
        let graph = try CaseGraph(outputs: [try Relation(source: source).select(Attribute("a") *== .null)])
        let checker = try CaseChecker(graph, baselines: oracles)
        XCTAssertTrue(checker.oracleMismatches().isEmpty)
        guard case let .rows(results) = checker.baselines.first?.outcome else { return XCTFail("duckdb did not run") }
        XCTAssertEqual(results, [[[.null]]])
    }

    /// A case DuckDB cannot hold (a column mixing text and numbers) is refused, not compared,
    /// and the reason is kept, so that `verify --repro DIR --engines duckdb` says so beside
    /// its "0 mismatches" instead of letting it read as agreement.
    func testARefusedCaseKeepsItsReason() throws {
        try requireDuckDB()
        let oracles = try BaselineOracles(try EngineRegistry.parseList("duckdb"))
        defer { oracles.stop() }
        let source = try MemoryTable(name: "t", scheme: try Scheme(["a"]))
        try source.add(contentsOf: [[1], ["x"]])
        let graph = try CaseGraph(outputs: [try Relation(source: source).project(["a"])])
        let checker = try CaseChecker(graph, baselines: oracles)
        XCTAssertTrue(checker.oracleMismatches().isEmpty)
        XCTAssertEqual(oracles.refused["duckdb"], 1)
        let why = try XCTUnwrap(oracles.lastRefusal["duckdb"])
        XCTAssertTrue(why.contains("a"), why)
    }
}
