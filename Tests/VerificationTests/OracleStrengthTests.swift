import QueryEngine
import Relational
import SQLiteStore
import XCTest
@testable import Verification

/// The oracles catch what issue 10's mutation pass found they missed: SQLite returning a
/// row twice, and results compared through the engine's own hashing.
final class OracleStrengthTests: XCTestCase {
    /// t(a, b) with two rows sharing `a`, so `t project [a]` needs DISTINCT.
    private func projectCase() throws -> CaseGraph {
        CaseGraph(
            tables: [CaseTable(name: "t", scheme: try Scheme(["a", "b"]), rows: [[1, "x"], [1, "y"], [2, "z"]])],
            nodes: [.table(0), .apply(.project(try Scheme(["a"])), [0])], outputs: [1])
    }

    /// SQLite's answer through the real translation with every DISTINCT dropped: the bug a
    /// translator could have without any engine being wrong.
    private static func withoutDistinct(_ db: SQLiteDatabase, _ relation: Relation) throws -> [Row] {
        let translation = try SQLTranslator.translate(relation)
        let sql = translation.sql.replacingOccurrences(of: "SELECT DISTINCT", with: "SELECT")
        XCTAssertNotEqual(sql, translation.sql, "the translation projects with DISTINCT")
        return try db.query(sql, translation.parameters)
    }

    func testSQLiteDuplicateRowIsAnOracleMismatch() throws {
        let checker = try CaseChecker(try projectCase(), catalog: .standard, sqlite: Self.withoutDistinct)
        guard case let .success(rows) = checker.sqlite[0] else { return XCTFail("SQLite failed: \(checker.sqlite[0])") }
        XCTAssertEqual(rows.count, 3, "the broken translation returns (1) twice")
        let found = checker.oracleMismatches()
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first?.kind, .oracles)
        XCTAssertTrue(found.first?.detail.contains("1 row(s) more than once") == true, found.first?.detail ?? "")
        // The engine is not blamed for SQLite's duplicate: it is compared with SQLite's set.
        let engine = checker.check(flags: try HeuristicCatalog.standard.preset("all-on"), backend: .memory)
        XCTAssertEqual(engine.map(\.kind), [])
    }

    func testCorrectTranslationPasses() throws {
        let checker = try CaseChecker(try projectCase())
        XCTAssertEqual(checker.oracleMismatches().count, 0)
        XCTAssertEqual(checker.reference[0], [[1], [2]])
    }

    func testReportCountsMismatchesByOracle() throws {
        let found = try CaseChecker(try projectCase(), catalog: .standard, sqlite: Self.withoutDistinct).oracleMismatches()
        var report = VerificationReport()
        report.count(found)
        XCTAssertEqual(report.mismatchesByKind[.oracles], 1)
        XCTAssertFalse(report.passed)
        XCTAssertTrue(report.summary.contains("1 differed (oracles 1)"), report.summary)
    }

    func testEngineDuplicatesAndNumericEqualityInComparison() {
        let engine: [Row] = [[3.0, "x"], [nil, "n"], [3, "x"]]
        let sorted = ResultComparison.Sorted(engine)
        XCTAssertEqual(sorted.duplicates, 1, "3 and 3.0 are one value, so the row came twice")
        XCTAssertTrue(ResultComparison.same(sorted.distinct, ReferenceOrder.sortedDistinct([[.null, "n"], [3, "x"]])))
        XCTAssertFalse(ResultComparison.same(sorted.distinct, ReferenceOrder.sortedDistinct([[.null, "n"], [3.5, "x"]])))
        XCTAssertNil(ResultComparison.partitionProblem(whole: [[1], [2], [3.0]], matching: [[3]], rest: [[1], [2.0]]))
        XCTAssertNotNil(ResultComparison.partitionProblem(whole: [[1], [2]], matching: [[1]], rest: [[1.0], [2]]))
        XCTAssertNotNil(ResultComparison.partitionProblem(whole: [[1], [2]], matching: [[1]], rest: []))
    }
}
