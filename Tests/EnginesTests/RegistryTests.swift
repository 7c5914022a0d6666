import Engines
import Relational
import Workloads
import XCTest

final class RegistryTests: XCTestCase {
    func testEveryRegisteredNameIsFoundAndUnique() throws {
        XCTAssertEqual(Set(EngineRegistry.names).count, EngineRegistry.names.count)
        for name in EngineRegistry.names { XCTAssertEqual(try EngineRegistry.require(name).name, name) }
        XCTAssertTrue(EngineRegistry.names.contains("sqlite"))
        XCTAssertTrue(EngineRegistry.names.contains("sqlite-analyzed"))
    }

    func testUnknownNamesAreRefusedWithASuggestion() {
        XCTAssertThrowsError(try EngineRegistry.require("sqlite-analysed")) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'sqlite-analyzed'"), "\(error)")
        }
        XCTAssertThrowsError(try EngineRegistry.parseList("sqlite,,sqlite-analyzed")) { error in
            XCTAssertTrue("\(error)".contains("--engines: empty engine name"), "\(error)")
        }
        XCTAssertThrowsError(try EngineRegistry.parseList("sqlite,sqlite")) { error in
            XCTAssertTrue("\(error)".contains("listed twice"), "\(error)")
        }
        XCTAssertEqual(try EngineRegistry.parseList("sqlite-analyzed, sqlite").map(\.label), ["sqlite-analyzed", "sqlite"])
    }

    /// The SQLite engines go through the protocol: load, prepare, run, explain, stop.
    func testSQLiteEngineThroughTheProtocol() throws {
        let table = try DatasetTable(
            name: "t", columns: ["id", "name"], rows: [[1, "a"], [2, .null], [3, "a"]], indexedAttributes: ["id"])
        for spec in try EngineRegistry.parseList("sqlite,sqlite-analyzed") {
            let engine = try spec.start()
            defer { engine.stop() }
            let catalog = try engine.load([table])
            let t = try XCTUnwrap(catalog["t"])
            let statement = try engine.prepare([try t.select(Attribute("name") *== "a").project(["name"]), try t.project([])])
            let run = try engine.run(statement)
            XCTAssertEqual(run.results, [[["a"]], [[]]])
            XCTAssertNotNil(run.engineMicroseconds)
            let plans = try engine.explain(statement)
            XCTAssertEqual(plans.count, 2)
            XCTAssertTrue(plans[0].text.contains("SCAN") || plans[0].text.contains("SEARCH"), plans[0].text)
        }
    }
}
