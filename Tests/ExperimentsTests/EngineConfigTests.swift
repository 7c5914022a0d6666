import Engines
import Foundation
import XCTest
@testable import Experiments

/// Baseline entries in configs: `NAME` or `{engine: NAME, name: LABEL, settings: {...}}`,
/// resolved through the engine registry; a run whose engine is not installed exits 2 with
/// the install hint before anything is written; a run with DuckDB writes its plans and
/// agrees with the testbed.
final class EngineConfigTests: XCTestCase {
    func testEntriesResolveToRegisteredEnginesUnderLabels() throws {
        let text = tinyConfig(baselines: """

              - sqlite
              - {engine: duckdb, name: duckdb-2t, settings: {threads: 2, disabled_optimizers: join_filter_pushdown}}
              - {engine: sqlite-analyzed}
            """)
        let experiment = try ExperimentResolver.resolve(text: text, file: "c.yaml")
        XCTAssertEqual(experiment.baselines.map(\.label), ["sqlite", "duckdb-2t", "sqlite-analyzed"])
        XCTAssertEqual(experiment.baselines[1].kind.name, "duckdb")
        XCTAssertEqual(experiment.baselines[1].settings["threads"], "2")
        let baselineCells = experiment.cells.filter { !$0.isTestbed }
        XCTAssertEqual(Set(baselineCells.map(\.engine)), ["sqlite", "duckdb-2t", "sqlite-analyzed"])
        XCTAssertEqual(Set(baselineCells.filter { $0.engine == "duckdb-2t" }.map(\.backend)), ["duckdb"])
    }

    func testMistakesNameTheKeyPath() throws {
        let cases: [(String, [String])] = [
            ("[duckbd]", ["baselines[0]", "did you mean 'duckdb'"]),
            ("[{engine: duckdb, settings: {threads: 0}}]", ["baselines[0].settings.threads", "threads must be an integer from 1"]),
            ("[{engine: duckdb, settings: {thread: 2}}]", ["baselines[0].settings.thread", "unknown setting 'thread'", "threads: N (default 1)"]),
            ("[{engine: sqlite, settings: {threads: 2}}]", ["baselines[0].settings.threads", "sqlite takes no settings"]),
            ("[duckdb, {engine: duckdb, settings: {threads: 2}}]", ["baselines[1]", "listed twice"]),
            ("[sqlite, sqlite]", ["baselines[1]", "baseline 'sqlite' is listed twice; list it once"]),
            ("[{engine: duckdb, name: all-on}]", ["flagsets.all-on", "names a baseline engine"]),
            ("[{engine: duckdb, name: testbed}]", ["baselines[0].name", "testbed's own engine"]),
            ("[{engine: duckdb, name: sqlite}]", ["baselines[0].name", "'sqlite' is the name of engine sqlite, but this baseline runs duckdb"]),
            ("[{engine: duckdb, label: x}]", ["baselines[0]", "unknown key 'label'"]),
        ]
        for (baselines, expected) in cases {
            XCTAssertThrowsError(try ExperimentResolver.resolve(text: tinyConfig(baselines: baselines), file: "c.yaml"), baselines) { error in
                for part in expected { XCTAssertTrue("\(error)".contains(part), "\(baselines): \(error)") }
            }
        }
    }

    /// A query a typed engine cannot hold is refused when the config is read, at the query,
    /// without starting the engine (it was exit 1 after the testbed's cells had run).
    func testAQueryABaselineCannotHoldIsRefusedAtTheQuery() throws {
        let mixed = #"output relation [x] { (1), ("a") }"#
        let nul = #"output documents select (name == "a\u{0}b")"#
        let cases: [(String, String, [String])] = [
            ("[duckdb]", mixed, ["queries[1].text", "baseline duckdb", "column x holds mixed (integer, text) values"]),
            ("[{engine: postgres, name: pg}]", mixed, ["queries[1].text", "baseline pg", "both integer and text values"]),
            ("[sqlite, postgres-analyzed]", nul, ["queries[1].text", "baseline postgres-analyzed", "cannot hold the NUL character"]),
        ]
        for (baselines, query, expected) in cases {
            let text = tinyConfig(baselines: baselines).replacingOccurrences(of: "output selected_documents join documents", with: query)
            XCTAssertThrowsError(try ExperimentResolver.resolve(text: text, file: "c.yaml"), baselines) { error in
                for part in expected { XCTAssertTrue("\(error)".contains(part), "\(baselines): \(error)") }
            }
        }
        // DuckDB holds NUL in text, and every engine holds one class per column.
        let held = tinyConfig(baselines: "[duckdb]").replacingOccurrences(of: "output selected_documents join documents", with: nul)
        XCTAssertNoThrow(try ExperimentResolver.resolve(text: held, file: "c.yaml"))
        XCTAssertNoThrow(try ExperimentResolver.resolve(text: tinyConfig(baselines: "[duckdb, postgres]"), file: "c.yaml"))
    }

    func testARunNamingAMissingEngineExitsTwoWithTheHintAndWritesNothing() throws {
        let scratch = try Scratch()
        let console = CapturedConsole()
        setenv("TESTBED_PYTHON", "/nonexistent/python3", 1)
        defer { unsetenv("TESTBED_PYTHON") }
        let status = try runConfig(tinyConfig(baselines: "[sqlite, duckdb]"), in: scratch, out: scratch.path + "/run", console: console)
        XCTAssertEqual(status, 2, console.err)
        XCTAssertTrue(console.err.contains("baselines[1]"), console.err)
        XCTAssertTrue(console.err.contains("scripts/setup.sh --engines"), console.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/run"))
    }

    /// Settings the engine refuses were found only when it started, after the testbed's own
    /// cells had run: exit 1 and a `failed` run. Now each baseline with settings is started
    /// once before anything is written, and a refusal is located at its `settings`.
    func testSettingsTheEngineRefusesAreAConfigErrorBeforeAnythingRuns() throws {
        guard try duckDBIsHere() else { return }
        let scratch = try Scratch()
        let console = CapturedConsole()
        let config = tinyConfig(baselines: "[{engine: duckdb, name: duck, settings: {disabled_optimizers: nonsense}}]")
        XCTAssertEqual(try runConfig(config, in: scratch, out: scratch.path + "/run", console: console), 2, console.err)
        XCTAssertTrue(console.err.contains("baselines[0].settings: baseline duck: engine duckdb did not start with these settings"),
                      console.err)
        XCTAssertTrue(console.err.contains("nonsense"), console.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/run"), "nothing written")
    }

    func testADuckDBRunAgreesAndWritesItsPlans() throws {
        guard try duckDBIsHere() else { return }
        let scratch = try Scratch()
        let console = CapturedConsole()
        let config = tinyConfig(baselines: "[sqlite, {engine: duckdb, name: duck, settings: {threads: 2}}]") + "\nplans: true\n"
        XCTAssertEqual(try runConfig(config, in: scratch, out: scratch.path + "/run", console: console), 0, console.err)
        let records = try readTimings(scratch.path + "/run/timings.csv")
        XCTAssertEqual(Set(records.map(\.engine)), ["testbed", "sqlite", "duck"])
        // Every engine's hash agrees per query and size (the run's equality check passed too).
        for group in Dictionary(grouping: records, by: { "\($0.query) \($0.rows)" }).values {
            XCTAssertEqual(Set(group.map(\.resultHash)).count, 1)
        }
        let plans = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/run/plans")
        XCTAssertTrue(plans.contains("selected-inline--duck--120.json"), "\(plans)")
        XCTAssertTrue(plans.contains("selected-inline--sqlite--40.txt"), "\(plans)")
        let plan = try String(contentsOfFile: scratch.path + "/run/plans/selected-inline--duck--120.json", encoding: .utf8)
        XCTAssertTrue(plan.contains("\"name\""), plan)
    }

    /// Whether DuckDB is installed; without it the test fails where engines are required
    /// (`TESTBED_REQUIRE_ENGINES=1`, as in CI) and is skipped elsewhere.
    private func duckDBIsHere() throws -> Bool {
        guard let why = DuckDBEngine.kind.missing() else { return true }
        if ProcessInfo.processInfo.environment["TESTBED_REQUIRE_ENGINES"] == "1" {
            XCTFail("DuckDB required: \(why)")
            return false
        }
        throw XCTSkip("DuckDB is not available: \(why)")
    }
}
