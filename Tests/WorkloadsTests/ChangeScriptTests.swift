import QueryEngine
import Relational
import XCTest
@testable import Workloads

/// Change scripts: the design's example parses and applies transaction by transaction;
/// mistakes are reported at file:line:column; a refused statement rolls back its
/// transaction and is reported at the statement.
final class ChangeScriptTests: XCTestCase {
    private let query = """
        let sel = selected_documents join documents
        let parent = sel project [parent_id] rename [parent_id -> id]
        output named = parent join documents
        """

    private func setUp(_ script: String) throws -> (ChangeScript, TransactionalDatabase, Query, RelationCatalog) {
        let tables = try Fixtures.documents()
        let parsed = try Query.parse(query, catalog: tables)
        let changes = try ChangeScript.parse(script, targets: ChangeScript.targets(tables: tables, query: parsed), file: "t.changes")
        return (changes, TransactionalDatabase(engine: try QueryEngine(preset: "all-on")), parsed, tables)
    }

    func testTheDesignExampleAppliesTransactionByTransaction() throws {
        let (script, db, parsed, tables) = try setUp("""
            # comments run to end of line
            begin
            add documents [id, name, parent_id] { (1001, "New chapter", 3), (1002, "Notes", 3) }
            delete documents where (id == 7)
            update documents set [name = "Cherry"] where (id == 4)
            commit
            update selected_documents set [id = 3]          # outside begin/commit: its own transaction
            update named set [name = "The Story"]
            """)
        XCTAssertEqual(script.transactions.map(\.statements.count), [3, 1, 1])
        XCTAssertEqual(script.transactions[1].position, SourcePosition(line: 7, column: 1))
        try db.observe(parsed.relations[0]) { _ in }
        let reports = try script.transactions.map { try script.apply($0, to: db) }
        XCTAssertEqual(reports[0].sourceRowsChanged, 5)
        XCTAssertEqual(reports[0].changes[0], .empty)
        // Selecting document 3 makes its parent, document 1, the output.
        XCTAssertEqual(reports[1].changes[0], RowChange(
            added: [Row([1, "A Story", .null])], removed: [Row([3, "A Story: Chapter 1", 1])]))
        // The update on the output is propagated back to document 1.
        XCTAssertEqual(reports[2].changes[0], RowChange(
            added: [Row([1, "The Story", .null])], removed: [Row([1, "A Story", .null])]))
        let documents = try XCTUnwrap(tables["documents"])
        XCTAssertTrue(Set(try documents.rows()).contains(Row([1, "The Story", .null])))
        XCTAssertTrue(Set(try documents.rows()).contains(Row([1002, "Notes", 3])))
    }

    func testMistakesAreReportedAtTheirPosition() throws {
        let cases: [(String, Int, Int, String)] = [
            ("begin\nadd documents [id] { (1) }\ncommit", 2, 15, "misses name, parent_id"),
            ("add named [id, name, parent_id] { (1, \"a\", null) }", 1, 5, "only be added to a source"),
            ("delete nothing", 1, 8, "unknown relation"),
            ("delete documnets", 1, 8, "unknown relation 'documnets'; did you mean 'documents'?"),
            ("delete " + String(repeating: "x", count: 5000), 1, 8, "…' (5000 characters)"),
            ("update documents set [nam = 1]", 1, 23, "unknown attribute"),
            ("delete documents where (idd == 2)", 1, 25, "unknown attribute"),
            ("begin\ndelete documents", 2, 17, "has no 'commit'"),
            ("commit", 1, 1, "'commit' without 'begin'"),
            ("update documents [name = 1]", 1, 18, "expected 'set'"),
            ("add documents [id, name, parent_id] { (1, 2) }", 1, 39, "row has 2 value(s)"),
            ("drop documents", 1, 1, "expected 'add', 'delete', 'update'"),
        ]
        // Each case again with old Mac line ends (lone CRs): located the same.
        for (text, line, column, fragment) in cases + cases.map({ ($0.0.replacingOccurrences(of: "\n", with: "\r"), $0.1, $0.2, $0.3) }) {
            XCTAssertThrowsError(try setUp(text), text) { error in
                guard let e = error as? QueryError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.file, "t.changes", text)
                XCTAssertEqual([e.line, e.column], [line, column], "\(text): \(e)")
                XCTAssertTrue(e.message.contains(fragment), "\(text): \(e)")
            }
        }
    }

    /// The constant limit bounds each statement, not the script: 6,000 one-row selection
    /// changes (as `generate --session ui-browse --transactions 6000` writes them, 12,000
    /// constants) parse, and one statement over the limit is refused at its 10,001st constant.
    func testTheConstantLimitBoundsEachStatementNotTheScript() throws {
        let long = (0..<6000).map { "update selected_documents set [id = \($0 % 7 + 1)] where (id == \(($0 + 6) % 7 + 1))" }
        let (script, _, _, _) = try setUp(long.joined(separator: "\n"))
        XCTAssertEqual(script.transactions.count, 6000)

        let rows = (0..<3334).map { "(\(2000 + $0), \"n\", 1)" }.joined(separator: ", ")
        let text = "delete documents where (id == 1)\nadd documents [id, name, parent_id] { \(rows) }"
        XCTAssertThrowsError(try setUp(text)) { error in
            guard let e = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.line, 2)
            XCTAssertTrue(e.message.contains("more than 10000 constants in one change statement"), "\(e)")
        }
    }

    /// A write refused below a `let` name says which relation the statement wrote.
    func testARefusalThroughAnOperatorNamesTheStatementsTarget() throws {
        let tables = try Fixtures.documents()
        let parsed = try Query.parse("let both = (documents union (documents select (id == 1))) select (id > 0)\noutput both", catalog: tables)
        let script = try ChangeScript.parse("update both set [name = \"x\"] where (id == 1)",
                                            targets: ChangeScript.targets(tables: tables, query: parsed), file: "u.changes")
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        XCTAssertThrowsError(try script.apply(script.transactions[0], to: db)) { error in
            XCTAssertTrue("\(error)".hasPrefix("u.changes:1:1: cannot update 'both' through its union: a row may come from either operand"),
                          "\(error)")
        }
    }

    func testARefusedStatementRollsBackItsTransactionAndNamesItsLine() throws {
        let (script, db, _, tables) = try setUp("""
            begin
            delete documents where (id == 7)
            update documents set [id = 1, name = "x", parent_id = null]
            commit
            """)
        let documents = try XCTUnwrap(tables["documents"])
        let before = Set(try documents.rows())
        XCTAssertThrowsError(try script.apply(script.transactions[0], to: db)) { error in
            XCTAssertTrue("\(error)".hasPrefix("t.changes:3:1: update of documents would merge"), "\(error)")
        }
        XCTAssertEqual(Set(try documents.rows()), before)
        XCTAssertFalse(db.inTransaction)
    }

    /// An `add` to a wide table naming one attribute counts the missing ones past 40: the
    /// message once listed all 99,999 of a 100,000-column table's.
    func testAnAddMissingManyAttributesListsThemShort() throws {
        let names = (0..<1_000).map { "c\($0)" }
        let wide = try MemoryTable(name: "wide", columns: names.map { Attribute($0) }, rows: [])
        let text = "add wide [c0] { (1) }"
        XCTAssertThrowsError(try ChangeScript.parse(text, targets: RelationCatalog(sources: [wide]), file: "w.changes")) { error in
            guard let e = error as? QueryError else { return XCTFail("\(error)") }
            let missing = names.sorted().filter { $0 != "c0" }
            XCTAssertTrue(e.message.contains("the attribute list misses \(missing.prefix(40).joined(separator: ", ")), and 959 more "), e.message)
            XCTAssertLessThan(e.message.utf8.count, 1_000, e.message)
        }
    }
}
