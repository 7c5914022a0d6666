import PostgresClient
import PostgresStore
import Relational
import Verification
import XCTest

/// Values on which SQL dialects differ from the testbed's semantics, each on a real
/// PostgreSQL against the reference evaluator, with the expected rows spelled out where
/// the point is the value itself.
final class DialectEdgeTests: XCTestCase {
    nonisolated(unsafe) private static var database: PostgresDatabase?
    private var runner: PostgresCaseRunner!

    override class func tearDown() {
        database?.stop()
        database = nil
    }

    override func setUpWithError() throws {
        try PostgresStoreTestSupport.requireInstallation()
        if Self.database == nil { Self.database = try PostgresDatabase.start() }
        runner = PostgresCaseRunner(database: try XCTUnwrap(Self.database))
    }

    private func table(_ name: String, _ attributes: [Attribute], _ rows: [[Value]]) throws -> Relation {
        let table = try MemoryTable(name: name, scheme: try Scheme(attributes))
        // Rows are given in `attributes` order; the scheme sorts attributes by name.
        let scheme = try Scheme(attributes)
        let order = scheme.attributes.compactMap { attributes.firstIndex(of: $0) }
        try table.add(contentsOf: rows.map { row in Row(order.map { row[$0] }) })
        return Relation(source: table)
    }

    /// Runs the outputs on PostgreSQL (tables loaded, and again as inlined literals) and
    /// returns PostgreSQL's sorted rows; fails unless both agree with the reference.
    @discardableResult
    private func check(_ outputs: [Relation], file: StaticString = #filePath, line: UInt = #line) throws -> [[Row]] {
        let graph = try CaseGraph(outputs: outputs)
        XCTAssertEqual(try runner.run(graph, literals: true), .agreed, file: file, line: line)
        XCTAssertEqual(try runner.run(graph), .agreed, file: file, line: line)
        return runner.lastResults
    }

    func testNullKeysJoinNullAndEmptyTextIsNotNull() throws {
        let a = try table("a", ["k", "x"], [[.null, 1], ["", 2], ["b", 3]])
        let b = try table("b", ["k", "y"], [[.null, 10], ["", 20], ["c", 30]])
        let results = try check([try a.join(b), try a.select(.comparison(.attribute("k"), .equal, .value(.null)))])
        XCTAssertEqual(results[0], [[.null, 1, 10], ["", 2, 20]])  // k, x, y: null with null, "" with ""
        XCTAssertEqual(results[1], [[.null, 1]])
    }

    func testThreeEqualsThreePointZeroAcrossIntegerAndRealColumns() throws {
        let ints = try table("ints", ["k"], [[3], [4], [.null]])
        let reals = try table("reals", ["k"], [[3.0], [4.5], [.null]])
        let k: Attribute = "k"
        let results = try check([
            try ints.join(reals),
            try ints.union(reals),
            try ints.select(.comparison(.attribute(k), .equal, .value(3.0))),
            try ints.select(.comparison(.attribute(k), .less, .value(3.5))),
            try reals.select(.comparison(.attribute(k), .equal, .value(3))),
            try ints.difference(reals),
        ])
        XCTAssertEqual(results[0].count, 2)  // 3 with 3.0, null with null
        XCTAssertEqual(results[1].count, 4)  // null, 3, 4, 4.5
        XCTAssertEqual(results[2], [[3]])
        XCTAssertEqual(results[3], [[.null], [3]])
        XCTAssertEqual(results[5], [[4]])
    }

    func testTextSortsAboveNumbersAndBlobsAboveText() throws {
        let t = try table("t", ["name", "n", "b"], [
            ["x", 1, .blob([0])], [.null, 2, .blob([])], ["", .null, .null], ["10", 3, .blob([0, 0])],
        ])
        let name: Attribute = "name", n: Attribute = "n", b: Attribute = "b"
        let results = try check([
            try t.select(.comparison(.attribute(name), .greater, .value(5))),      // every text
            try t.select(.comparison(.attribute(name), .less, .value(5))),         // null only
            try t.select(.comparison(.attribute(n), .less, .value("a"))),          // every number and null
            try t.select(.comparison(.attribute(b), .greater, .value("zzz"))),     // every blob
            try t.select(.comparison(.attribute(name), .less, .attribute(n))),     // null name beside a number
            try t.select(.comparison(.attribute(b), .less, .value(.blob([0, 0])))), // null, x'', x'00'
            try t.select(.not(.comparison(.attribute(name), .greaterOrEqual, .value("")))), // null
        ])
        XCTAssertEqual(results[0].count, 3)
        XCTAssertEqual(results[1].count, 1)
        XCTAssertEqual(results[2].count, 4)
        XCTAssertEqual(results[3].count, 3)
        XCTAssertEqual(results[4].count, 1)
        XCTAssertEqual(results[5].count, 3)
        XCTAssertEqual(results[6].count, 1)
    }

    func testQuotesBackslashesAndTextThatLooksLikeSQL() throws {
        let texts: [Value] = ["O'Brien", "back\\slash", "\"q\"", "'; DROP TABLE t; --", "\\x00", "$1", "é", ""]
        let t = try table("t", ["s"], texts.map { [$0] })
        let s: Attribute = "s"
        let results = try check([
            t,
            try t.select(.comparison(.attribute(s), .equal, .value("O'Brien"))),
            try t.select(.inSet(attributes: [s], keys: [["back\\slash"], ["$1"], [.null]])),
            try t.select(.comparison(.attribute(s), .greater, .value("\\"))),
        ])
        XCTAssertEqual(Set(results[0].map { $0.values[0] }), Set(texts))
        XCTAssertEqual(results[1], [["O'Brien"]])
        XCTAssertEqual(results[2], [["$1"], ["back\\slash"]])
    }

    func testIdentifiersThatAreKeywordsOrHoldQuotes() throws {
        let select = try table("select", ["from", "a\"b", "Group"], [[1, "x", .blob([1])], [2, "y", .null]])
        let order = try table("order", ["from", "where"], [[1, "w"], [3, "v"]])
        let results = try check([
            try select.join(order),
            try select.rename(["a\"b": "table", "Group": "GROUP"]).project(["table", "GROUP"]),
            try select.equijoin(order.rename(["from": "user"]), matching: [JoinPair("from", "user")]),
        ])
        XCTAssertEqual(results[0].count, 1)
        XCTAssertEqual(results[1].count, 2)
        XCTAssertEqual(results[2].count, 1)
    }

    func testClosureWithNullEndsAndCycles() throws {
        let edges = try table("edges", ["a", "b"], [[1, 2], [2, 3], [3, 1], [.null, 1], [3, .null], [4, 4]])
        let results = try check([try edges.closure("a", "b")])
        // 1,2,3 reach each other and null; null reaches 1,2,3 and null; 4 reaches 4.
        XCTAssertEqual(results[0].count, 17)
    }

    func testMixedClassColumnsAreRefusedWithTheReason() throws {
        let mixed = try table("mixed", ["v"], [[1], ["one"]])
        let graph = try CaseGraph(outputs: [mixed])
        guard case let .refused(reason) = try runner.run(graph) else { return XCTFail("a mixed column was accepted") }
        XCTAssertTrue(reason.contains("'v'") && reason.contains("integer") && reason.contains("text"), reason)
        let ints = try table("ints", ["v"], [[1]])
        let texts = try table("texts", ["v"], [["one"]])
        guard case let .refused(union) = try runner.run(try CaseGraph(outputs: [try ints.union(texts)])) else {
            return XCTFail("a union of integers and text was accepted")
        }
        XCTAssertTrue(union.contains("union") && union.contains("'v'"), union)
    }

    /// An integer column holding 2^53 + 1 meeting a real column holding 2^53 (a union,
    /// difference, intersection, join, column comparison or closure) is refused: PostgreSQL
    /// compared them through doubles, so 9007199254740993 equalled 9007199254740992.0 (a
    /// union lost a row, a difference dropped one, a join and an intersection matched one).
    /// Tables and literals alike; the same shapes below 2^53 still run.
    func testIntegersBeyondTwoToThe53MeetingRealColumnsAreRefused() throws {
        let big = try table("big", ["k", "x"], [[.integer(9_007_199_254_740_993), 1], [5, 2]])
        let reals = try table("reals", ["k", "y"], [[9_007_199_254_740_992.0, 1], [5.5, 2]])
        let edges = try table("edges", ["f", "t"], [[.integer(9_007_199_254_740_993), 9_007_199_254_740_992.0]])
        let k: Attribute = "k"
        let bigK = try big.project([k]), realK = try reals.project([k])
        let cases: [(String, Relation)] = [
            ("union", try bigK.union(realK)),
            ("except", try bigK.difference(realK)),
            ("intersect", try bigK.intersection(realK)),
            ("join", try big.join(reals)),
            ("b == k", try big.rename([k: "b"]).join(reals).select(.comparison(.attribute("b"), .equal, .attribute(k)))),
            ("closure", try edges.closure("f", "t")),
        ]
        for (name, output) in cases {
            for literals in [false, true] {
                guard case let .refused(reason) = try runner.run(try CaseGraph(outputs: [output]), literals: literals) else {
                    XCTFail("\(name) (literals \(literals)): an integer beyond 2^53 met a real column and was not refused")
                    continue
                }
                XCTAssertTrue(reason.contains("beyond 2^53"), "\(name): \(reason)")
            }
        }
        let small = try table("small", ["k", "x"], [[.integer(9_007_199_254_740_992), 1], [5, 2]])
        let smallK = try small.project([k])
        try check([try smallK.union(realK), try smallK.difference(realK), try small.join(reals)])
    }
}
