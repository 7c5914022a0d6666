#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// Run directories: the lock against a second process, same-second default directories,
/// a failure or Ctrl-C after the cells, and what `--resume` makes of them.
final class RunDirectoryTests: XCTestCase {
    private func state(_ directory: String) throws -> RunState { try RunState.read(directory: directory) }

    // MARK: the lock

    func testASecondRunIntoALockedDirectoryIsRefusedNamingTheHolder() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: RunHooks(shouldStop: { $0 == 3 })), 130)
        let before = try FileSystem.readText(out + "/" + TimingsFile.name)
        // Another process holding the lock (a second open file description conflicts as a second process would).
        let held = try XCTUnwrap(DirectoryLock.acquire(out))
        for resume in [true, false] {
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: resume, console: console), 2, console.err)
            XCTAssertTrue(console.err.hasPrefix("testbed: "), console.err)
            XCTAssertTrue(console.err.contains("in use by another testbed process (pid \(getpid()) on host"), console.err)
        }
        XCTAssertEqual(try FileSystem.readText(out + "/" + TimingsFile.name), before, "the locked run was not touched")
        XCTAssertEqual(try state(out).status, .interrupted)
        held.release()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true), 0, "released: the resume runs")
        XCTAssertEqual(try state(out).status, .complete)
    }

    func testTheLockIsHeldWhileTheCellsRun() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        var seen: [String] = []
        let hooks = RunHooks(shouldStop: { finished in
            if finished == 1 {
                do { _ = try DirectoryLock.acquire(out); seen.append("acquired") } catch { seen.append("\(error)") }
            }
            return false
        })
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: hooks), 0)
        XCTAssertEqual(seen.count, 1)
        XCTAssertTrue(seen[0].contains("in use by another testbed process (pid \(getpid())"), seen[0])
        // Released when the run returned.
        XCTAssertNotNil(try DirectoryLock.acquire(out))
    }

    /// A merge reads its shards under a read-only lock, which writes no name: the file still
    /// names the shard's own run, which has ended. That pid was named as the holder.
    func testALockHeldByAReaderDoesNotNameTheEndedLastWriterAsItsHolder() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/shard"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        try FileSystem.writeText("pid \(ended.processIdentifier) on host \(DirectoryLockedError.hostName)\n", to: out + "/run.lock")
        let reader = try XCTUnwrap(DirectoryLock.acquire(out, create: false))
        defer { reader.release() }
        XCTAssertThrowsError(try DirectoryLock.acquire(out)) { error in
            XCTAssertTrue("\(error)".contains("held by a process that reads it, such as a merge; its last writer, pid \(ended.processIdentifier)"),
                          "\(error)")
        }
    }

    func testANonEmptyUnlockedDirectoryGetsNoLockFile() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/full"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        _ = try scratch.write("x", to: "full/keep.txt")
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, console: console), 2)
        XCTAssertTrue(console.err.contains("already exists and is not empty"), console.err)
        XCTAssertEqual(FileSystem.entries(of: out), ["keep.txt"])
    }

    /// A run still going holds its lock: `merge` refuses it as a shard and `report` refuses to
    /// write its page, exit 2, nothing written; a crashed run (its lock free) merges with a
    /// warning. And `merge` never writes into a shard it reads.
    func testMergeAndReportRefuseALiveRunAndMergeWritesIntoNoShard() throws {
        let scratch = try Scratch()
        let live = scratch.path + "/live"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: live, hooks: RunHooks(shouldStop: { $0 == 3 })), 130)
        try FileSystem.writeText(RunState(experiment: "tiny", shard: .whole, status: .running, cellsDone: 3, cellsTotal: 12).text,
                                 to: live + "/" + RunState.fileName)
        let before = try snapshot(live)
        let held = try XCTUnwrap(DirectoryLock.acquire(live))
        let merged = mergeRuns([live], out: scratch.path + "/merged")
        XCTAssertEqual(merged.status, 2, merged.err)
        XCTAssertTrue(merged.err.contains("in use by another testbed process (pid \(getpid()) on host"), merged.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/merged"))
        let reported = CapturedConsole()
        XCTAssertEqual(ReportInvocation(directory: live).execute(console: reported.console), 2, reported.err)
        XCTAssertTrue(reported.err.contains("in use by another testbed process"), reported.err)
        XCTAssertEqual(try snapshot(live), before, "the live run was not written into")
        held.release()

        // (`..` after a component that does not exist is refused before this check: see
        // OutputPathTests.)
        let roundabout = live + "/../" + (live as NSString).lastPathComponent + "/./sub2"
        for inside in [live, live + "/sub", roundabout, scratch.path + "/link/sub"] {
            if inside.contains("/link/") { try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: live) }
            let into = mergeRuns([live], out: inside)
            XCTAssertEqual(into.status, 2, "\(inside): \(into.err)")
            XCTAssertTrue(into.err.contains("is inside the shard directory"), into.err)
            XCTAssertEqual(try snapshot(live), before, "\(inside): nothing written into the shard")
        }

        let crashed = mergeRuns([live], out: scratch.path + "/merged")
        XCTAssertEqual(crashed.status, 0, crashed.err)
        XCTAssertTrue(crashed.err.contains("is running: 3/12 cells"), crashed.err)
        XCTAssertEqual(ReportInvocation(directory: live).execute(console: CapturedConsole().console), 0)
    }

    // MARK: same-second default directories

    func testTwoRunsStartedInTheSameSecondGetTwoDirectories() throws {
        let scratch = try Scratch()
        let config = try scratch.write(tinyConfig(), to: "config.yaml")
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        var outcomes: [RunOutcome] = []
        for _ in 0..<3 {
            var invocation = RunInvocation(configPath: config)
            invocation.resultsRoot = scratch.resultsRoot
            invocation.plots = false
            invocation.now = { date }
            outcomes.append(try invocation.run(console: CapturedConsole().console))
        }
        let stamp = OutputLocation.timestamp(date)
        let base = scratch.resultsRoot + "/tiny/" + stamp
        XCTAssertEqual(outcomes.map(\.directory), [base, base + "-2", base + "-3"])
        XCTAssertEqual(outcomes.map(\.exitCode), [0, 0, 0])
        XCTAssertEqual(OutputLocation.latestRun(resultsRoot: scratch.resultsRoot, name: "tiny"), base + "-3")
        for name in [stamp, stamp + "-2", stamp + "-10"] { XCTAssertTrue(OutputLocation.isTimestamp(name), name) }
        for name in [stamp + "-", stamp + "-1", stamp + "-02", stamp + "-+5", stamp + "-merged", "reference"] {
            XCTAssertFalse(OutputLocation.isTimestamp(name), name)
        }
    }

    func testTheNewestSameSecondRunSortsByNumberNotText() throws {
        let scratch = try Scratch()
        let parent = scratch.resultsRoot + "/tiny/"
        for name in ["20261122T231500Z", "20261122T231500Z-9", "20261122T231500Z-10", "20261122T231459Z-99"] {
            try FileManager.default.createDirectory(atPath: parent + name, withIntermediateDirectories: true)
            _ = try scratch.write("", to: "Results/tiny/\(name)/\(RunState.fileName)")
        }
        XCTAssertEqual(OutputLocation.latestRun(resultsRoot: scratch.resultsRoot, name: "tiny"), parent + "20261122T231500Z-10")
    }

    // MARK: during the cells

    /// Stands for a failure during the cells (a full disk, an engine that fails).
    private struct Failing: CellExecutor {
        func execute() throws -> CellMeasurement { throw FileSystemError("write", "timings.csv", reason: "No space left on device") }
    }

    func testAFailureDuringTheCellsLeavesFailedWithTheKeptCellsAndResumeFinishes() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        var started = 0
        let hooks = RunHooks(executor: { _, executor in
            started += 1
            return started == 4 ? Failing() : executor
        })
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: hooks, console: console), 2, console.err)
        XCTAssertTrue(console.err.contains("No space left on device"), console.err)
        XCTAssertEqual(try state(out), RunState(experiment: "tiny", shard: .whole, status: .failed, cellsDone: 3, cellsTotal: 12))
        XCTAssertEqual(try readTimings(out + "/" + TimingsFile.name).count, 6, "the 3 completed cells are kept")
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true), 0)
        XCTAssertEqual(try state(out).status, .complete)
        XCTAssertEqual(try readTimings(out + "/" + TimingsFile.name).count, 24)
    }

    func testSigtermDuringTheCellsIsAnInterruptionThatResumeFinishes() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        // SIGTERM's handler as the run found it: the default action, or SignalCleanup's when
        // an earlier test in this process made a temporary or wrote plans.
        func sigtermHandler() -> UnsafeRawPointer? {
            let current = signal(SIGTERM, SIG_IGN)
            signal(SIGTERM, current)
            return current.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
        }
        let before = sigtermHandler()
        let hooks = RunHooks(shouldStop: { finished in
            guard finished == 2 else { return false }
            // Raised only when handled: the default action would end the test process.
            let current = signal(SIGTERM, SIG_IGN)
            signal(SIGTERM, current)
            guard current != nil else { XCTFail("SIGTERM is not handled during the cells"); return true }
            raise(SIGTERM)
            return false
        })
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: hooks, console: console), 143, console.err)
        XCTAssertEqual(try state(out), RunState(experiment: "tiny", shard: .whole, status: .interrupted, cellsDone: 2, cellsTotal: 12))
        XCTAssertTrue(console.err.contains("--resume"), console.err)
        XCTAssertEqual(sigtermHandler(), before, "the handler the run found is back after it")
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true), 0)
        XCTAssertEqual(try readTimings(out + "/" + TimingsFile.name).count, 24)
    }

    // MARK: after the cells

    func testAFailureAtTheSummaryLeavesFinishingAndResumeFinishesIt() throws {
        for step in [FinishingStep.summary, .plots, .plans] {
            let scratch = try Scratch()
            let out = scratch.path + "/run"
            let config = tinyConfig() + "\nplans: true\n"
            let failing = RunHooks(finishing: { if $0 == step { throw FileSystemError("write", out + "/summary.csv", reason: "No space left on device") } })
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(config, in: scratch, out: out, hooks: failing, console: console), 2, "\(step): \(console.err)")
            let failed = try state(out)
            XCTAssertEqual(failed.status, .finishing, "\(step)")
            XCTAssertEqual(failed.cellsDone, failed.cellsTotal, "\(step)")
            XCTAssertEqual(failed.cellsTotal, 12)
            XCTAssertFalse(FileSystem.exists(out + "/summary.txt") && step == .summary, "\(step)")

            let resumed = CapturedConsole()
            XCTAssertEqual(try runConfig(config, in: scratch, out: out, resume: true, console: resumed), 0, "\(step): \(resumed.err)")
            XCTAssertFalse(resumed.err.contains("already complete"), resumed.err)
            XCTAssertEqual(try state(out).status, .complete, "\(step)")
            XCTAssertTrue(FileSystem.exists(out + "/" + Summary.fileName), "\(step)")
            XCTAssertTrue(FileSystem.isDirectory(out + "/plans"), "\(step)")
            XCTAssertEqual(try readTimings(out + "/" + TimingsFile.name).count, 24, "\(step): no cell ran twice")
        }
    }

    func testSigintDuringThePlotsOrPlansIsAnInterruptionThatResumeFinishes() throws {
        for step in [FinishingStep.plots, .plans] {
            let scratch = try Scratch()
            let out = scratch.path + "/run"
            let config = tinyConfig() + "\nplans: true\n"
            let hooks = RunHooks(finishing: { if $0 == step { raise(SIGINT) } })
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(config, in: scratch, out: out, hooks: hooks, console: console), 130, "\(step): \(console.err)")
            XCTAssertEqual(try state(out).status, .interrupted, "\(step)")
            XCTAssertTrue(console.err.contains("--resume"), console.err)
            let resumed = CapturedConsole()
            XCTAssertEqual(try runConfig(config, in: scratch, out: out, resume: true, console: resumed), 0, "\(step): \(resumed.err)")
            XCTAssertEqual(try state(out).status, .complete, "\(step)")
            XCTAssertTrue(FileSystem.exists(out + "/" + Summary.fileName))
        }
    }
}
