#if canImport(Glibc)
import Glibc
#endif
import Engines
import Relational
import Workloads
import XCTest

/// Start-up failures give a clear error and leave nothing running: a missing helper
/// script, Python without the duckdb package, a missing Python, a helper killed mid-run.
final class StartupFailureTests: XCTestCase {
    func testAMissingHelperScriptIsMissingWithTheHint() throws {
        try withEnvironment("TESTBED_DUCKDB_HELPER", "/nonexistent/duckdb_helper.py") {
            XCTAssertNotNil(DuckDBEngine.kind.missing())
            XCTAssertThrowsError(try startDuckDB()) { error in
                guard let error = error as? EngineError, error.isMissing else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".contains("/nonexistent/duckdb_helper.py is not there"), "\(error)")
                XCTAssertTrue("\(error)".contains("TESTBED_DUCKDB_HELPER"), "\(error)")
            }
        }
    }

    func testAMissingPythonIsMissingWithTheInstallHint() throws {
        try withEnvironment("TESTBED_PYTHON", "/nonexistent/python3") {
            let why = try XCTUnwrap(DuckDBEngine.kind.missing())
            XCTAssertTrue(why.contains("scripts/setup.sh --engines"), why)
            XCTAssertThrowsError(try startDuckDB()) { error in
                XCTAssertTrue((error as? EngineError)?.isMissing == true, "\(error)")
                XCTAssertTrue("\(error)".contains("setup.sh --engines"), "\(error)")
            }
        }
    }

    /// Python without site-packages (`-S`) cannot import duckdb: the helper still starts,
    /// and answers with the reason, which is reported as missing with the hint.
    func testPythonWithoutTheDuckDBPackageIsMissing() throws {
        try requireDuckDB()
        let directory = try temporaryDirectory()
        defer { _ = unlink(directory + "/python"); _ = rmdir(directory) }
        let wrapper = directory + "/python"
        let python = try XCTUnwrap(findOnPath("python3"))
        try "#!/bin/sh\nexec \(python) -S \"$@\"\n".write(to: wrapper)
        chmod(wrapper, 0o755)
        try withEnvironment("TESTBED_PYTHON", wrapper) {
            let why = try XCTUnwrap(DuckDBEngine.kind.missing())
            XCTAssertTrue(why.contains("the duckdb Python package is not installed"), why)
            // Started anyway (bypassing the check): the helper's own answer says the same.
            XCTAssertThrowsError(try DuckDBEngine(label: "duckdb", settings: EngineSettings())) { error in
                XCTAssertTrue((error as? EngineError)?.isMissing == true, "\(error)")
                XCTAssertTrue("\(error)".contains("setup.sh --engines"), "\(error)")
            }
        }
    }

    func testAHelperKilledMidRunIsAClearErrorAndNothingIsLeftRunning() throws {
        try requireDuckDB()
        let engine = try DuckDBEngine(label: "duckdb", settings: EngineSettings())
        let pid = engine.helperProcessID
        XCTAssertTrue(processExists(pid))
        let table = try DatasetTable(name: "t", columns: ["a"], rows: [[1], [2]], indexedAttributes: ["a"])
        let catalog = try engine.load([table])
        let statement = try engine.prepare([try XCTUnwrap(catalog["t"])])
        XCTAssertEqual(try engine.run(statement).results.first?.count, 2)
        kill(pid, SIGKILL)
        XCTAssertThrowsError(try engine.run(statement)) { error in
            XCTAssertTrue("\(error)".contains("the DuckDB helper"), "\(error)")
            XCTAssertTrue("\(error)".contains("exited") || "\(error)".contains("stopped"), "\(error)")
        }
        engine.stop()
        XCTAssertFalse(processExists(pid), "the killed helper was reaped")
    }

    func testStopEndsTheHelperAndIsIdempotent() throws {
        try requireDuckDB()
        var pid: Int32 = 0
        do {
            let engine = try startDuckDB([("threads", "2"), ("disabled_optimizers", "join_filter_pushdown")])
            pid = try XCTUnwrap(engine as? DuckDBEngine).helperProcessID
            engine.stop()
            engine.stop()
            XCTAssertThrowsError(try engine.load([]))
        }
        XCTAssertFalse(processExists(pid))
        // Dropping an engine without stop() ends its helper too.
        do {
            let engine = try DuckDBEngine(label: "duckdb", settings: EngineSettings())
            pid = engine.helperProcessID
        }
        XCTAssertFalse(processExists(pid))
    }

    func testABadDisabledOptimizerIsDuckDBsOwnError() throws {
        try requireDuckDB()
        XCTAssertThrowsError(try startDuckDB([("disabled_optimizers", "no_such_optimizer")])) { error in
            XCTAssertTrue("\(error)".contains("no_such_optimizer"), "\(error)")
        }
        XCTAssertNotNil(DuckDBEngine.kind.checkSetting("disabled_optimizers", "x'; DROP TABLE t; --"))
        XCTAssertNotNil(DuckDBEngine.kind.checkSetting("threads", "0"))
        XCTAssertNil(DuckDBEngine.kind.checkSetting("threads", "4"))
        XCTAssertNotNil(DuckDBEngine.kind.checkSetting("thread", "4"))
    }

    private func temporaryDirectory() throws -> String {
        var template = Array("/tmp/engines-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SetUpFailure("cannot create a temporary directory") }
        return String(cString: made)
    }

    private func findOnPath(_ program: String) -> String? {
        guard let path = getenv("PATH") else { return nil }
        for directory in String(cString: path).split(separator: ":") where access("\(directory)/\(program)", X_OK) == 0 {
            return "\(directory)/\(program)"
        }
        return nil
    }
}

extension String {
    func write(to path: String) throws {
        guard let file = fopen(path, "w") else { throw SetUpFailure("cannot write \(path)") }
        defer { fclose(file) }
        fputs(self, file)
    }
}

/// A test's own set-up failed (a file it needs could not be made): an error, never a skip.
struct SetUpFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
