import Foundation
import XCTest

/// `query --engine duckdb` with the environment naming the wrong helper or interpreter: a
/// helper that never answers is given up on after `TESTBED_DUCKDB_START_TIMEOUT` seconds and
/// killed, and a variable naming the wrong thing is refused naming the variable; each is the
/// engine not available, exit 2, with nothing written.
final class DuckDBHelperTests: XCTestCase {
    private let query = ["query", "selected-document-parent", "--rows", "20", "--engine", "duckdb"]

    func testAHelperThatNeverAnswersIsGivenUpOnAndKilled() throws {
        try SleepingHelper.requireDuckDB()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sleeper-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let helper = scratch.appendingPathComponent("sleeper.py").path
        try SleepingHelper.script.write(toFile: helper, atomically: true, encoding: .utf8)
        // Battery's watchdog ends a command that still hangs after 15 s: exit 124, not 2.
        try Battery.run(query, files: [:], environment: ["TESTBED_DUCKDB_HELPER": helper, "TESTBED_DUCKDB_START_TIMEOUT": "2"]) {
            _, outcome, _ in
            XCTAssertEqual(outcome.status, 2, outcome.err)
            XCTAssertTrue(outcome.err.hasPrefix("testbed:"), outcome.err)
            XCTAssertTrue(outcome.err.contains("engine duckdb is not available"), outcome.err)
            XCTAssertTrue(outcome.err.contains("TESTBED_DUCKDB_HELPER=\(helper)"), outcome.err)
            XCTAssertTrue(outcome.err.contains("did not answer within 2 s"), outcome.err)
            XCTAssertTrue(outcome.err.contains("TESTBED_DUCKDB_START_TIMEOUT"), outcome.err)
        }
        let pid = try SleepingHelper.pid(of: helper)
        XCTAssertNotEqual(kill(pid, 0), 0, "the helper \(pid) was killed and reaped")
    }

    func testABadStartTimeoutIsRefusedNamingTheVariable() throws {
        for value in ["0", "abc", "010", "-5", "1.5", "86401"] {
            try Battery.run(query, files: [:], environment: ["TESTBED_DUCKDB_START_TIMEOUT": value]) { _, outcome, _ in
                XCTAssertEqual(outcome.status, 2, "\(value): \(outcome.err)")
                XCTAssertTrue(outcome.err.contains("TESTBED_DUCKDB_START_TIMEOUT=\(value) is not a whole number of seconds"),
                              "\(value): \(outcome.err)")
            }
        }
    }

    /// Each was exit 1 ("the command failed") or, for a missing interpreter, "not on PATH"
    /// without the variable.
    func testAnInterpreterVariableNamingTheWrongThingIsRefusedNamingIt() throws {
        let cases: [(String, String)] = [
            ("/bin/true", "TESTBED_PYTHON=/bin/true is not Python 3"),
            ("/tmp", "TESTBED_PYTHON=/tmp is a directory"),
            ("/nonexistent/python3", "TESTBED_PYTHON=/nonexistent/python3 cannot be run"),
            ("no-such-python-here", "TESTBED_PYTHON=no-such-python-here is not on PATH"),
        ]
        for (value, expected) in cases {
            try Battery.run(query, files: [:], environment: ["TESTBED_PYTHON": value]) { _, outcome, _ in
                XCTAssertEqual(outcome.status, 2, "\(value): \(outcome.err)")
                XCTAssertTrue(outcome.err.contains("engine duckdb is not available"), "\(value): \(outcome.err)")
                XCTAssertTrue(outcome.err.contains(expected), "\(value): \(outcome.err)")
            }
        }
    }

    func testAHelperVariableNamingTheWrongThingIsRefusedNamingIt() throws {
        try SleepingHelper.requireDuckDB()
        let cases: [(String, [String])] = [
            ("/bin/true", ["TESTBED_DUCKDB_HELPER=/bin/true, run by ", "did not start as the DuckDB helper"]),
            ("/tmp", ["TESTBED_DUCKDB_HELPER=/tmp is a directory"]),
        ]
        for (value, expected) in cases {
            try Battery.run(query, files: [:], environment: ["TESTBED_DUCKDB_HELPER": value]) { _, outcome, _ in
                XCTAssertEqual(outcome.status, 2, "\(value): \(outcome.err)")
                XCTAssertTrue(outcome.err.contains("engine duckdb is not available"), "\(value): \(outcome.err)")
                for fragment in expected { XCTAssertTrue(outcome.err.contains(fragment), "\(value): \(outcome.err)") }
            }
        }
    }
}
