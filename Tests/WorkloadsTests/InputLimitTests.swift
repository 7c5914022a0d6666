import XCTest
import Relational
@testable import Workloads

/// Hostile or mistaken input is refused with an error that names what and where, instead
/// of overflowing arithmetic, running for hours or exhausting the stack.
final class GeneratorLimitTests: XCTestCase {
    private func message(_ shape: Shape, rows: Int = 100, _ params: [String: String] = [:]) -> String {
        do {
            _ = try shape.generate(rows: rows, seed: 1, parameters: ShapeParameters(params))
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    private func range(_ name: String, _ value: String, _ low: Int, _ high: Int) -> String {
        "parameter '\(name)': '\(value)' is not valid; expected an integer from \(low) to \(high)"
    }

    private let intMax = String(Int.max)

    func testDocumentsParametersHaveRanges() {
        XCTAssertEqual(message(.documents, ["fanout-k": intMax]), range("fanout-k", intMax, 1, 1_000_000))
        XCTAssertEqual(message(.documents, ["fanout": "fixed", "fanout-k": "1000001"]), range("fanout-k", "1000001", 1, 1_000_000))
        XCTAssertEqual(message(.documents, ["fanout-k": "0"]), range("fanout-k", "0", 1, 1_000_000))
        XCTAssertEqual(message(.documents, ["fanout": "zipf", "zipf-max": intMax]), range("zipf-max", intMax, 1, 1_000_000))
        XCTAssertEqual(message(.documents, ["max-depth": intMax]), range("max-depth", intMax, 0, 100_000_000))
        XCTAssertEqual(message(.documents, ["max-depth": "-1"]), range("max-depth", "-1", 0, 100_000_000))
        // Text too large for Int is reported the same way, not as a crash.
        XCTAssertEqual(message(.documents, ["fanout-k": "99999999999999999999"]), range("fanout-k", "99999999999999999999", 1, 1_000_000))
    }

    func testDocumentsParametersAtTheirCapsGenerate() throws {
        let fixed = try Shape.documents.generate(rows: 50, seed: 3, parameters: ShapeParameters(["fanout": "fixed", "fanout-k": "1000000"]))
        XCTAssertEqual(fixed.tables[0].rows.count, 50)
        let uniform = try Shape.documents.generate(rows: 50, seed: 3, parameters: ShapeParameters(["fanout-k": "1000000", "max-depth": "100000000"]))
        XCTAssertEqual(uniform.tables[0].rows.count, 50)
        let zipf = try Shape.documents.generate(rows: 50, seed: 3, parameters: ShapeParameters(["fanout": "zipf", "zipf-max": "1000000", "zipf-s": "0.5"]))
        XCTAssertEqual(zipf.tables[0].rows.count, 50)
    }

    func testEmployeesEquipmentIsCapped() throws {
        XCTAssertEqual(message(.employees, ["max-equipment": intMax]), range("max-equipment", intMax, 0, 1000))
        XCTAssertEqual(message(.employees, ["max-equipment": "1000000000"]), range("max-equipment", "1000000000", 0, 1000))
        let dataset = try Shape.employees.generate(rows: 3, seed: 1, parameters: ShapeParameters(["max-equipment": "1000"]))
        XCTAssertLessThanOrEqual(try XCTUnwrap(dataset.tables.first { $0.name == "equipment" }).rows.count, 3000)
    }

    func testTodoTagsAreCapped() throws {
        // tags: at most 10 × rows (here 1000) and 10 million; per item at most min(tags, 1000).
        XCTAssertEqual(message(.todo, ["tags": intMax, "max-tags-per-item": intMax]), range("tags", intMax, 1, 1000))
        XCTAssertEqual(message(.todo, ["tags": "1001"]), range("tags", "1001", 1, 1000))
        XCTAssertEqual(message(.todo, rows: 2_000_000, ["tags": "10000001"]), range("tags", "10000001", 1, 10_000_000))
        XCTAssertEqual(message(.todo, ["tags": "100", "max-tags-per-item": intMax]), range("max-tags-per-item", intMax, 0, 100))
        XCTAssertEqual(message(.todo, ["tags": "1000", "max-tags-per-item": "1001"]), range("max-tags-per-item", "1001", 0, 1000))
        XCTAssertEqual(message(.todo, ["selected": "101"]), range("selected", "101", 1, 100))
        let dataset = try Shape.todo.generate(rows: 20, seed: 1, parameters: ShapeParameters(["tags": "200", "max-tags-per-item": "200"]))
        XCTAssertEqual(dataset.tables.first { $0.name == "tags" }?.rows.count, 200)
    }

    func testPetsCountsAreCapped() {
        XCTAssertEqual(message(.pets, ["added": intMax]), range("added", intMax, 0, 100_000_000))
        XCTAssertEqual(message(.pets, ["removed": "101"]), range("removed", "101", 0, 100))
    }

    func testRowCountIsCappedForEveryShape() {
        for shape in Shape.allCases {
            for rows in [0, -1, 100_000_001, 2_000_000_000, Int.max, Int.min] {
                XCTAssertEqual(message(shape, rows: rows), range("rows", String(rows), 1, 100_000_000), "\(shape)")
            }
        }
        XCTAssertEqual(Shape.rowRange, 1...100_000_000)
    }

    func testValidateChecksEverythingWithoutGenerating() throws {
        // The largest size validates at once: nothing is generated.
        let started = ContinuousClock.now
        for shape in Shape.allCases { try shape.validate(rows: 100_000_000) }
        try Shape.documents.validate(rows: 100_000_000, parameters: ShapeParameters(["fanout": "zipf", "zipf-max": "1000", "selected": "subtree"]))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))

        // And it reports exactly what generate would.
        let cases: [(Shape, Int, [String: String])] = [
            (.documents, 100_000_001, [:]), (.documents, 10, ["fanout-k": intMax]), (.documents, 10, ["selected": "11"]),
            (.documents, 10, ["rootz": "1"]), (.employees, 10, ["max-equipment": "1001"]), (.todo, 10, ["tags": "101"]),
            (.pets, 10, ["removed": "11"]),
        ]
        for (shape, rows, params) in cases {
            XCTAssertThrowsError(try shape.validate(rows: rows, parameters: ShapeParameters(params))) { error in
                XCTAssertEqual("\(error)", message(shape, rows: rows, params))
            }
        }
    }
}

final class QueryLimitTests: XCTestCase {
    private func parses(_ text: String, catalog: RelationCatalog) throws -> Query {
        try Query.parse(text, catalog: catalog, file: "test.rq")
    }

    func testRelationParenthesesNestAtMost200Levels() throws {
        let c = try Fixtures.documents()
        let deepest = "output " + String(repeating: "(", count: 200) + "documents" + String(repeating: ")", count: 200)
        XCTAssertNoThrow(try parses(deepest, catalog: c))
        // The 201st parenthesis (column 8 + 200) is the one reported.
        assertQueryError("output " + String(repeating: "(", count: 201) + "documents" + String(repeating: ")", count: 201),
            line: 1, column: 208, "relation nests deeper than 200 levels", catalog: c)
        assertQueryError("output " + String(repeating: "(", count: 1000) + "documents" + String(repeating: ")", count: 1000),
            line: 1, column: 208, "relation nests deeper than 200 levels", catalog: c)
    }

    func testExpressionsNestAtMost200Levels() throws {
        let c = try Fixtures.documents()
        let prefix = "output documents select ("  // 25 characters: the first `not` is column 26
        XCTAssertNoThrow(try parses(prefix + String(repeating: "not ", count: 200) + "id == 1)", catalog: c))
        assertQueryError(prefix + String(repeating: "not ", count: 201) + "id == 1)",
            line: 1, column: 26 + 200 * 4, "expression nests deeper than 200 levels", catalog: c)
        assertQueryError(prefix + String(repeating: "not ", count: 100_000) + "id == 1)",
            line: 1, column: 26 + 200 * 4, "expression nests deeper than 200 levels", catalog: c)
        assertQueryError(prefix + String(repeating: "(", count: 201) + "id == 1" + String(repeating: ")", count: 202),
            line: 1, column: 26 + 200, "expression nests deeper than 200 levels", catalog: c)
        // Relation and expression nesting add up: 150 + 50 is the limit, the next `not` is over.
        let shared = String(repeating: "(", count: 150) + "documents select (" + String(repeating: "not ", count: 51)
            + "id == 1)" + String(repeating: ")", count: 150)
        assertQueryError("output " + shared, line: 1, column: 8 + 150 + 18 + 50 * 4,
            "expression nests deeper than 200 levels", catalog: c)
    }

    func testNotWithParenthesesIsOneLevelSoPrintedTextReparses() throws {
        let c = try Fixtures.documents()
        // `not (` is one level: 200 of them parse, and the printer writes `not (…)` for every
        // `not`, so even 200 bare `not`s print as text that parses again.
        let parenthesized = "output documents select (" + String(repeating: "not (", count: 200) + "id == 1"
            + String(repeating: ")", count: 201)
        XCTAssertNoThrow(try parses(parenthesized, catalog: c))
        let bare = try parses("output documents select (" + String(repeating: "not ", count: 200) + "id == 1)", catalog: c)
        let printed = try QueryPrinter.print(bare, catalog: c)
        XCTAssertTrue(printed.contains("not (not ("))
        XCTAssertTrue(sameGraph(bare.relations, try parses(printed, catalog: c).relations))
    }

    func testAtMost2000OperatorsOnTopOfEachOther() throws {
        let c = try Fixtures.documents()
        let select = " select (id >= 1)"
        XCTAssertNoThrow(try parses("output documents" + String(repeating: select, count: 2000), catalog: c))
        // Column of the 2001st select: 17 + 2000 × 17 + 1.
        assertQueryError("output documents" + String(repeating: select, count: 2001), line: 1, column: 34_018,
            "relation has more than 2000 operators applied on top of each other", catalog: c)
        assertQueryError("output documents" + String(repeating: select, count: 10_000), line: 1, column: 34_018,
            "relation has more than 2000 operators applied on top of each other", catalog: c)
        // Binary chains count too (`union` is left-associative, so each is on top of the last).
        let unions = "output documents" + String(repeating: " union documents", count: 2001)
        assertQueryError(unions, line: 1, column: 16 + 2000 * 16 + 2,
            "relation has more than 2000 operators applied on top of each other", catalog: c)
        // And so do `let` names: the depth follows the graph, not the statement.
        var lets = "let r0 = documents select (id >= 1)\n"
        for i in 1..<2000 { lets += "let r\(i) = r\(i - 1) select (id >= 1)\n" }
        XCTAssertNoThrow(try parses(lets + "output r1999", catalog: c))
        assertQueryError(lets + "output r1999 project [id]", line: 2001, column: 14,
            "relation has more than 2000 operators applied on top of each other", catalog: c)
    }

    func testTheDeepestAcceptedChainEvaluates() throws {
        let c = try Fixtures.documents()
        let query = try parses("output documents" + String(repeating: " select (id >= 2)", count: 2000), catalog: c)
        let rows = try ReferenceEvaluator().rows(of: query.relations[0])
        XCTAssertEqual(rows.count, 6)
        XCTAssertTrue(sameGraph(query.relations, try parses(try QueryPrinter.print(query, catalog: c), catalog: c).relations))
    }

    func testOverflowingRealLiteralsAreRejected() throws {
        let c = try Fixtures.documents()
        let range = "a real must be finite (magnitude at most 1.7976931348623157e+308)"
        assertQueryError("output relation [x] { (1e400) }", line: 1, column: 24, "number 1e400 is out of range; \(range)", catalog: c)
        assertQueryError("output documents select (id < -2.5e309)", line: 1, column: 31, "number -2.5e309 is out of range; \(range)", catalog: c)
        // The largest finite real still parses, and underflow rounds to zero as usual.
        XCTAssertNoThrow(try parses("output relation [x] { (1.7976931348623157e308), (1e-400) }", catalog: c))
    }

    /// `\u{…}` takes 1 to 6 hex digits, as its message says; 17 were read (leading zeros).
    func testAUnicodeEscapeOfMoreThanSixDigitsIsRejected() throws {
        let c = try Fixtures.documents()
        assertQueryError("output documents select (name == \"\\u{00000000000000041}\")", line: 1, column: 35,
                         "malformed \\u{...} escape; expected 1 to 6 hex digits naming a Unicode scalar", catalog: c)
        XCTAssertNoThrow(try parses("output documents select (name == \"\\u{000041}\")", catalog: c))
    }
}
