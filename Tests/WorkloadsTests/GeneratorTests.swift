import XCTest
import Relational
@testable import Workloads

final class GeneratorTests: XCTestCase {
    // MARK: Determinism

    func testSplitMix64MatchesTheReferenceStream() {
        // Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var g = SplitMix64Generator(seed: 0)
        XCTAssertEqual(g.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(g.next(), 0x6E78_9E6A_A1B9_65F4)
        XCTAssertEqual(g.next(), 0x06C4_5D18_8009_454F)
    }

    func testPinnedContentHashes() throws {
        // Pinned: a change here means every dataset changed; bump deliberately.
        let documents = try Shape.documents.generate(rows: 200, seed: 7, parameters: ShapeParameters(["roots": "3"]))
        XCTAssertEqual(documents.contentHashHex, "a8ab99b145325191")
        XCTAssertEqual(try Shape.pets.generate(rows: 50, seed: 7).contentHashHex, "6b9990bbeaaa227d")
        XCTAssertEqual(try Shape.todo.generate(rows: 50, seed: 7).contentHashHex, "11cfc8c655b72457")
        XCTAssertEqual(try Shape.employees.generate(rows: 50, seed: 7).contentHashHex, "cc4d7d3c824ecec8")
    }

    func testTwoGenerationsAreByteIdentical() throws {
        for shape in Shape.allCases {
            let params = shape == .documents ? ShapeParameters(["order": "shuffled", "fanout": "zipf"]) : ShapeParameters()
            let a = try shape.generate(rows: 300, seed: 99, parameters: params)
            let b = try shape.generate(rows: 300, seed: 99, parameters: params)
            XCTAssertEqual(a.tables.map(\.name), b.tables.map(\.name))
            for (x, y) in zip(a.tables, b.tables) {
                XCTAssertEqual(Array(CSVWriter.text(scheme: x.scheme, rows: x.rows).utf8),
                               Array(CSVWriter.text(scheme: y.scheme, rows: y.rows).utf8), "\(shape) \(x.name)")
            }
            XCTAssertEqual(a.contentHash, b.contentHash)
            let other = try shape.generate(rows: 300, seed: 100, parameters: params)
            XCTAssertNotEqual(a.contentHash, other.contentHash, "\(shape): the seed must matter")
        }
    }

    // MARK: Documents parameters

    /// Checks the tree invariants and returns (depth by id, roots).
    @discardableResult
    private func checkTree(_ dataset: Dataset, rows: Int, maxDepth: Int, file: StaticString = #filePath, line: UInt = #line) throws -> [Int64: Int] {
        guard let table = dataset.table(named: "documents") else {
            XCTFail("no documents table", file: file, line: line)
            return [:]
        }
        XCTAssertEqual(table.rows.count, rows, "exact row count", file: file, line: line)
        var parentOf: [Int64: Int64?] = [:]
        for row in table.rows {
            guard case let .integer(id) = row[0] else { XCTFail("id not an integer", file: file, line: line); continue }
            switch row[2] {
            case .null: parentOf[id] = .some(nil)
            case let .integer(p): parentOf[id] = .some(p)
            default: XCTFail("parent_id neither null nor integer", file: file, line: line)
            }
        }
        XCTAssertEqual(Set(parentOf.keys), Set((1...Int64(rows))), "ids are 1...rows", file: file, line: line)
        var depth: [Int64: Int] = [:]
        func depthOf(_ id: Int64) -> Int {
            if let d = depth[id] { return d }
            guard let p = parentOf[id] ?? nil else { depth[id] = 0; return 0 }
            let d = depthOf(p) + 1
            depth[id] = d
            return d
        }
        for (id, p) in parentOf {
            if let p { XCTAssertTrue(parentOf[p] != nil, "parent \(p) of \(id) exists", file: file, line: line) }
        }
        for id in parentOf.keys { XCTAssertLessThanOrEqual(depthOf(id), maxDepth, file: file, line: line) }
        XCTAssertEqual(dataset.statistics.depthHistogram.values.reduce(0, +), rows, file: file, line: line)
        XCTAssertEqual(dataset.statistics.depthHistogram[0], parentOf.values.filter { $0 == nil }.count, file: file, line: line)
        return depth
    }

    func testDefaultDocumentsHonourRowsRootsAndDepth() throws {
        let dataset = try Shape.documents.generate(rows: 5000, seed: 1)
        let depth = try checkTree(dataset, rows: 5000, maxDepth: 20)
        XCTAssertEqual(depth.values.filter { $0 == 0 }.count, 50, "default roots: 1% of rows")
        XCTAssertEqual(dataset.table(named: "selected_documents")?.rows.count, 1)
    }

    func testRootCountAndFractionAndMaxDepth() throws {
        for (roots, expected) in [("7", 7), ("0.1", 100), ("1", 1)] {
            for depth in [1, 2, 3, 30] {
                for fanout in ["uniform", "fixed", "zipf"] {
                    let params = ShapeParameters(["roots": roots, "max-depth": String(depth), "fanout": fanout])
                    let dataset = try Shape.documents.generate(rows: 1000, seed: 3, parameters: params)
                    let depths = try checkTree(dataset, rows: 1000, maxDepth: depth)
                    XCTAssertEqual(depths.values.filter { $0 == 0 }.count, expected, "roots=\(roots) depth=\(depth) \(fanout)")
                }
            }
        }
    }

    func testFixedFanoutBuildsACompleteTree() throws {
        let params = ShapeParameters(["roots": "1", "fanout": "fixed", "fanout-k": "3", "max-depth": "10"])
        let dataset = try Shape.documents.generate(rows: 40, seed: 5, parameters: params)
        try checkTree(dataset, rows: 40, maxDepth: 10)
        // 1 + 3 + 9 + 27 = 40: a complete ternary tree of depth 3.
        XCTAssertEqual(dataset.statistics.depthHistogram, [0: 1, 1: 3, 2: 9, 3: 27])
        XCTAssertEqual(dataset.statistics.fanout?.minimum, 3)
        XCTAssertEqual(dataset.statistics.fanout?.maximum, 3)
    }

    func testParentsFirstAndShuffledIdOrders() throws {
        let ordered = try Shape.documents.generate(rows: 500, seed: 2)
        for row in ordered.table(named: "documents")?.rows ?? [] {
            if case let .integer(id) = row[0], case let .integer(p) = row[2] { XCTAssertLessThan(p, id) }
        }
        let shuffled = try Shape.documents.generate(rows: 500, seed: 2, parameters: ShapeParameters(["order": "shuffled"]))
        try checkTree(shuffled, rows: 500, maxDepth: 20)
        let backwards = (shuffled.table(named: "documents")?.rows ?? []).filter { row in
            if case let .integer(id) = row[0], case let .integer(p) = row[2] { return p > id }
            return false
        }
        XCTAssertFalse(backwards.isEmpty, "shuffled ids put some parents after their children")
    }

    func testSelectedDocuments() throws {
        let k = try Shape.documents.generate(rows: 300, seed: 4, parameters: ShapeParameters(["selected": "12"]))
        let ids = try k.table(named: "selected_documents")?.column("id") ?? []
        XCTAssertEqual(Set(ids).count, 12)

        let sub = try Shape.documents.generate(rows: 300, seed: 4, parameters: ShapeParameters(["selected": "subtree"]))
        let selected = Set(try sub.table(named: "selected_documents")?.column("id") ?? [])
        let rows = sub.table(named: "documents")?.rows ?? []
        // Closed under children, and exactly one selected document has its parent outside.
        for row in rows where selected.contains(row[2]) { XCTAssertTrue(selected.contains(row[0])) }
        let tops = rows.filter { selected.contains($0[0]) && !selected.contains($0[2]) }
        XCTAssertEqual(tops.count, 1)
        XCTAssertGreaterThan(selected.count, 1)
    }

    // MARK: Other shapes

    func testOtherShapesHonourRowCountsAndForeignKeys() throws {
        let pets = try Shape.pets.generate(rows: 400, seed: 8, parameters: ShapeParameters(["added": "10", "removed": "5"]))
        XCTAssertEqual(pets.table(named: "pets")?.rows.count, 400)
        XCTAssertEqual(pets.table(named: "added")?.rows.count, 10)
        let removed = Set(pets.table(named: "removed")?.rows ?? [])
        XCTAssertEqual(removed.count, 5)
        XCTAssertTrue(removed.isSubset(of: Set(pets.table(named: "pets")?.rows ?? [])), "removed rows are existing pets")

        let todo = try Shape.todo.generate(rows: 300, seed: 8, parameters: ShapeParameters(["tags": "12"]))
        XCTAssertEqual(todo.table(named: "items")?.rows.count, 300)
        XCTAssertEqual(todo.table(named: "tags")?.rows.count, 12)
        let itemIDs = Set(try todo.table(named: "items")?.column("item_id") ?? [])
        let tagIDs = Set(try todo.table(named: "tags")?.column("tag_id") ?? [])
        XCTAssertTrue(Set(try todo.table(named: "item_tags")?.column("item_id") ?? []).isSubset(of: itemIDs))
        XCTAssertTrue(Set(try todo.table(named: "item_tags")?.column("tag_id") ?? []).isSubset(of: tagIDs))
        XCTAssertTrue(Set(try todo.table(named: "selected_item_ids")?.column("item_id") ?? []).isSubset(of: itemIDs))

        let employees = try Shape.employees.generate(rows: 250, seed: 8)
        XCTAssertEqual(employees.table(named: "employees")?.rows.count, 250)
        let owners = Set(try employees.table(named: "equipment")?.column("owner_id") ?? [])
        XCTAssertTrue(owners.isSubset(of: Set(try employees.table(named: "employees")?.column("id") ?? [])))
    }

    // MARK: Parameter errors

    func testBadParametersAreReported() {
        func message(_ shape: Shape, _ params: [String: String], rows: Int = 100) -> String {
            do {
                _ = try shape.generate(rows: rows, seed: 1, parameters: ShapeParameters(params))
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(message(.documents, ["rootz": "3"]),
            "unknown parameter 'rootz' for shape documents; did you mean 'roots'? (known: chain-length, cycles, fanout, fanout-k, max-depth, null-names, order, reals, roots, selected, zipf-max, zipf-s)")
        XCTAssertEqual(message(.documents, ["fanout": "normal"]),
            "parameter 'fanout': 'normal' is not valid; expected uniform | fixed | zipf")
        XCTAssertEqual(message(.documents, ["roots": "200"]),
            "parameter 'roots': '200' is not valid; expected at most the row count 100")
        XCTAssertEqual(message(.documents, ["zipf-s": "1.3", "fanout": "zipf"]),
            "parameter 'zipf-s': '1.3' is not valid; expected a multiple of 0.5 from 0.5 to 4")
        // Beside another fanout they would be ignored without a word.
        XCTAssertEqual(message(.documents, ["zipf-s": "abc"]),
            "parameter 'zipf-s': 'abc' is not valid; expected no value unless fanout=zipf (the fanout is uniform)")
        XCTAssertEqual(message(.documents, ["zipf-max": "-5", "fanout": "fixed"]),
            "parameter 'zipf-max': '-5' is not valid; expected no value unless fanout=zipf (the fanout is fixed)")
        XCTAssertEqual(message(.documents, ["max-depth": "0", "roots": "5"]),
            "max-depth=0 allows only roots, but roots=5 < rows=100")
        XCTAssertEqual(message(.pets, [:], rows: 0), "parameter 'rows': '0' is not valid; expected an integer from 1 to 100000000")
        XCTAssertThrowsError(try Shape.named("document")) { error in
            XCTAssertEqual("\(error)", "unknown shape 'document'; did you mean 'documents'? (expected one of: documents, pets, todo, employees)")
        }
    }

    func testParameterAssignmentsAreRefusedWhenMalformedOrRepeated() throws {
        XCTAssertEqual(try ShapeParameters(assignments: ["roots=3", "order=shuffled"]).description, "order=shuffled,roots=3")
        XCTAssertThrowsError(try ShapeParameters(assignments: ["roots=3", "roots=4"])) { error in
            XCTAssertEqual(error as? WorkloadError, .repeatedParameter("roots", first: "3", second: "4"))
            XCTAssertEqual("\(error)", "parameter 'roots': given twice ('3', then '4'); give it once")
        }
        for text in ["roots", "roots=", "=3", ""] {
            XCTAssertThrowsError(try ShapeParameters(assignments: [text])) { error in
                XCTAssertEqual(error as? WorkloadError, .malformedParameter(text), text)
            }
        }
        XCTAssertEqual("\(WorkloadError.malformedParameter("a\u{1b}"))", "'a\\u{1b}' is not key=value")
    }

    /// Callers name the place themselves (`--param roots`): the problem comes without its lead.
    func testAParameterProblemSplitsTheNameFromTheMessage() {
        let outOfRange = WorkloadError.outOfRange(name: "rows", value: "0", minimum: 1, maximum: 9)
        XCTAssertEqual(outOfRange.parameterProblem?.name, "rows")
        XCTAssertEqual(outOfRange.parameterProblem?.problem, "'0' is not valid; expected an integer from 1 to 9")
        XCTAssertEqual("\(outOfRange)", "parameter 'rows': '0' is not valid; expected an integer from 1 to 9")
        let bad = WorkloadError.badParameter(name: "order", value: "random", expected: "parents-first | shuffled")
        XCTAssertEqual(bad.parameterProblem?.problem, "'random' is not valid; expected parents-first | shuffled")
        XCTAssertNil(WorkloadError.unknownParameter("x", shape: "pets", known: [], suggestion: nil).parameterProblem)
        XCTAssertNil(WorkloadError.impossible("no").parameterProblem)
    }
}
