import QueryEngine
import Relational
import XCTest
@testable import Workloads

/// Generated change sessions: deterministic by their inputs, and every transaction applies
/// cleanly (parses, changes at least one row, keeps keys unique; documents never gain a
/// cycle and the selection always names a document).
final class ChangeSessionTests: XCTestCase {
    private func script(_ shape: Shape, rows: Int = 300, seed: UInt64 = 42, session: String, transactions: Int = 60,
                        sessionSeed: UInt64 = 7, params: [String: String] = [:]) throws -> String {
        let dataset = try shape.generate(rows: rows, seed: seed)
        return try ChangeSessions.generate(
            dataset: dataset, session: session, transactions: transactions, seed: sessionSeed, parameters: ShapeParameters(params))
    }

    func testSameSeedsGiveIdenticalScriptsAndOtherSeedsOtherOnes() throws {
        for shape in Shape.allCases {
            for session in ChangeSessions.names(for: shape) {
                let a = try script(shape, session: session)
                XCTAssertEqual(a, try script(shape, session: session), "\(shape) \(session)")
                XCTAssertNotEqual(a, try script(shape, session: session, sessionSeed: 8), "\(shape) \(session): session seed")
                XCTAssertNotEqual(a, try script(shape, seed: 43, session: session), "\(shape) \(session): dataset seed")
            }
        }
        let browse = try script(.documents, session: "ui-browse")
        XCTAssertNotEqual(browse, try script(.documents, session: "ui-browse", params: ["child": "0", "parent": "0"]))
    }

    func testEveryDocumentsTransactionAppliesCleanly() throws {
        for session in ChangeSessions.names(for: .documents) {
            for seed in [UInt64(1), 2, 3] {
                let dataset = try Shape.documents.generate(rows: 400, seed: seed, parameters: ShapeParameters(["roots": "3"]))
                let text = try ChangeSessions.generate(dataset: dataset, session: session, transactions: 80, seed: seed)
                try applyAll(text, dataset: dataset, keys: ["documents": ["id"], "selected_documents": ["id"]]) { tables, t in
                    let docs = try tables["documents"]?.source?.fetchAll() ?? []
                    var parent: [Value: Value] = [:]
                    for row in docs { parent[row.values[0]] = row.values[2] }  // scheme order: id, name, parent_id
                    for start in parent.keys {
                        var seen: Set<Value> = [start]
                        var current = parent[start]
                        while let c = current, !c.isNull {
                            XCTAssertNotNil(parent[c], "\(session) seed \(seed) transaction \(t): parent \(c) of a document is missing")
                            guard seen.insert(c).inserted else {
                                XCTFail("\(session) seed \(seed) transaction \(t): a cycle through \(c)")
                                break
                            }
                            current = parent[c]
                        }
                    }
                    for s in try tables["selected_documents"]?.source?.fetchAll() ?? [] {
                        XCTAssertNotNil(parent[s.values[0]], "\(session) seed \(seed) transaction \(t): selection \(s) names no document")
                    }
                }
            }
        }
    }

    func testEveryOtherShapesTransactionAppliesCleanly() throws {
        let keys: [Shape: [String: [Attribute]]] = [
            .pets: ["added": ["id"], "removed": ["id"]],
            .todo: ["items": ["item_id"], "tags": ["tag_id"], "selected_item_ids": ["item_id"]],
            .employees: ["employees": ["id"], "equipment": ["serial_number"]],
        ]
        for shape in [Shape.pets, .todo, .employees] {
            for session in ChangeSessions.names(for: shape) {
                let dataset = try shape.generate(rows: 200, seed: 5)
                let text = try ChangeSessions.generate(dataset: dataset, session: session, transactions: 100, seed: 11)
                try applyAll(text, dataset: dataset, keys: keys[shape] ?? [:]) { _, _ in }
            }
        }
    }

    /// The smallest datasets too: where every document is selected (one document), the
    /// selection cannot move and `ui-browse` renames instead, each time to a new name.
    func testEveryTransactionChangesARowOnTheSmallestDatasets() throws {
        for shape in Shape.allCases {
            for rows in [1, 2, 3] {
                let dataset = try shape.generate(rows: rows, seed: 42)
                for session in ChangeSessions.names(for: shape) {
                    let text = try ChangeSessions.generate(dataset: dataset, session: session, transactions: 12, seed: 7)
                    try applyAll(text, dataset: dataset, keys: [:], label: "\(shape) rows \(rows) \(session)") { _, _ in }
                }
            }
        }
    }

    /// A session that runs out of what its kind needs makes another kind of transaction, and
    /// says how many in the script's header: counted here from the statements themselves.
    func testTransactionsMadeAsAnotherKindAreCountedInTheHeader() throws {
        let cases: [(Shape, Int, String, made: String, firstStatement: String)] = [
            (.documents, 10, "delete-subtree", "edit", "update documents set [name"),
            (.pets, 5, "remove", "adopt", "add added"),
            (.employees, 2, "unassign", "hire", "add employees"),
            (.todo, 2, "untag", "tag", "add item_tags"),
        ]
        for (shape, rows, session, made, firstStatement) in cases {
            let dataset = try shape.generate(rows: rows, seed: 42)
            let (text, standIns) = try ChangeSessions.generateReporting(dataset: dataset, session: session, transactions: 20, seed: 7)
            let lines = text.split(separator: "\n").map(String.init)
            let transactions = lines.enumerated().compactMap { i, line -> String? in
                if line.hasPrefix("#") || line.hasPrefix("  ") || line == "commit" { return nil }
                return line == "begin" ? String(lines[i + 1].dropFirst(2)) : line
            }
            XCTAssertEqual(transactions.count, 20, "\(shape) \(session)")
            let other = transactions.filter { $0.hasPrefix(firstStatement) }.count
            XCTAssertGreaterThan(other, 0, "\(shape) \(session): the case no longer runs out")
            let note = "\(other) of 20 \(session) transactions are \(made) instead (the tables as changed so far lack what \(session) needs)"
            XCTAssertEqual(standIns.lines, [note], "\(shape) \(session)")
            XCTAssertEqual(lines[1], "# " + note, "\(shape) \(session)")
        }
        // Nothing runs out: the header is one line.
        let plenty = try script(.documents, session: "delete-subtree", transactions: 5)
        XCTAssertFalse(plenty.split(separator: "\n")[1].hasPrefix("#"), plenty)
    }

    /// Parses `text` against fresh tables and applies each transaction; each must change
    /// at least one source row. `check` runs after every transaction.
    private func applyAll(_ text: String, dataset: Dataset, keys: [String: [Attribute]], label: String = "",
                          check: (RelationCatalog, Int) throws -> Void) throws {
        let tables = try dataset.memoryRelations()
        let script = try ChangeScript.parse(text, targets: tables, file: "session.changes")
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        for (name, key) in keys.sorted(by: { $0.key < $1.key }) {
            guard let relation = tables[name] else { return XCTFail("no table \(name)") }
            try db.declareKey(key, of: relation)
        }
        XCTAssertEqual(script.transactions.count, text.components(separatedBy: "\n").filter {
            !$0.hasPrefix("#") && !$0.hasPrefix("  ") && $0 != "commit" && !$0.isEmpty }.count)
        for (i, transaction) in script.transactions.enumerated() {
            let report = try script.apply(transaction, to: db)
            XCTAssertGreaterThan(report.sourceRowsChanged, 0, "\(label) transaction \(i + 1) changed nothing: \(transaction.position)")
            try check(tables, i + 1)
        }
    }

    func testBadSessionRequestsAreRefusedNamingTheProblem() throws {
        XCTAssertThrowsError(try ChangeSessions.validate(shape: .documents, session: "ui-brows", transactions: 5, parameters: ShapeParameters())) {
            XCTAssertTrue("\($0)".contains("did you mean 'ui-browse'"), "\($0)")
        }
        XCTAssertThrowsError(try ChangeSessions.validate(shape: .todo, session: "tag", transactions: 0, parameters: ShapeParameters())) {
            XCTAssertTrue("\($0)".contains("transactions"), "\($0)")
        }
        XCTAssertThrowsError(try ChangeSessions.validate(
            shape: .documents, session: "ui-browse", transactions: 5, parameters: ShapeParameters(["sibling": "x"]))) {
            XCTAssertTrue("\($0)".contains("sibling"), "\($0)")
        }
        XCTAssertThrowsError(try ChangeSessions.validate(
            shape: .documents, session: "edit", transactions: 5, parameters: ShapeParameters(["import-size": "3"]))) {
            XCTAssertTrue("\($0)".contains("import-size"), "\($0)")
            XCTAssertTrue("\($0)".hasSuffix("(it takes no parameters)"), "\($0): not an empty list of known ones")
        }
    }

    /// `transactions` times `import-size` is bounded: a million imports of 10,000 documents
    /// each grew a script in memory without end. Only a session that can import counts its size.
    func testASessionThatMayAddTooManyRowsIsRefused() throws {
        let huge = ShapeParameters(["import-size": "10000"])
        for session in ["import", "mixed"] {
            XCTAssertThrowsError(try ChangeSessions.validate(shape: .documents, session: session, transactions: 1_000_000, parameters: huge)) {
                XCTAssertTrue("\($0)".contains("may add 10000000000"), "\($0)")
            }
        }
        XCTAssertNoThrow(try ChangeSessions.validate(shape: .documents, session: "import", transactions: 1_000, parameters: huge))
        XCTAssertNoThrow(try ChangeSessions.validate(
            shape: .documents, session: "mixed", transactions: 1_000_000, parameters: ShapeParameters(["import-size": "10000", "import": "0"])))
        XCTAssertNoThrow(try ChangeSessions.validate(shape: .documents, session: "import", transactions: 1_000_000, parameters: ShapeParameters()))
    }
}
