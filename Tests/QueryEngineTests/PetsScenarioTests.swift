import XCTest
import Relational
@testable import QueryEngine

/// Seed 000's pets: ((pets ∪ added) − removed) select animal == "cat", indexed on animal.
final class PetsScenarioTests: XCTestCase {
    private func table(_ name: String, _ rows: [[Value]]) throws -> MemoryTable {
        try MemoryTable(name: name, columns: ["id", "name", "animal"], rows: rows, indexedAttributes: ["animal", "id"])
    }

    private func query() throws -> (Relation, [MemoryTable]) {
        let pets = try table("pets", [
            [1, "Mickey", "cat"], [2, "Fido", "dog"], [3, "Nudges", "cat"], [4, "Rover", "dog"],
            [5, "Spot", "dog"], [6, "Rex", "dog"],
        ])
        let added = try table("added", [[7, "Pointy", "cat"], [8, "Bruno", "dog"]])
        let removed = try table("removed", [[3, "Nudges", "cat"], [2, "Fido", "dog"]])
        let current = try Relation(source: pets).union(Relation(source: added)).difference(Relation(source: removed))
        return (try current.select(Attribute("animal") *== "cat"), [pets, added, removed])
    }

    func testPushdownDeliversOnlyCats() throws {
        let (cats, tables) = try query()
        let run = try QueryEngine(preset: "all-on").run([cats])
        let examined = tables.map(\.rowsExamined)
        XCTAssertEqual(run.results[0].asSet, try ReferenceEvaluator.evaluate(cats).asSet)
        XCTAssertEqual(run.results[0].asSet, [Row(["cat", 1, "Mickey"]), Row(["cat", 7, "Pointy"])])
        // pets has 2 cats, added 1, removed 1: only those are delivered.
        XCTAssertEqual(run.counters.sourceRowsRead, 4)
        XCTAssertEqual(examined, [2, 1, 1])
    }

    func testWithoutPushdownEveryRowIsDelivered() throws {
        let (cats, _) = try query()
        let flags = try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["select-pushdown"])
        let run = try QueryEngine(flags: flags).run([cats])
        XCTAssertEqual(run.results[0].asSet, try ReferenceEvaluator.evaluate(cats).asSet)
        XCTAssertEqual(run.counters.sourceRowsRead, 10)
        // No filter at all: `set-operand-filter` would give the difference's right side its
        // complete left operand's rows, but that side has fewer rows left to read than the
        // left has keys, so the filter could not save a row (`rowsLeftToRead`).
        XCTAssertEqual(run.counters.filtersProvided, 0)
    }
}
