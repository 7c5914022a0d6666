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
        XCTAssertEqual(try TimingsFile.read(partial + "/timings.csv").count, 10, "5 cells × 2 repetitions kept")

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
        let first = try TimingsFile.read(one + "/timings.csv"), second = try TimingsFile.read(two + "/timings.csv")
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
