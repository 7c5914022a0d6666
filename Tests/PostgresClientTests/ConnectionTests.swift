import Glibc
import PostgresClient
import Relational
import XCTest

/// The client against one real server shared by the class's tests.
final class ConnectionTests: XCTestCase {
    nonisolated(unsafe) private static var server: PostgresServer?
    private var connection: PostgresConnection!

    override class func tearDown() {
        server?.stop()
        server = nil
    }

    override func setUpWithError() throws {
        try PostgresTestSupport.requireInstallation()
        if Self.server == nil { Self.server = try PostgresServer.start() }
        connection = try XCTUnwrap(Self.server).connect()
    }

    override func tearDown() { connection?.close() }

    /// Exact identity, telling 3 from 3.0 and -0.0 from 0.0 (Value's == would not).
    private func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case let (.real(x), .real(y)): return x.bitPattern == y.bitPattern
        default: return a.typeName == b.typeName && a == b
        }
    }

    func testEveryStorageClassRoundTripsExactlyAsParameterAndResult() throws {
        let values: [Value] = [
            .integer(0), .integer(-1), .integer(.min), .integer(.max), .integer(3),
            .real(3.0), .real(0.1), .real(-0.0), .real(1e308), .real(.leastNonzeroMagnitude), .real(.infinity), .real(-.infinity),
            .text(""), .text("'"), .text("\""), .text("\\"), .text("a\\nb"), .text("O'Brien \"x\" \\ y;--"),
            .text("héllo ✓ 𝄞"), .text("line\nbreak\ttab"),
            .blob([]), .blob([0]), .blob([0, 255, 1, 92, 39]),
        ]
        for value in values {
            let rows = try connection.execute("SELECT $1", [value]).rows
            XCTAssertEqual(rows.count, 1)
            let back = rows.first?.values.first ?? .null
            XCTAssertTrue(same(value, back), "\(value) came back as \(back) (\(back.typeName))")
        }
        // Null: a parameter without a type, typed by the statement.
        XCTAssertEqual(try connection.execute("SELECT $1::bigint, $1::text IS NULL", [.null]).rows, [[.null, .integer(1)]])
    }

    func testValuesPostgreSQLCannotHoldFaithfullyAreRefused() throws {
        XCTAssertThrowsError(try connection.execute("SELECT $1", [.real(.nan)])) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .unsupportedValue)
        }
        XCTAssertThrowsError(try connection.execute("SELECT $1", [.text("a\u{0}b")])) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .unsupportedValue)
        }
        // The connection is still usable.
        XCTAssertEqual(try connection.execute("SELECT 1::bigint").rows, [[.integer(1)]])
    }

    func testResultTypesDecode() throws {
        let row = try connection.execute("""
            SELECT 7::smallint, 8::integer, true, false, 1.5::real, 3::numeric, 2.5::numeric,
                   -12345678901234::numeric, 0.0001::numeric, 'x'::varchar, 'y'::char(2), 'z'::name
            """).rows
        XCTAssertEqual(row, [[.integer(7), .integer(8), .integer(1), .integer(0), .real(1.5), .integer(3), .real(2.5),
                              .integer(-12_345_678_901_234), .real(0.0001), .text("x"), .text("y "), .text("z")]])
        XCTAssertThrowsError(try connection.execute("SELECT now()")) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .unsupportedValue)
            XCTAssertTrue("\(error)".contains("oid 1184"), "\(error)")
        }
    }

    func testStatementErrorsCarryPostgreSQLsReasonAndState() throws {
        XCTAssertThrowsError(try connection.execute("SELECT * FROM missing_table")) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .statement)
            XCTAssertEqual(error?.sqlState, "42P01")
            XCTAssertTrue(error?.message.contains("missing_table") == true)
        }
    }

    func testCopyLoadsEveryValueIntoQuotedKeywordIdentifiers() throws {
        let table = "select"
        let columns = ["from", "a\"b", "Group", "blob"]
        let types: [PostgresType] = [.bigint, .double, .text, .bytea]
        let create = "CREATE TABLE \(PostgresSQL.quoteIdentifier(table)) ("
            + zip(columns, types).map { "\(PostgresSQL.quoteIdentifier($0)) \($1.sqlName)" }.joined(separator: ", ") + ")"
        try connection.command(create)
        defer { try? connection.command("DROP TABLE \(PostgresSQL.quoteIdentifier(table))") }
        let texts = ["", "b", "B", "a", "é", "z", "ab", "\\", "'", "\"", "Ω", "a b"]
        var rows: [[Value]] = []
        for (i, text) in texts.enumerated() {
            rows.append([.integer(Int64(i) - 5), i % 3 == 0 ? .integer(Int64(i)) : .real(Double(i) / 4),
                         i == 4 ? .null : .text(text), .blob(Array(text.utf8))])
        }
        rows.append([.null, .null, .null, .null])
        try connection.copy(into: table, columns: columns, types: types, rows: rows)
        let back = try connection.execute("SELECT * FROM \(PostgresSQL.quoteIdentifier(table))").rows
        XCTAssertEqual(Set(back), Set(rows.map(Row.init)))
        XCTAssertEqual(try connection.execute("SELECT \"a\"\"b\" FROM \"select\" WHERE \"from\" = -5").rows, [[.real(0)]])
        // Text orders by bytes (the cluster's locale is C), as the testbed's order does;
        // ORDER BY puts nulls last by default, so NULLS FIRST as in the testbed.
        let ordered = try connection.execute("SELECT \"Group\" FROM \"select\" ORDER BY 1 NULLS FIRST").rows.map { $0.values[0] }
        XCTAssertEqual(ordered, ordered.sorted())
        XCTAssertEqual(ordered, rows.map { $0[2] }.sorted())
        let blobs = try connection.execute("SELECT blob FROM \"select\" ORDER BY 1 NULLS FIRST").rows.map { $0.values[0] }
        XCTAssertEqual(blobs, rows.map { $0[3] }.sorted())
    }

    func testCopyRefusesAMismatchedValueAndLeavesTheTableAsItWas() throws {
        try connection.command("CREATE TABLE numbers (n bigint, d double precision)")
        defer { try? connection.command("DROP TABLE numbers") }
        try connection.copy(into: "numbers", columns: ["n", "d"], types: [.bigint, .double], rows: [[.integer(1), .integer(1)]])
        for bad: [Value] in [[.text("2"), .real(2)], [.real(2.5), .real(2)], [.integer(2), .integer((1 << 53) + 1)]] {
            XCTAssertThrowsError(try connection.copy(into: "numbers", columns: ["n", "d"], types: [.bigint, .double],
                                                     rows: [[.integer(7), .real(7)], bad])) { error in
                XCTAssertEqual((error as? PostgresError)?.kind, .unsupportedValue, "\(error)")
            }
        }
        XCTAssertEqual(try connection.execute("SELECT n, d FROM numbers").rows, [[.integer(1), .real(1)]])
    }

    func testExplainGivesJSONAndAnalyzeActualRows() throws {
        try connection.command("CREATE TABLE e (id bigint PRIMARY KEY)")
        defer { try? connection.command("DROP TABLE e") }
        try connection.copy(into: "e", columns: ["id"], types: [.bigint], rows: (0..<100).map { [.integer(Int64($0))] })
        let plan = try connection.explain("SELECT id FROM e WHERE id = $1", [.integer(5)])
        XCTAssertTrue(plan.hasPrefix("["), plan)
        XCTAssertTrue(plan.contains("\"Plan\""), plan)
        XCTAssertFalse(plan.contains("Actual Rows"))
        let analyzed = try connection.explain("SELECT id FROM e WHERE id < $1", [.integer(5)], analyze: true)
        XCTAssertTrue(analyzed.contains("\"Actual Rows\": 5"), analyzed)
    }
}
