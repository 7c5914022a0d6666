import QueryEngine
import Relational
import XCTest

/// The README's "Observing change" example, kept compiling and correct.
final class ObservingChangeReadmeTests: XCTestCase {
    func testReadmeExample() throws {
        let fruits = Relation(source: try MemoryTable(name: "fruit", scheme: Scheme(["id", "name"]),
                                                      indexedAttributes: ["id"]))
        let selectedIDs = Relation(source: try MemoryTable(name: "selected_fruit_id",
                                                           scheme: Scheme(["_id", "fruit_id"])))
        let selectedName = try fruits.equijoin(selectedIDs, matching: [JoinPair("id", "fruit_id")])
            .project(["name"])

        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        try db.declareKey(["id"], of: fruits)
        var printed: [String] = []
        try db.observe(selectedName) { change in printed.append(change.rendered(scheme: selectedName.scheme)) }
        let report = try db.transaction {
            try db.add([["id": 1, "name": "Apple"], ["id": 3, "name": "Bandana"]], to: fruits)
            try db.add([["_id": 0, "fruit_id": 3]], to: selectedIDs)
        }
        try db.update(selectedName, set: ["name": "Banana"])
        XCTAssertEqual(printed, ["Added\n[name: Bandana]", "Added\n[name: Banana]\nRemoved\n[name: Bandana]"])
        XCTAssertEqual(Set(try fruits.rows()), [Row([1, "Apple"]), Row([3, "Banana"])])
        XCTAssertGreaterThan(report.counters.sourceRowsRead, 0)
        XCTAssertEqual(report.sourceRowsChanged, 3)
    }
}
