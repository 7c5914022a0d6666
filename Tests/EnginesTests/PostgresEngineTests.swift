import Engines
import Glibc
import Relational
import Workloads
import XCTest

/// The PostgreSQL engines through the registry's protocol on a real server.
final class PostgresEngineTests: XCTestCase {
    override func setUpWithError() throws {
        let kind = try EngineRegistry.require("postgres")
        if let why = kind.missing() {
            if getenv("TESTBED_REQUIRE_ENGINES").map({ String(cString: $0) }) == "1" { XCTFail(why) }
            throw XCTSkip(why)
        }
    }

    func testBothNamesAreRegisteredWithTheBackendPostgres() throws {
        for name in ["postgres", "postgres-analyzed"] {
            XCTAssertEqual(try EngineRegistry.require(name).backend, "postgres")
        }
        XCTAssertThrowsError(try EngineRegistry.require("postgress")) { error in
            XCTAssertTrue("\(error)".contains("did you mean 'postgres'"), "\(error)")
        }
    }

    /// A `TESTBED_POSTGRES_USER` naming no user, or root, was found only when the server
    /// started (after a run's own cells; `query --engine` exit 1). The engine now says it is
    /// not available, naming the variable, before anything starts (exit 2). As root only:
    /// otherwise the testbed runs the server itself and the variable is not read.
    func testAServerUserThatCannotRunTheServerIsReportedAsMissing() throws {
        let kind = try EngineRegistry.require("postgres")
        guard geteuid() == 0 else {
            XCTAssertNil(withEnvironment("TESTBED_POSTGRES_USER", "nosuchuser") { kind.missing() })
            return
        }
        let unknown = try XCTUnwrap(withEnvironment("TESTBED_POSTGRES_USER", "nosuchuser") { kind.missing() })
        XCTAssertTrue(unknown.contains("nosuchuser") && unknown.contains("TESTBED_POSTGRES_USER"), unknown)
        let root = try XCTUnwrap(withEnvironment("TESTBED_POSTGRES_USER", "root") { kind.missing() })
        XCTAssertTrue(root.contains("names root"), root)
        XCTAssertNil(kind.missing(), "the default user runs it")
    }

    func testSettingNamesAreCheckedAgainstTheServersOwnList() throws {
        let kind = try EngineRegistry.require("postgres-analyzed")
        XCTAssertNil(kind.checkSetting("enable_hashjoin", "off"))
        XCTAssertNil(kind.checkSetting("work_mem", "64MB"))
        let misspelt = try XCTUnwrap(kind.checkSetting("enable_hashjoins", "off"))
        XCTAssertTrue(misspelt.contains("unknown PostgreSQL setting") && misspelt.contains("enable_hashjoin"), misspelt)
        XCTAssertNotNil(kind.checkSetting("enable hashjoin", "off"))
        XCTAssertNotNil(kind.checkSetting("enable_hashjoin", ""))
    }

    func testABadSettingValueIsAUsageErrorAndStopsTheServer() throws {
        let spec = EngineSpec(label: "pg", kind: try EngineRegistry.require("postgres"),
                              settings: EngineSettings([("enable_hashjoin", "sideways")]))
        XCTAssertThrowsError(try spec.start()) { error in
            guard case let .usage(text)? = error as? EngineError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("enable_hashjoin") && text.contains("sideways"), text)
        }
    }

    /// A join PostgreSQL plans as a hash join after ANALYZE, and not with enable_hashjoin off.
    func testSettingsReachThePlanner() throws {
        let dataset = try Shape.documents.generate(rows: 5000, seed: 3)
        var plans: [String: String] = [:]
        for (label, settings) in [("on", EngineSettings()), ("off", EngineSettings([("enable_hashjoin", "off")]))] {
            let engine = try EngineSpec(label: label, kind: try EngineRegistry.require("postgres-analyzed"), settings: settings).start()
            defer { engine.stop() }
            let catalog = try engine.load(dataset.tables)
            let documents = try XCTUnwrap(catalog["documents"])
            let parents = try documents.project(["parent_id"]).rename(["parent_id": "id"])
            let statement = try engine.prepare([try parents.join(documents)])
            plans[label] = try engine.explain(statement).map(\.text).joined()
            XCTAssertEqual(try engine.explain(statement).first?.format, "json")
        }
        XCTAssertTrue(plans["on"]?.contains("\"Hash Join\"") == true, plans["on"] ?? "")
        XCTAssertFalse(plans["off"]?.contains("\"Hash Join\"") == true, plans["off"] ?? "")
    }

    func testCatalogQueriesMatchSQLiteAndStopRemovesTheServer() throws {
        let dataset = try Shape.documents.generate(rows: 2000, seed: 11)
        let sqlite = try EngineRegistry.parseList("sqlite")[0].start()
        defer { sqlite.stop() }
        let sqliteCatalog = try sqlite.load(dataset.tables)
        for spec in try EngineRegistry.parseList("postgres,postgres-analyzed") {
            let engine = try spec.start()
            let postgres = try XCTUnwrap(engine as? PostgresEngine)
            let directory = try XCTUnwrap(postgres.serverDirectory)
            XCTAssertTrue(FileManagerFree.exists(directory))
            let catalog = try engine.load(dataset.tables)
            // Loading again replaces the tables.
            _ = try engine.load(dataset.tables)
            for query in try QueryCatalog.load() where query.shape == .documents {
                let mine = try engine.run(try engine.prepare(try query.parse(catalog: catalog).relations))
                let theirs = try sqlite.run(try sqlite.prepare(try query.parse(catalog: sqliteCatalog).relations))
                XCTAssertEqual(mine.results.map { Set($0) }, theirs.results.map { Set($0) }, "\(spec.label) \(query.name)")
            }
            engine.stop()
            engine.stop()
            XCTAssertFalse(FileManagerFree.exists(directory), "server directory left behind")
            XCTAssertThrowsError(try engine.run(EngineStatement(outputs: [])))
        }
    }

    /// The server's own time (pg_stat_statements) is reported, and is within the call's.
    func testRunReportsTheServersOwnTime() throws {
        let engine = try EngineRegistry.parseList("postgres")[0].start()
        defer { engine.stop() }
        let catalog = try engine.load(try Shape.documents.generate(rows: 3000, seed: 5).tables)
        let documents = try XCTUnwrap(catalog["documents"])
        let statement = try engine.prepare([try documents.join(documents.project(["parent_id"]).rename(["parent_id": "id"]))])
        let clock = ContinuousClock()
        var run = EngineRun(results: [], engineMicroseconds: nil)
        let wall = try clock.measure { run = try engine.run(statement) }
        let own = try XCTUnwrap(run.engineMicroseconds)
        XCTAssertGreaterThan(own, 0)
        XCTAssertLessThan(own, Double(wall.components.attoseconds) / 1e12 + Double(wall.components.seconds) * 1e6)
        XCTAssertGreaterThan(run.results[0].count, 10)
    }

    func testAMixedColumnIsRefusedAsUnsupported() throws {
        let engine = try EngineRegistry.parseList("postgres")[0].start()
        defer { engine.stop() }
        let table = try DatasetTable(name: "t", columns: ["v"], rows: [[1], ["one"]], indexedAttributes: [])
        XCTAssertThrowsError(try engine.load([table])) { error in
            guard case let .unsupported(_, text)? = error as? EngineError else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("'v'") && text.contains("integer") && text.contains("text"), text)
        }
    }
}

/// A path check without Foundation's FileManager.
enum FileManagerFree {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
