import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// What `merge` refuses (shards of other configs, commits or splits: exit 2 naming the
/// shard's directory, nothing written), what it warns about (hosts, CPU models, load, shared
/// cores), and `--normalise` (times scaled by exactly the recorded calibration ratio).
final class ShardMergeChecksTests: XCTestCase {
    /// Runs `tiny` as shards `specs` ("K/N") into scratch/<name>, returning the directories.
    private func shards(_ specs: [String], in scratch: Scratch, config: String = tinyConfig()) throws -> [String] {
        try specs.enumerated().map { index, spec in
            let out = scratch.path + "/shard-\(index + 1)"
            XCTAssertEqual(try runConfig(config, in: scratch, out: out, shard: spec), 0)
            return out
        }
    }

    private func merge(_ directories: [String], out: String, normalise: Bool = false,
                       console: CapturedConsole = CapturedConsole()) -> Int32 {
        var merge = MergeInvocation(directories: directories, out: out)
        merge.plots = false
        merge.normalise = normalise
        return merge.execute(console: console.console)
    }

    /// Replaces the value of `key:` in DIR/environment.txt (appending the line when absent).
    private func setEnvironment(_ directory: String, _ key: String, _ value: String) throws {
        let path = directory + "/" + Environment.fileName
        var lines = try FileSystem.readText(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.firstIndex(where: { $0.hasPrefix(key + ":") }) {
            lines[index] = "\(key): \(value)"
        } else {
            lines.insert("\(key): \(value)", at: 0)
        }
        try FileSystem.writeTextAtomically(lines.joined(separator: "\n"), to: path)
    }

    private func environmentValue(_ directory: String, _ key: String) throws -> String? {
        try FileSystem.readText(directory + "/" + Environment.fileName).split(separator: "\n")
            .first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    private func assertRefused(_ directories: [String], naming culprit: String, _ fragment: String,
                               in scratch: Scratch, file: StaticString = #filePath, line: UInt = #line) {
        let console = CapturedConsole()
        let out = scratch.path + "/merged-\(UUID().uuidString)"
        XCTAssertEqual(merge(directories, out: out, console: console), 2, console.err, file: file, line: line)
        XCTAssertTrue(console.err.hasPrefix("testbed: "), console.err, file: file, line: line)
        XCTAssertTrue(console.err.contains("'\(culprit)'"), "names the shard: \(console.err)", file: file, line: line)
        XCTAssertTrue(console.err.contains(fragment), console.err, file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written", file: file, line: line)
    }

    func testEveryRunRecordsHostCPULoadAndCalibration() throws {
        let scratch = try Scratch()
        let out = try shards(["1/2"], in: scratch)[0]
        let environment = try ShardEnvironment.read(directory: out, shard: Shard(index: 1, count: 2))
        XCTAssertEqual(environment.host, ProcessInfo.processInfo.hostName)
        XCTAssertNotNil(environment.cpuModel)
        XCTAssertEqual(environment.cores, ProcessInfo.processInfo.activeProcessorCount)
        XCTAssertNotNil(environment.loadAtStart)
        XCTAssertNotNil(environment.loadAtEnd)
        let started = try XCTUnwrap(environment.started), finished = try XCTUnwrap(environment.finished)
        XCTAssertLessThanOrEqual(started, finished)
        XCTAssertGreaterThan(try XCTUnwrap(environment.calibrationMicroseconds), 0)
    }

    func testMergeRefusesShardsOfAnotherConfig() throws {
        let scratch = try Scratch()
        let one = try shards(["1/2"], in: scratch)[0]
        let other = scratch.path + "/other"
        let changed = tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 3")
        XCTAssertEqual(try runConfig(changed, in: scratch, out: other, shard: "2/2"), 0)
        assertRefused([one, other], naming: other, "another config", in: scratch)
    }

    func testMergeRefusesShardsOfAnotherCommit() throws {
        let scratch = try Scratch()
        let dirs = try shards(["1/2", "2/2"], in: scratch)
        try setEnvironment(dirs[0], "git commit", "1111111111111111111111111111111111111111")
        try setEnvironment(dirs[1], "git commit", "2222222222222222222222222222222222222222")
        assertRefused(dirs, naming: dirs[1], "commit 2222222222222222222222222222222222222222", in: scratch)
        // The same commit with local changes in one shard only is another commit too.
        try setEnvironment(dirs[1], "git commit", "1111111111111111111111111111111111111111 (with local changes)")
        assertRefused(dirs, naming: dirs[1], "with local changes", in: scratch)
    }

    func testMergeRefusesOverlappingShardNumbers() throws {
        let scratch = try Scratch()
        // The same shard twice (run twice into two directories).
        let twice = try shards(["1/2", "1/2"], in: scratch)
        assertRefused(twice, naming: twice[1], "shard 1/2 is given twice", in: scratch)
        // Shards of different splits share cells: 1/2 and 1/3 both hold the matrix's first cell.
        let scratch2 = try Scratch()
        let mixed = try shards(["1/2", "1/3"], in: scratch2)
        assertRefused(mixed, naming: mixed[1], "different splits", in: scratch2)
        // An unsharded run beside a shard is a split of 1.
        let scratch3 = try Scratch()
        let whole = try shards(["2/2", "1/1"], in: scratch3)
        assertRefused(whole, naming: whole[1], "different splits", in: scratch3)
    }

    func testNormaliseScalesEachShardsTimesByExactlyItsCalibrationRatio() throws {
        let scratch = try Scratch()
        let dirs = try shards(["1/2", "2/2"], in: scratch)
        // Shard 1's calibration is the reference; shard 2's machine measured 2.5 times slower.
        try setEnvironment(dirs[0], "calibration_us", "1000.0")
        try setEnvironment(dirs[1], "calibration_us", "2500.0")
        let plain = scratch.path + "/plain", normalised = scratch.path + "/normalised"
        XCTAssertEqual(merge(dirs, out: plain), 0)
        XCTAssertEqual(merge(dirs, out: normalised, normalise: true), 0)

        let second = Set(try readTimings(dirs[1] + "/timings.csv").map(\.cell))
        let before = try readTimings(plain + "/timings.csv"), after = try readTimings(normalised + "/timings.csv")
        XCTAssertEqual(before.count, 24)
        XCTAssertEqual(before.count, after.count)
        var scaled = 0
        for (a, b) in zip(before, after) {
            XCTAssertEqual(a.cell, b.cell)
            XCTAssertEqual(a.counters, b.counters, "counters are never normalised")
            XCTAssertEqual(a.resultHash, b.resultHash)
            let ratio = second.contains(a.cell) ? 0.4 : 1.0
            for (x, y) in [(a.planMicroseconds, b.planMicroseconds), (a.optimizeMicroseconds, b.optimizeMicroseconds),
                           (a.runMicroseconds, b.runMicroseconds)] {
                XCTAssertEqual(y, TimingRecord.round(x * ratio), "\(a.cell) rep \(a.repetition)")
                if ratio != 1, x >= 1 { XCTAssertLessThan(y, x); scaled += 1 }
            }
        }
        XCTAssertGreaterThan(scaled, 0, "shard 2's times changed")
        let recorded = try FileSystem.readText(normalised + "/" + Environment.fileName)
        let ratios = "calibration ratios (to shard 1/2): shard 1/2 x1.000000, shard 2/2 x0.400000"
        XCTAssertTrue(recorded.contains(ratios), recorded)
        XCTAssertTrue(recorded.contains("times normalised: yes, by the calibration ratios"), recorded)
        let asMeasured = try FileSystem.readText(plain + "/" + Environment.fileName)
        XCTAssertTrue(asMeasured.contains(ratios), "recorded without --normalise too: \(asMeasured)")
        XCTAssertTrue(asMeasured.contains("times normalised: no"), asMeasured)
        XCTAssertTrue(recorded.contains("shard 2/2: \(dirs[1]);"), recorded)
        XCTAssertTrue(recorded.contains("calibration_us 2500.0"), recorded)
    }

    func testNormaliseRefusesAShardWithoutCalibration() throws {
        let scratch = try Scratch()
        let dirs = try shards(["1/2", "2/2"], in: scratch)
        let path = dirs[1] + "/" + Environment.fileName
        let text = try FileSystem.readText(path).split(separator: "\n").filter { !$0.hasPrefix("calibration_us") }
        try FileSystem.writeTextAtomically(text.joined(separator: "\n") + "\n", to: path)
        let console = CapturedConsole()
        XCTAssertEqual(merge(dirs, out: scratch.path + "/m", normalise: true, console: console), 2)
        XCTAssertTrue(console.err.contains("'\(dirs[1])' records no calibration_us"), console.err)
        XCTAssertEqual(merge(dirs, out: scratch.path + "/m2"), 0, "without --normalise it merges")
    }

    /// An implausible calibration (the malformed-input battery of the twenty-ninth session:
    /// `1e-300` scaled the shard's times to about 1e302 µs, written, then refused by
    /// `compare` and `report`) is refused at its line, named, and nothing is written.
    func testNormaliseRefusesAnImplausibleCalibrationAndWritesNothing() throws {
        let scratch = try Scratch()
        let dirs = try shards(["1/2", "2/2"], in: scratch)
        for bad in ["1e-300", "0", "-5", "nan", "inf", "1e300"] {
            try setEnvironment(dirs[1], "calibration_us", bad)
            let console = CapturedConsole()
            let out = scratch.path + "/m-\(bad)"
            XCTAssertEqual(merge(dirs, out: out, normalise: true, console: console), 2, bad)
            XCTAssertTrue(console.err.contains("calibration_us '\(bad)' is not a time in microseconds from 0.01 to 1e+08"),
                          console.err)
            XCTAssertFalse(FileSystem.exists(out), "\(bad): nothing written")
        }
    }

    func testMergeWarnsAndRecordsWhenShardsRanOnOtherHostsOrCPUs() throws {
        let scratch = try Scratch()
        let dirs = try shards(["1/2", "2/2"], in: scratch)
        for dir in dirs {
            try setEnvironment(dir, "load at start", "0.00 0.00 0.00")
            try setEnvironment(dir, "load at end", "0.00 0.00 0.00")
        }
        let quiet = CapturedConsole()
        XCTAssertEqual(merge(dirs, out: scratch.path + "/same", console: quiet), 0)
        XCTAssertFalse(quiet.err.contains("warning"), quiet.err)

        try setEnvironment(dirs[1], "host", "node-b")
        try setEnvironment(dirs[1], "cpu model", "Other CPU 9000")
        let console = CapturedConsole()
        XCTAssertEqual(merge(dirs, out: scratch.path + "/apart", console: console), 0)
        XCTAssertTrue(console.err.contains("testbed: warning: shards ran on 2 hosts ("), console.err)
        XCTAssertTrue(console.err.contains("node-b"), console.err)
        XCTAssertTrue(console.err.contains("testbed: warning: shards ran on 2 CPU models"), console.err)
        let recorded = try FileSystem.readText(scratch.path + "/apart/" + Environment.fileName)
        XCTAssertTrue(recorded.contains("warning: shards ran on 2 hosts"), recorded)
        XCTAssertTrue(recorded.contains("host node-b; cpu Other CPU 9000"), recorded)
    }

    func testComparabilityWarnsAboutLoadAndSharedCores() {
        func shard(_ k: Int, host: String = "a", load: String = "0.10", from start: String, to end: String) -> ShardEnvironment {
            ShardEnvironment(directory: "s\(k)", shard: Shard(index: k, count: 3), text: """
                date (UTC): 2026-01-01T00:00:\(start)Z
                host: \(host)
                cpu model: X
                cores: 2
                load at start: \(load) 0.00 0.00
                finished (UTC): 2026-01-01T00:00:\(end)Z
                load at end: 0.20 0.00 0.00
                """)
        }
        // One after another on a 2-core host (the next starts as the last ends): nothing to say.
        XCTAssertEqual(ShardComparability.warnings([shard(1, from: "00", to: "10"), shard(2, from: "10", to: "20"),
                                                    shard(3, from: "20", to: "30")]), [])
        // Three at once on 2 cores.
        let crowded = ShardComparability.warnings([shard(1, from: "00", to: "10"), shard(2, from: "01", to: "11"),
                                                   shard(3, from: "02.500", to: "12")])
        XCTAssertEqual(crowded, ["3 shards ran at once on host a, which has 2 cores; they shared cores "
            + "(use sweep.sh --cpus-per-shard or fewer --jobs)"])
        // Three at once, but on two hosts of 2 cores each: no host is crowded (but hosts differ).
        let spread = ShardComparability.warnings([shard(1, from: "00", to: "10"), shard(2, host: "b", from: "01", to: "11"),
                                                  shard(3, from: "02", to: "12")])
        XCTAssertEqual(spread.count, 1)
        XCTAssertTrue(spread[0].hasPrefix("shards ran on 2 hosts (a, b)"), spread[0])
        // A load average above the host's cores.
        let loaded = ShardComparability.warnings([shard(1, load: "3.50", from: "00", to: "10")])
        XCTAssertEqual(loaded, ["shard 1/3 ('s1') ran under load: load average 3.50 at its start on 2 cores"])
    }
}

final class ShardEnvironmentTests: XCTestCase {
    func testAResumedRunEndsAtItsLastFinish() throws {
        let environment = ShardEnvironment(directory: "d", shard: .whole, text: """
            date (UTC): 2026-01-01T00:00:00.000Z
            host: a
            finished (UTC): 2026-01-01T00:00:05.000Z
            load at end: 0.50 0.00 0.00
            resumed: 2026-01-01T00:01:00Z, debug, abc
            host: b
            finished (UTC): 2026-01-01T00:01:09.250Z
            load at end: 1.50 0.00 0.00
            """)
        XCTAssertEqual(environment.host, "a", "the run's own values are the first")
        let finished = try XCTUnwrap(environment.finished), started = try XCTUnwrap(environment.started)
        XCTAssertEqual(finished.timeIntervalSince(started), 69.25, accuracy: 0.001)
        XCTAssertEqual(environment.loadAtEnd, 1.5)
        XCTAssertNil(environment.calibrationMicroseconds)
        XCTAssertNil(environment.cores)
    }
}
