import XCTest
@testable import Relational

/// Building a relation does no work; asking for its rows does (seed 001).
final class LazinessTests: XCTestCase {
    func testBuildingAnExpressionReadsNoSource() throws {
        let people = CountingSource(name: "people", scheme: try Scheme(["id", "name"]), rows: [[1, "Ann"], [2, "Bob"]])
        let extra = CountingSource(name: "extra", scheme: try Scheme(["id", "name"]), rows: [[3, "Cy"]])
        let gone = CountingSource(name: "gone", scheme: try Scheme(["id", "name"]), rows: [[2, "Bob"]])
        let pets = CountingSource(name: "pets", scheme: try Scheme(["owner", "pet"]), rows: [[1, "cat"], [3, "dog"]])

        let current = try Relation(source: people).union(Relation(source: extra)).difference(Relation(source: gone))
        let named = try current.select(Attribute("id") *>= 1).rename(["id": "owner"])
        let withPets = try named.join(Relation(source: pets))
        let result = try withPets.project(dropping: ["owner"]).intersection(withPets.project(dropping: ["owner"]))
        let sources = [people, extra, gone, pets]

        XCTAssertEqual(sources.map(\.cursorsMade), [0, 0, 0, 0], "building read nothing")
        XCTAssertEqual(sources.map(\.estimatesAsked), [0, 0, 0, 0])

        XCTAssertEqual(try TablePrinter.render(result), "name  pet\nAnn   cat\nCy    dog\n")
        XCTAssertEqual(sources.map(\.cursorsMade), [1, 1, 1, 1], "asking for rows read each source once")
    }

    func testASharedNodeIsComputedOncePerEvaluation() throws {
        let source = CountingSource(name: "s", scheme: try Scheme(["x"]), rows: [[1], [2]])
        let shared = Relation(source: source)
        let both = try shared.union(shared).join(shared)
        XCTAssertEqual(source.cursorsMade, 0)
        XCTAssertEqual(try both.rows().count, 2)
        XCTAssertEqual(source.cursorsMade, 1)
        // A second request evaluates again: relations are views, not caches.
        _ = try both.rows()
        XCTAssertEqual(source.cursorsMade, 2)
    }

    func testRowsReflectChangesMadeAfterBuilding() throws {
        let table = try MemoryTable(name: "t", columns: ["id"], rows: [[1]])
        let big = try Relation(source: table).select(Attribute("id") *> 1)
        XCTAssertEqual(try big.rows(), [])
        try table.add([5])
        XCTAssertEqual(try big.rows(), [[5]])
    }
}
