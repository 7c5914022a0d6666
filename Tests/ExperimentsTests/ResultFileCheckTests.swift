import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// merge, compare and resume read result files back: every value is range-checked and every
/// row checked against the config, and a bad one is refused at `file:line`.
final class ResultFileCheckTests: XCTestCase {
    /// A finished tiny run: its directory and its experiment.
    private func finishedRun(_ scratch: Scratch) throws -> (String, Experiment) {
        let out = scratch.path + "/run"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, console: console), 0, console.err)
        let config = out + "/config.yaml"
        return (out, try ExperimentResolver.resolve(text: try FileSystem.readText(config), file: config))
    }

    /// `timings.csv` with `column` of data line `line` (2 = the first row) set to `value`.
    private func edited(_ path: String, line: Int, column: String, value: String) throws -> String {
        var table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let index = try XCTUnwrap(table.column(column))
        table.rows[line - 2][index] = value
        return table.text
    }

    private func assertRefused(_ text: String, in run: String, _ experiment: Experiment, mentions: [String],
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let path = run + "/edited.csv"
        try FileSystem.writeText(text, to: path)
        XCTAssertThrowsError(try TimingsFile.read(path, experiment: experiment), file: file, line: line) { error in
            for fragment in mentions {
                XCTAssertTrue("\(error)".contains(fragment), "\(error) lacks \(fragment)", file: file, line: line)
            }
        }
    }

    func testImpossibleTimesAreRefusedAtTheirLine() throws {
        let scratch = try Scratch()
        let (run, experiment) = try finishedRun(scratch)
        let timings = run + "/timings.csv"
        XCTAssertEqual(try TimingsFile.read(timings, experiment: experiment).count, 24, "the run's own file reads back")
        for value in ["-1.0", "nan", "NaN", "inf", "-inf", "1e400", "", "fast", "2e13"] {
            try assertRefused(try edited(timings, line: 3, column: "run_us", value: value), in: run, experiment,
                              mentions: ["edited.csv:3", "run_us"])
        }
        try assertRefused(try edited(timings, line: 2, column: "total_us", value: "123456.0"), in: run, experiment,
                          mentions: ["edited.csv:2", "total_us", "plan_us + optimize_us + run_us"])
        try assertRefused(try edited(timings, line: 2, column: "result_rows", value: "-3"), in: run, experiment,
                          mentions: ["edited.csv:2", "result_rows"])
        try assertRefused(try edited(timings, line: 2, column: "source_rows_read", value: "many"), in: run, experiment,
                          mentions: ["edited.csv:2", "source_rows_read"])
    }

    func testAResultHashNotAsARunWritesItIsRefusedAtItsLineAndMergeAndResumeWriteNothing() throws {
        let scratch = try Scratch()
        let (run, experiment) = try finishedRun(scratch)
        let timings = run + "/timings.csv"
        for value in ["zz", "", "41159E7C45BB8AB7", "41159e7c45bb8ab", "41159e7c45bb8ab70", "inexact-zz", " 41159e7c45bb8ab7"] {
            try assertRefused(try edited(timings, line: 2, column: "result_hash", value: value), in: run, experiment,
                              mentions: ["edited.csv:2", "column result_hash"])
        }
        // A change cell's hash after an inexact change reads back.
        try FileSystem.writeText(try edited(timings, line: 2, column: "result_hash", value: "inexact-41159e7c45bb8ab7"), to: run + "/edited.csv")
        XCTAssertEqual(try TimingsFile.read(run + "/edited.csv", experiment: experiment).first?.resultHash, "inexact-41159e7c45bb8ab7")
        FileSystem.remove(run + "/edited.csv")
        var summary = try CSVTable(parsing: try FileSystem.readText(run + "/summary.csv"), file: "s")
        summary.rows[0][try XCTUnwrap(summary.column("result_hash"))] = "zz"
        try FileSystem.writeText(summary.text, to: scratch.path + "/summary.csv")
        XCTAssertThrowsError(try Summary.read(scratch.path + "/summary.csv", experiment: experiment)) {
            XCTAssertTrue("\($0)".contains("summary.csv:2: column result_hash holds 'zz'"), "\($0)")
        }

        // As the tester found it: a shard whose timings.csv has result_hash zz, merged and resumed.
        try FileSystem.writeText(try edited(timings, line: 2, column: "result_hash", value: "zz"), to: timings)
        try FileSystem.writeText(RunState(experiment: "tiny", shard: .whole, status: .interrupted, cellsDone: 11, cellsTotal: 12).text,
                                 to: run + "/run.txt")
        let before = try snapshot(run)
        let merged = mergeRuns([run], out: scratch.path + "/merged")
        XCTAssertEqual(merged.status, 2, merged.err)
        XCTAssertTrue(merged.err.contains("timings.csv:2: column result_hash holds 'zz'"), merged.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/merged"))
        let resumed = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: run, resume: true, console: resumed), 2, resumed.err)
        XCTAssertTrue(resumed.err.contains("timings.csv:2: column result_hash holds 'zz'"), resumed.err)
        XCTAssertEqual(try snapshot(run), before, "the refused resume changed nothing")
    }

    func testRowsOutsideTheConfigAreRefusedNamingTheColumn() throws {
        let scratch = try Scratch()
        let (run, experiment) = try finishedRun(scratch)
        let timings = run + "/timings.csv"
        let cases: [(String, String, String)] = [
            ("repetition", "3", "runs 2 repetitions"), ("repetition", "0", "repetition"),
            ("flagset", "turbo", "flag sets are"), ("query", "nosuch", "queries are"), ("rows", "41", "sizes are"),
            ("backend", "sqlite", "backends are"), ("engine", "oracle", "expected one of"), ("seed", "99", "seed is"),
            ("experiment", "other", "experiment is"), ("flags", "select-pushdown=off", "runs with"),
        ]
        for (column, value, problem) in cases {
            try assertRefused(try edited(timings, line: 4, column: column, value: value), in: run, experiment,
                              mentions: ["edited.csv:4", column, problem])
        }
    }

    func testARepetitionGivenTwiceIsRefusedNamingBothLines() throws {
        let scratch = try Scratch()
        let (run, experiment) = try finishedRun(scratch)
        var table = try CSVTable(parsing: try FileSystem.readText(run + "/timings.csv"), file: "t")
        table.rows.append(table.rows[0])
        try assertRefused(table.text, in: run, experiment, mentions: ["edited.csv:26", "already on line 2"])
    }

    func testCSVErrorsNameTheLineAFieldOrQuoteStartsOn() throws {
        let text = "a,b\n1,\"two\nlines\"\n3,4,5\n"
        XCTAssertThrowsError(try CSVTable(parsing: text, file: "f.csv")) { XCTAssertTrue("\($0)".hasPrefix("f.csv:4: 3 fields"), "\($0)") }
        XCTAssertThrowsError(try CSVTable(parsing: "a,b\n1,2\n3,\"open\n", file: "f.csv")) {
            XCTAssertTrue("\($0)".hasPrefix("f.csv:3: a quoted field is never closed"), "\($0)")
        }
        let table = try CSVTable(parsing: "a,b\r\n1,\"x\ny\"\r\n2,3\r\n", file: "f.csv")
        XCTAssertEqual(table.rowLines, [2, 4])
        XCTAssertThrowsError(try table.requireHeader(["a", "c"], file: "f.csv")) {
            XCTAssertTrue("\($0)".hasPrefix("f.csv:1: column 2 of the header is 'b', expected 'c'"), "\($0)")
        }
    }

    func testASummaryOnItsOwnIsCheckedForNamesTheTestbedHas() throws {
        let scratch = try Scratch()
        let (run, _) = try finishedRun(scratch)
        let summary = try FileSystem.readText(run + "/summary.csv")
        let alone = scratch.path + "/alone"
        try FileSystem.makeDirectories(alone)
        try FileSystem.writeText(summary, to: alone + "/summary.csv")
        XCTAssertEqual(try Summary.read(alone + "/summary.csv", experiment: nil).count, 12)
        for (from, to, column) in [(",memory,testbed,", ",postgres,testbed,", "backend"), (",memory,testbed,", ",memory,oracle,", "engine"),
                                   ("select-pushdown=on", "warp-drive=on", "flags")] {
            try FileSystem.writeText(summary.replacingOccurrences(of: from, with: to), to: alone + "/summary.csv")
            XCTAssertThrowsError(try Summary.read(alone + "/summary.csv", experiment: nil)) {
                XCTAssertTrue("\($0)".contains("summary.csv:2: column \(column)"), "\($0)")
            }
        }
    }

    func testCompareNeverPrintsNanOrInfinity() throws {
        let scratch = try Scratch()
        let (run, experiment) = try finishedRun(scratch)
        // Every time zero: a zero baseline median has no ratio. Set in timings.csv and the
        // summary worked out again, as the summary must agree with the timings.
        var table = try CSVTable(parsing: try FileSystem.readText(run + "/timings.csv"), file: "t")
        for (i, name) in table.header.enumerated() where TimingRecord.timingColumns.contains(name) {
            for r in table.rows.indices { table.rows[r][i] = "0.0" }
        }
        try FileSystem.writeText(table.text, to: run + "/timings.csv")
        let records = try TimingsFile.read(run + "/timings.csv", experiment: experiment)
        try FileSystem.writeText(Summary.text(Summary.rows(records, order: experiment.cells, baseline: experiment.speedupBaseline)),
                                 to: run + "/summary.csv")
        let text = try Comparison(results: run).render()
        XCTAssertFalse(text.lowercased().contains("nan") || text.contains("inf"), text)
        XCTAssertTrue(text.contains(" - "), text)
    }

    func testCompareChecksTheSummaryAgainstTheRunsConfig() throws {
        let scratch = try Scratch()
        let (run, _) = try finishedRun(scratch)
        var table = try CSVTable(parsing: try FileSystem.readText(run + "/summary.csv"), file: "s")
        let index = try XCTUnwrap(table.column("repetitions"))
        table.rows[1][index] = "9"
        try FileSystem.writeText(table.text, to: run + "/summary.csv")
        XCTAssertThrowsError(try Comparison(results: run).render()) {
            XCTAssertTrue("\($0)".contains("summary.csv:3: column repetitions holds '9'; the config runs 2"), "\($0)")
        }
    }

    /// `compare` does not use `run.txt` or `passes.csv`, but a run holding an unreadable one
    /// is refused at its line as by `merge`, `report` and `--resume` (it exited 0).
    func testCompareRefusesAnUnreadableRunStateOrPassesFile() throws {
        let scratch = try Scratch()
        let (run, _) = try finishedRun(scratch)
        let other = scratch.path + "/other"
        try FileSystem.copyDirectory(run, to: other)
        XCTAssertNoThrow(try Comparison(results: run).render())
        XCTAssertNoThrow(try RunComparison(runA: run, runB: other).compare())
        let state = try FileSystem.readText(run + "/run.txt"), passes = try FileSystem.readText(run + "/passes.csv")
        try FileSystem.writeText("garbage\n", to: run + "/run.txt")
        XCTAssertThrowsError(try Comparison(results: run).render()) { XCTAssertTrue("\($0)".contains("run.txt:1: 'garbage' is not KEY: VALUE"), "\($0)") }
        XCTAssertThrowsError(try RunComparison(runA: other, runB: run).compare()) { XCTAssertTrue("\($0)".contains("run.txt:1"), "\($0)") }
        try FileSystem.writeText(state, to: run + "/run.txt")
        try FileSystem.writeText("x\n", to: run + "/passes.csv")
        XCTAssertThrowsError(try Comparison(results: run).render()) { XCTAssertTrue("\($0)".contains("passes.csv:1"), "\($0)") }
        try FileSystem.writeText(passes, to: run + "/passes.csv")
        XCTAssertNoThrow(try Comparison(results: run).render())
    }

    func testMergeIntoALockedOrFilledDirectoryIsRefusedAndDefaultDirectoriesNeverCollide() throws {
        let scratch = try Scratch()
        let (run, _) = try finishedRun(scratch)
        let out = scratch.path + "/merged"
        try FileSystem.makeDirectories(out)
        let held = try DirectoryLock.acquire(out)
        var merge = MergeInvocation(directories: [run], out: out)
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 2)
        XCTAssertTrue(console.err.contains("in use by another testbed process (pid \(getpid()) on host"), console.err)
        XCTAssertFalse(FileSystem.exists(out + "/timings.csv"))
        held?.release()

        var byDefault = MergeInvocation(directories: [run])
        byDefault.plots = false
        byDefault.resultsRoot = scratch.resultsRoot
        XCTAssertEqual(byDefault.execute(console: CapturedConsole().console), 0)
        XCTAssertEqual(byDefault.execute(console: CapturedConsole().console), 0)
        let merged = scratch.resultsEntries().filter { $0.hasPrefix("tiny/") && $0.hasSuffix("timings.csv") }
        XCTAssertEqual(merged.count, 2, "two merges, two directories: \(merged)")
        XCTAssertTrue(merged.allSatisfy { $0.contains("-merged") }, "\(merged)")
    }
}
