import Foundation
import XCTest
import Relational
@testable import Workloads

/// Query text as editors and generators write it: line ends, byte order marks, very many
/// constants, `true`/`false` literals, catalog headers and catalog directories.
final class SourceTextTests: XCTestCase {
    func testNormalizationDropsALeadingBOMAndTurnsCRLFIntoLF() {
        XCTAssertEqual(SourceText.normalized("\u{FEFF}a\r\nb\r\n"), "a\nb\n")
        XCTAssertEqual(SourceText.normalized("a\nb"), "a\nb")
        // A lone CR is a line end (old Mac editors); a BOM that is not first is kept (the
        // lexer reports it).
        XCTAssertEqual(SourceText.normalized("a\rb\u{FEFF}"), "a\nb\u{FEFF}")
        XCTAssertEqual(SourceText.normalized("a\r\rb\r\n"), "a\n\nb\n")
        XCTAssertEqual(SourceText.normalized("\r\n\r\n").unicodeScalars.map(\.value), [10, 10])
        XCTAssertEqual(SourceText.normalized("\u{FEFF}"), "")
        XCTAssertEqual(SourceText.normalized(""), "")
    }

    func testCRLFAndBOMTextParsesToTheSameGraph() throws {
        let c = try Fixtures.documents()
        let text = "# x\nlet s = selected_documents join documents\noutput s project [parent_id]\n"
        let plain = try Query.parse(text, catalog: c)
        for variant in [text.replacingOccurrences(of: "\n", with: "\r\n"), text.replacingOccurrences(of: "\n", with: "\r"), "\u{FEFF}" + text,
                        "\u{FEFF}" + text.replacingOccurrences(of: "\n", with: "\r\n")] {
            XCTAssertTrue(sameGraph(plain.relations, try Query.parse(variant, catalog: c).relations))
        }
    }

    func testPositionsInCRLFAndBOMTextCountLikeLF() {
        let c = try? Fixtures.documents()
        guard let c else { return XCTFail("fixtures") }
        let message = "select: unknown attribute 'idd'; did you mean 'id'? (the relation has [id, name, parent_id])"
        assertQueryError("# x\r\n\r\noutput documents select (idd == 1)\r\n", line: 3, column: 26, message, catalog: c)
        assertQueryError("# x\r\routput documents select (idd == 1)\r", line: 3, column: 26, message, catalog: c)
        // The BOM is not a column.
        assertQueryError("\u{FEFF}output documents select (idd == 1)", line: 1, column: 26, message, catalog: c)
        // A string cannot swallow a CR of a CRLF line end.
        assertQueryError("output documents select (name == \"x\r\n\")", line: 1, column: 34,
            "unterminated string; expected a closing '\"' before the end of the line", catalog: c)
    }

    func testCatalogHeadersReadCRLFAndBOM() throws {
        let text = "\u{FEFF}# The parent.\r\n# shape: documents\r\noutput documents\r\n"
        let q = try CatalogQuery(name: "q", text: text, path: "q.rq")
        XCTAssertEqual(q.description, "The parent.")
        XCTAssertEqual(q.shape, .documents)
        XCTAssertEqual(q.text, "# The parent.\n# shape: documents\noutput documents\n", "kept normalized")
    }

    func testNonUTF8BytesAreNamed() throws {
        let c = try Fixtures.documents()
        // What FileSystem.readText makes of Latin-1 bytes: replacement characters.
        let text = String(decoding: Array("output documents select (name == ".utf8) + [0xE9] + Array(")".utf8), as: UTF8.self)
        assertQueryError(text, line: 1, column: 34, "bytes that are not UTF-8 text; query text must be UTF-8", catalog: c)
    }

    /// Bytes that are not UTF-8 are refused inside strings, comments and quoted names too,
    /// where they once became U+FFFD silently; `\u{fffd}` still spells that scalar.
    func testNonUTF8BytesAreNamedInsideStringsCommentsAndQuotedNames() throws {
        let c = try Fixtures.documents()
        func latin1(_ before: String, _ after: String) -> String {
            String(decoding: Array(before.utf8) + [0xE9] + Array(after.utf8), as: UTF8.self)
        }
        let message = "bytes that are not UTF-8 text; query text must be UTF-8"
        assertQueryError(latin1("output documents select (name == \"caf", "\")"), line: 1, column: 38, message, catalog: c)
        assertQueryError(latin1("# caf", "\noutput documents"), line: 1, column: 6, message, catalog: c)
        assertQueryError(latin1("output documents rename [name -> `caf", "`]"), line: 1, column: 38, message, catalog: c)
        XCTAssertNoThrow(try Query.parse("output documents select (name == \"\\u{fffd}\")", catalog: c, file: "test.rq"))
    }

    func testControlCharactersAreEscapedInMessages() throws {
        let c = try Fixtures.documents()
        assertQueryError("output documents\u{7}", line: 1, column: 17, "unexpected character '\\u{7}'", catalog: c)
        assertQueryError("output `doc\u{1B}[2J`", line: 1, column: 8, "unknown relation 'doc\\u{1b}[2J'", catalog: c)
        assertQueryError("output documents project [`a\tb`]", line: 1, column: 27,
            "project: unknown attribute 'a\\tb' (the relation has [id, name, parent_id])", catalog: c)
    }
}

final class CatalogHeaderTests: XCTestCase {
    private func headerError(_ text: String) -> String {
        do {
            _ = try CatalogQuery(name: "q", text: text, path: "dir/q.rq")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testAnUnknownShapeIsLocatedAtItsValue() {
        XCTAssertEqual(headerError("# Widgets.\n# shape: widgets\noutput documents\n"),
            "dir/q.rq:2:10: unknown shape 'widgets' in the `# shape:` line (expected one of: documents, pets, todo, employees)")
        XCTAssertEqual(headerError("# x\n  #   shape:   docments  \n"),
            "dir/q.rq:2:16: unknown shape 'docments' in the `# shape:` line; did you mean 'documents'? "
            + "(expected one of: documents, pets, todo, employees)")
        XCTAssertEqual(headerError("# shape:\n"),
            "dir/q.rq:1:9: unknown shape '' in the `# shape:` line (expected one of: documents, pets, todo, employees)")
        XCTAssertEqual(headerError("# shape: w\u{1B}x\n"),
            "dir/q.rq:1:10: unknown shape 'w\\u{1b}x' in the `# shape:` line (expected one of: documents, pets, todo, employees)")
    }

    func testASecondShapeLineIsAnError() {
        XCTAssertEqual(headerError("# x\n# shape: pets\n# shape: todo\n"),
            "dir/q.rq:3:10: a second `# shape:` line; give the shape once")
    }

    /// Below the first statement it was an ordinary comment, and the file was said to have no
    /// `# shape:` line at all.
    func testAShapeLineBelowTheFirstStatementIsLocated() {
        XCTAssertEqual(headerError("# d\noutput documents\n\n# shape: documents\n"),
            "dir/q.rq:4:1: a `# shape:` line belongs in the header, above the first statement (line 2)")
    }

    func testTheHeaderEndsAtTheFirstStatement() throws {
        let q = try CatalogQuery(name: "q", text: "# d\n\n# shape: pets\noutput pets\n# shape: nonsense\n", path: "q.rq")
        XCTAssertEqual(q.shape, .pets)
        XCTAssertEqual(q.description, "d")
    }
}

final class CatalogDirectoryTests: XCTestCase {
    private var scratch: String!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-dir-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    private func loadError(_ directory: String) -> String {
        do {
            let found = try QueryCatalog.load(directory: directory)
            return "loaded \(found.count)"
        } catch {
            return "\(error)"
        }
    }

    func testMissingEmptyAndNonDirectoryCatalogsAreErrors() throws {
        XCTAssertEqual(loadError(scratch + "/missing"), "query catalog directory '\(scratch!)/missing' does not exist")
        XCTAssertEqual(loadError(scratch), "query catalog directory '\(scratch!)' holds no .rq files")
        try "x".write(toFile: scratch + "/notes.txt", atomically: true, encoding: .utf8)
        try "x".write(toFile: scratch + "/.rq", atomically: true, encoding: .utf8)
        XCTAssertEqual(loadError(scratch), "query catalog directory '\(scratch!)' holds no .rq files", "'.rq' alone names no query")
        XCTAssertEqual(loadError(scratch + "/notes.txt"), "query catalog directory '\(scratch!)/notes.txt' is not a readable directory")
        try "# q\n# shape: pets\noutput pets\n".write(toFile: scratch + "/q.rq", atomically: true, encoding: .utf8)
        XCTAssertEqual(loadError(scratch), "loaded 1")
        XCTAssertEqual(loadError(scratch + "/"), "loaded 1")
        XCTAssertEqual(try QueryCatalog.load(directory: scratch + "/").first?.path, scratch + "/q.rq", "no double slash")
    }
}

final class ConstantLimitTests: XCTestCase {
    private let limit = 10_000

    func testTheLimitIsTheParsersConstant() {
        XCTAssertEqual(QueryParser.constantLimit, limit)
    }

    private func literal(_ count: Int) -> String {
        "relation [x] { " + (0..<count).map { "(\($0))" }.joined(separator: ", ") + " }"
    }

    func testTenThousandConstantsParseAndTheNextIsRefusedWhereItStands() throws {
        let c = try Fixtures.documents()
        XCTAssertNoThrow(try Query.parse("output " + literal(limit), catalog: c))
        let over = "output " + literal(limit + 1)
        // The 10,001st value: after "output relation [x] { " and 10,000 "(i), ", past its "(".
        let column = "output relation [x] { ".count + (0..<limit).map { "(\($0)), ".count }.reduce(0, +) + 2
        assertQueryError(over, line: 1, column: column, message, catalog: c)
    }

    private var message: String {
        "more than 10000 constants in one query (values of literal relations and in select expressions); "
            + "load large value lists as a table instead"
    }

    func testSelectConstantsAndLiteralValuesCountTogetherAcrossStatements() throws {
        let c = try Fixtures.documents()
        // 9,999 literal values, then a select with two constants: the second is the 10,001st.
        var text = "let l = " + literal(limit - 1) + "\n"
        text += "output documents select (id == 1 or id == 2)\n"
        assertQueryError(text, line: 2, column: 43, message, catalog: c)
        // Predicate constants `true`/`false` count too.
        text = "let l = " + literal(limit - 1) + "\noutput documents select (true and false)\n"
        assertQueryError(text, line: 2, column: 35, message, catalog: c)
        // A huge disjunction of comparisons alone reaches the limit as well.
        let ors = (0...limit).map { "id == \($0)" }.joined(separator: " or ")
        XCTAssertThrowsError(try Query.parse("output documents select (\(ors))", catalog: c)) { error in
            XCTAssertEqual((error as? QueryError)?.message, message)
        }
    }

    func testSharedLetsCountTheirConstantsOnce() throws {
        // A let used many times is one node: its constants are written once.
        let c = try Fixtures.documents()
        var text = "let l = " + literal(limit - 1) + "\n"
        for i in 0..<50 { text += "output o\(i) = l\n" }
        XCTAssertNoThrow(try Query.parse(text, catalog: c))
    }
}

final class BooleanLiteralTests: XCTestCase {
    func testTrueAndFalseAreOneAndZeroAsValues() throws {
        let c = try Fixtures.documents()
        let q = try Query.parse("output relation [a, b] { (true, false), (1, 0) }", catalog: c)
        XCTAssertEqual(try q.relations[0].rows(), [Row([1, 0])], "the same row twice")
        XCTAssertEqual(try q.relations[0].rows().first?.values.map(\.typeName), ["integer", "integer"])
    }

    func testTrueAndFalseCompareAsValuesAndStandAloneAsPredicates() throws {
        let c = try Fixtures.documents()
        func predicate(_ text: String) throws -> Relational.Predicate {
            let q = try Query.parse("output documents select (\(text))", catalog: c)
            guard case let .select(p) = q.relations[0].operator else { throw QueryPrintError("no select") }
            return p
        }
        let id: Attribute = "id"
        XCTAssertEqual(try predicate("id == true"), id *== 1)
        XCTAssertEqual(try predicate("false < id"), .comparison(.value(0), .less, .attribute(id)))
        XCTAssertEqual(try predicate("true"), .true)
        XCTAssertEqual(try predicate("not false and id != false"), .all([.not(.false), id *!= 0]))
        // `true = x` gets the usual hint, not a confusing one.
        assertQueryError("output documents select (true = id)", line: 1, column: 31,
            "expected a comparison operator, found '='; write '==' to compare", catalog: c)
        let rows = try Query.parse("output documents select (id == true or parent_id == true)", catalog: c).relations[0].rows()
        XCTAssertEqual(Set(rows.map { $0.values[0] }), [1, 3, 4])
    }

    func testPrintedBooleanLiteralsReparseToTheSameGraph() throws {
        let c = try Fixtures.documents()
        let q = try Query.parse("output (relation [id] { (true) } join documents) select (id == true)", catalog: c)
        let printed = try QueryPrinter.print(q, catalog: c)
        XCTAssertTrue(sameGraph(q.relations, try Query.parse(printed, catalog: c).relations), printed)
    }
}
