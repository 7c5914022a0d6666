import Relational
import XCTest
@testable import Workloads

/// The documents generator's deep chains and injected cycles, for recursive queries.
final class HierarchyGeneratorTests: XCTestCase {
    /// Parent of each id, from the generated documents table.
    func parents(_ dataset: Dataset) throws -> [Int64: Int64?] {
        let table = try XCTUnwrap(dataset.tables.first { $0.name == "documents" })
        let id = try XCTUnwrap(table.scheme.index(of: "id")), parent = try XCTUnwrap(table.scheme.index(of: "parent_id"))
        var out: [Int64: Int64?] = [:]
        for row in table.rows {
            guard case let .integer(i) = row.values[id] else { continue }
            if case let .integer(p) = row.values[parent] { out[i] = p } else { out[i] = .some(nil) }
        }
        return out
    }

    func testOffByDefaultKeepsTheData() throws {
        let plain = try Shape.documents.generate(rows: 500, seed: 3)
        let zeros = try Shape.documents.generate(rows: 500, seed: 3, parameters: ShapeParameters(["chain-length": "0", "cycles": "0"]))
        XCTAssertEqual(plain.contentHash, zeros.contentHash)
    }

    func testChainLengthMakesTheLastDocumentsOneChain() throws {
        let dataset = try Shape.documents.generate(rows: 500, seed: 3, parameters: ShapeParameters(["chain-length": "60", "max-depth": "5"]))
        let parent = try parents(dataset)
        for id in Int64(442)...500 { XCTAssertEqual(parent[id], .some(id - 1), "document \(id)") }
        // Document 500 lies at least 59 levels deep, far below max-depth 5.
        var depth = 0
        var current: Int64? = 500
        while let c = current, let p = parent[c] { current = p; depth += 1 }
        XCTAssertGreaterThanOrEqual(depth, 59)
    }

    func testCyclesMakeParentLinksLoopAndLeaveTheSelectionAlone() throws {
        let plain = try Shape.documents.generate(rows: 500, seed: 3)
        let cyclic = try Shape.documents.generate(rows: 500, seed: 3, parameters: ShapeParameters(["cycles": "4"]))
        XCTAssertEqual(plain.tables.first { $0.name == "selected_documents" }?.rows,
                       cyclic.tables.first { $0.name == "selected_documents" }?.rows)
        let parent = try parents(cyclic)
        let before = try parents(plain)
        let changed = parent.keys.filter { parent[$0]! != before[$0]! }
        XCTAssertFalse(changed.isEmpty)
        XCTAssertLessThanOrEqual(changed.count, 4)
        for root in changed {
            XCTAssertEqual(before[root]!, nil, "only roots get a parent")
            // Following parents from the old root comes back to it.
            var seen = Set<Int64>()
            var current = root
            while let p = parent[current]!, seen.insert(current).inserted { current = p }
            XCTAssertEqual(current, root)
        }
    }

    func testBadValuesAreNamed() {
        XCTAssertThrowsError(try Shape.documents.generate(rows: 10, seed: 1, parameters: ShapeParameters(["cycles": "-1"]))) { error in
            XCTAssertTrue("\(error)".contains("cycles"), "\(error)")
        }
        XCTAssertThrowsError(try Shape.documents.generate(rows: 10, seed: 1, parameters: ShapeParameters(["chain-length": "11"]))) { error in
            XCTAssertTrue("\(error)".contains("chain-length"), "\(error)")
        }
    }
}
