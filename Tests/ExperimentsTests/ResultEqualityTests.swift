import FileSupport
import XCTest
import Relational
@testable import Experiments

/// An engine that drops a row of every output: the kind of bug the equality check exists for.
struct RowDroppingExecutor: CellExecutor {
    let wrapped: any CellExecutor

    func execute() throws -> CellMeasurement {
        var m = try wrapped.execute()
        m.results = m.results.map { Array($0.dropFirst()) }
        return m
    }
}

final class ResultEqualityTests: XCTestCase {
    func testAWrongEngineIsCaughtAndTheRunExitsOne() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let hooks = RunHooks(executor: { cell, executor in
            cell.flagset == "no-copying" && cell.rows == 120 && cell.query == "selected-inline"
                ? RowDroppingExecutor(wrapped: executor) : executor
        })
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: hooks, console: console), 1)
        XCTAssertTrue(console.err.contains("RESULT MISMATCH: selected-inline at 120 rows"), console.err)
        XCTAssertTrue(console.err.contains("no-copying"), console.err)
        XCTAssertTrue(console.err.contains("flags "), "the report names the flags: \(console.err)")
        XCTAssertTrue(console.err.contains("only in"), "the report shows the differing rows: \(console.err)")
        XCTAssertFalse(console.err.contains("selected-document-parent at"), "other groups agree: \(console.err)")
        XCTAssertTrue(try FileSystem.readText(out + "/mismatches.txt").contains("RESULT MISMATCH"))
        XCTAssertTrue(FileSystem.exists(out + "/summary.csv"), "the results are still written")
    }

    func testAWrongSQLiteBaselineIsCaughtToo() throws {
        let scratch = try Scratch()
        let hooks = RunHooks(executor: { cell, executor in
            cell.engine == "sqlite" && cell.rows == 40 ? RowDroppingExecutor(wrapped: executor) : executor
        })
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: scratch.path + "/run", hooks: hooks, console: console), 1)
        XCTAssertTrue(console.err.contains("at 40 rows"), console.err)
        XCTAssertTrue(console.err.contains("sqlite repetition 1"), console.err)
    }

    func testMemorySQLiteAndBothBaselinesAgreeOnTheTinyRun() throws {
        let scratch = try Scratch()
        let config = tinyConfig(baselines: "[sqlite, sqlite-analyzed]")
            .replacingOccurrences(of: "backend: memory", with: "backend: [memory, sqlite]")
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(config, in: scratch, out: scratch.path + "/run", console: console), 0, console.err)
        let records = try readTimings(scratch.path + "/run/timings.csv")
        XCTAssertEqual(Set(records.map(\.engine)), ["testbed", "sqlite", "sqlite-analyzed"])
        XCTAssertEqual(Set(records.map(\.backend)), ["memory", "sqlite"])
    }
}
