import FileSupport
import XCTest
@testable import Experiments

/// Interrupting and resuming, and running shards and merging them, give the same cells as
/// one uninterrupted run (compared on every column but the measured times).
final class ResumeShardMergeTests: XCTestCase {
    func testResumeAfterAnInterruptionGivesTheSameCells() throws {
        let scratch = try Scratch()
        let whole = scratch.path + "/whole"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: whole), 0)

        let partial = scratch.path + "/partial"
        let console = CapturedConsole()
        let interrupted = try runConfig(
            tinyConfig(), in: scratch, out: partial, hooks: RunHooks(shouldStop: { $0 >= 5 }), console: console)
        XCTAssertEqual(interrupted, 130)
        XCTAssertTrue(console.err.contains("--resume --out \(partial)"), console.err)
        let state = try RunState.read(directory: partial)
        XCTAssertEqual(state.status, .interrupted)
        XCTAssertEqual(state.cellsDone, 5)
        XCTAssertEqual(try readTimings(partial + "/timings.csv").count, 10, "5 cells × 2 repetitions kept")

        var ranAgain: [Cell] = []
        let hooks = RunHooks(executor: { cell, executor in ranAgain.append(cell); return executor })
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: partial, resume: true, hooks: hooks), 0)
        XCTAssertEqual(ranAgain.count, 7, "only the 7 missing cells run on resume")
        XCTAssertEqual(try RunState.read(directory: partial).status, .complete)
        XCTAssertEqual(try deterministicColumns(partial + "/timings.csv"), try deterministicColumns(whole + "/timings.csv"))
        XCTAssertEqual(try deterministicColumns(partial + "/summary.csv"), try deterministicColumns(whole + "/summary.csv"))
    }

    func testResumeRefusesAnotherConfig() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: RunHooks(shouldStop: { $0 >= 1 })), 130)
        let console = CapturedConsole()
        let other = tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 3")
        XCTAssertEqual(try runConfig(other, in: scratch, out: out, resume: true, console: console), 2)
        XCTAssertTrue(console.err.contains("config differs"), console.err)
    }

    func testResumeWithoutOutFindsTheNewestRun() throws {
        let scratch = try Scratch()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, hooks: RunHooks(shouldStop: { $0 >= 3 })), 130)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, resume: true), 0)
        let runs = try FileManager.default.contentsOfDirectory(atPath: scratch.resultsRoot + "/tiny")
        XCTAssertEqual(runs.count, 1)
        XCTAssertEqual(try RunState.read(directory: scratch.resultsRoot + "/tiny/" + runs[0]).status, .complete)
    }

    func testShardsMergedEqualAnUnshardedRun() throws {
        let scratch = try Scratch()
        let whole = scratch.path + "/whole", one = scratch.path + "/one", two = scratch.path + "/two"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: whole), 0)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: one, shard: "1/2"), 0)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: two, shard: "2/2"), 0)
        let first = try readTimings(one + "/timings.csv"), second = try readTimings(two + "/timings.csv")
        XCTAssertEqual(first.count + second.count, 24)
        XCTAssertTrue(Set(first.map(\.cell)).isDisjoint(with: Set(second.map(\.cell))))

        let merged = scratch.path + "/merged"
        var merge = MergeInvocation(directories: [two, one], out: merged)
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 0, console.err)
        XCTAssertEqual(try deterministicColumns(merged + "/timings.csv"), try deterministicColumns(whole + "/timings.csv"))
        XCTAssertEqual(try deterministicColumns(merged + "/summary.csv"), try deterministicColumns(whole + "/summary.csv"))
        XCTAssertEqual(try RunState.read(directory: merged).status, .complete)
    }

    /// Shards whose `run.txt` name different experiments were merged without a word.
    func testMergingShardsOfAnotherExperimentIsRefused() throws {
        let scratch = try Scratch()
        let one = scratch.path + "/one", two = scratch.path + "/two"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: one, shard: "1/2"), 0)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: two, shard: "2/2"), 0)
        let state = try FileSystem.readText(two + "/" + RunState.fileName)
        try FileSystem.writeText(state.replacingOccurrences(of: "experiment: tiny", with: "experiment: other"), to: two + "/" + RunState.fileName)
        var merge = MergeInvocation(directories: [one, two], out: scratch.path + "/merged")
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 2)
        XCTAssertTrue(console.err.contains("holds experiment 'other', but"), console.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/merged"))
    }

    func testMergingOneShardWarnsAboutMissingCells() throws {
        let scratch = try Scratch()
        let one = scratch.path + "/one"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: one, shard: "1/3"), 0)
        var merge = MergeInvocation(directories: [one], out: scratch.path + "/merged")
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 0)
        XCTAssertTrue(console.err.contains("cells are missing"), console.err)
        XCTAssertEqual(try RunState.read(directory: scratch.path + "/merged").status, .incomplete)
    }

    func testShardSlicesPartitionTheMatrix() throws {
        let cells = (0..<10).map { Cell(query: "q", rows: $0, backend: "memory", engine: "testbed", flagset: "f") }
        let slices = try (1...3).map { try Shard(parsing: "\($0)/3").select(cells) }
        XCTAssertEqual(slices.map(\.count), [4, 3, 3])
        XCTAssertEqual(Set(slices.flatMap { $0 }), Set(cells))
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] { XCTAssertThrowsError(try Shard(parsing: bad), bad) }
    }
}

/// `--resume` without `--out` continues the newest timestamped run, never a kept run such as
/// the committed `reference`; a complete run is left as it is.
final class ResumeTargetTests: XCTestCase {
    private func makeRun(_ path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let state = RunState(experiment: "tiny", shard: .whole, status: .interrupted, cellsDone: 1, cellsTotal: 12)
        try FileSystem.writeTextAtomically(state.text, to: path + "/" + RunState.fileName)
    }

    func testLatestRunSkipsTheReferenceRun() throws {
        let scratch = try Scratch()
        let parent = scratch.resultsRoot + "/tiny"
        try makeRun(parent + "/reference")
        try makeRun(parent + "/20240131T235959Z")
        try makeRun(parent + "/20231231T000000Z")
        try makeRun(parent + "/20240131T235959Z-copy")
        XCTAssertEqual(OutputLocation.latestRun(resultsRoot: scratch.resultsRoot, name: "tiny"), parent + "/20240131T235959Z")
    }

    func testOnlyAReferenceRunIsNothingToResume() throws {
        let scratch = try Scratch()
        let reference = scratch.resultsRoot + "/tiny/reference"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: reference), 0)
        XCTAssertNil(OutputLocation.latestRun(resultsRoot: scratch.resultsRoot, name: "tiny"))
        let before = try snapshot(reference)

        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, resume: true, console: console), 2)
        XCTAssertTrue(console.err.contains("--resume: no run of 'tiny' to resume under \(scratch.resultsRoot)/tiny"), console.err)
        XCTAssertTrue(console.err.contains("give --out DIR"), console.err)
        XCTAssertEqual(try snapshot(reference), before, "the reference run is untouched")
    }

    func testResumeBesideAReferenceRunContinuesTheTimestampedRunAndKeepsItsEnvironment() throws {
        let scratch = try Scratch()
        let reference = scratch.resultsRoot + "/tiny/reference"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: reference), 0)
        let referenceBefore = try snapshot(reference)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, hooks: RunHooks(shouldStop: { $0 >= 3 })), 130)
        let timestamped = try XCTUnwrap(OutputLocation.latestRun(resultsRoot: scratch.resultsRoot, name: "tiny"))
        XCTAssertTrue(OutputLocation.isTimestamp(URL(fileURLWithPath: timestamped).lastPathComponent), timestamped)
        let started = try FileSystem.readText(timestamped + "/" + Environment.fileName)

        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, resume: true), 0)
        XCTAssertEqual(try RunState.read(directory: timestamped).status, .complete)
        XCTAssertEqual(try snapshot(reference), referenceBefore, "the reference run is untouched")
        let environment = try FileSystem.readText(timestamped + "/" + Environment.fileName)
        XCTAssertTrue(environment.hasPrefix(started), "the run's own environment is kept")
        let appended = environment.dropFirst(started.count)
        XCTAssertTrue(appended.hasPrefix("resumed: "), String(appended))
        XCTAssertEqual(appended.split(separator: ",").count, 3, "date, build configuration, commit: \(appended)")
    }

    /// Complete by run.txt's status: nothing runs and no file changes.
    func testResumingACompleteRunChangesNothing() throws {
        for status in [RunState.Status.complete] {
            let scratch = try Scratch()
            let out = scratch.path + "/run"
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out), 0)
            let state = RunState(experiment: "tiny", shard: .whole, status: status, cellsDone: 12, cellsTotal: 12)
            try FileSystem.writeTextAtomically(state.text, to: out + "/" + RunState.fileName)
            let before = try snapshot(out)
            var ran = 0
            let console = CapturedConsole()
            let hooks = RunHooks(executor: { _, executor in ran += 1; return executor })
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true, hooks: hooks, console: console), 0)
            XCTAssertEqual(ran, 0, "\(status)")
            XCTAssertTrue(console.err.contains("'\(out)' is already complete (12/12 cells, status \(status.rawValue)); nothing to run"),
                          console.err)
            XCTAssertEqual(try snapshot(out), before, "\(status)")
        }
    }

    /// Every cell in timings.csv but the run stopped (or failed) before its summary and
    /// plots were written: resume runs no cell and writes them, leaving the run complete.
    func testResumingARunStoppedAfterItsLastCellFinishesItWithoutRunningCells() throws {
        for status in [RunState.Status.interrupted, .finishing, .running] {
            let scratch = try Scratch()
            let out = scratch.path + "/run"
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out), 0)
            let state = RunState(experiment: "tiny", shard: .whole, status: status, cellsDone: 12, cellsTotal: 12)
            try FileSystem.writeTextAtomically(state.text, to: out + "/" + RunState.fileName)
            FileSystem.remove(out + "/" + Summary.fileName)
            let timings = try FileSystem.readText(out + "/" + TimingsFile.name)
            var ran = 0
            let console = CapturedConsole()
            let hooks = RunHooks(executor: { _, executor in ran += 1; return executor })
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true, hooks: hooks, console: console), 0)
            XCTAssertEqual(ran, 0, "\(status)")
            XCTAssertFalse(console.err.contains("already complete"), console.err)
            XCTAssertEqual(try RunState.read(directory: out).status, .complete, "\(status)")
            XCTAssertTrue(FileSystem.exists(out + "/" + Summary.fileName), "\(status)")
            XCTAssertEqual(try FileSystem.readText(out + "/" + TimingsFile.name), timings, "\(status)")
        }
    }

    /// Every file below `directory` with its contents and modification date.
    private func snapshot(_ directory: String) throws -> [String: String] {
        var out: [String: String] = [:]
        let files = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        for file in files.sorted() {
            let path = directory + "/" + file
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let modified = (attributes[.modificationDate] as? Date).map { "\($0.timeIntervalSince1970)" } ?? ""
            let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<directory or binary>"
            out[file] = modified + "\n" + contents
        }
        return out
    }
}
