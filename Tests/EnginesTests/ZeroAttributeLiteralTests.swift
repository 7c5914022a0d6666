import Engines
import Glibc
import QueryEngine
import Relational
import Verification
import Workloads
import XCTest

/// A literal of no attributes (`relation [] { () }`) in a verified case. No SQL table holds
/// no column, so loading it into SQLite, DuckDB or PostgreSQL failed and `verify
/// --directory` ended with exit 1; a property-list directory relation needs a key
/// attribute. Such a table now stays a memory table that the SQL translations inline, and
/// a property-list file, and every oracle and backend agrees on it.
final class ZeroAttributeLiteralTests: XCTestCase {
    private func graph() throws -> CaseGraph {
        let unit = try MemoryTable(name: "literal", scheme: try Scheme([]))
        try unit.add(contentsOf: [[]])
        let empty = try MemoryTable(name: "literal", scheme: try Scheme([]))
        let t = try MemoryTable(name: "t", scheme: try Scheme(["a"]), indexedAttributes: ["a"])
        try t.add(contentsOf: [[1], [2], [.null]])
        let table = Relation(source: t)
        return try CaseGraph(outputs: [
            Relation(source: unit),
            try Relation(source: unit).join(table).select(Attribute("a") *< 2),
            try Relation(source: empty).union(try table.project([])),
            try Relation(source: empty).join(table),
        ])
    }

    func testEveryBackendAndTheSQLiteOracleAgree() throws {
        let checker = try CaseChecker(try graph())
        XCTAssertEqual(checker.oracleMismatches().map(\.description), [])
        for backend in Backend.allCases {
            for preset in ["all-on", "seed", "all-off"] {
                let flags = try HeuristicCatalog.standard.preset(preset)
                XCTAssertEqual(checker.check(flags: flags, backend: backend).map(\.description), [], "\(backend)")
            }
        }
    }

    func testDuckDBAndPostgreSQLAgree() throws {
        try requireDuckDB()
        let postgres = try EngineRegistry.require("postgres")
        if let why = postgres.missing() {
            if getenv("TESTBED_REQUIRE_ENGINES").map({ String(cString: $0) }) == "1" { XCTFail(why) }
            throw XCTSkip(why)
        }
        let oracles = try BaselineOracles(try EngineRegistry.parseList("duckdb,postgres"))
        defer { oracles.stop() }
        let checker = try CaseChecker(try graph(), baselines: oracles)
        XCTAssertEqual(checker.baselineMismatches().map(\.description), [])
        XCTAssertEqual(oracles.ran, ["duckdb": 1, "postgres": 1], "\(oracles.lastRefusal)")
    }

    /// A case of literals alone loads no table into the engine (DuckDB refused an empty load).
    func testACaseOfLiteralsAloneRunsOnDuckDB() throws {
        try requireDuckDB()
        let oracles = try BaselineOracles(try EngineRegistry.parseList("duckdb"))
        defer { oracles.stop() }
        let unit = try MemoryTable(name: "literal", scheme: try Scheme([]))
        try unit.add(contentsOf: [[]])
        let checker = try CaseChecker(try CaseGraph(outputs: [Relation(source: unit)]), baselines: oracles)
        XCTAssertEqual(checker.baselineMismatches().map(\.description), [])
        guard case let .rows(results) = checker.baselines.first?.outcome else { return XCTFail("duckdb did not run") }
        XCTAssertEqual(results, [[[]]])
    }
}
