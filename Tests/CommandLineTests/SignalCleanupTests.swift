import Foundation
import XCTest

/// Commands stopped by SIGINT, SIGTERM or SIGPIPE while they hold a temporary still die of
/// the signal (130, 143 or 141), and leave nothing behind: `generate`'s `.NAME.tmp-PID` sibling, a plist
/// backend's directory under TMPDIR, `hunt`'s claimed `--out`, `plan`'s files.
final class SignalCleanupTests: XCTestCase {
    private var work = ""
    private var tmp = ""
    /// The last interrupted command's standard error.
    private var errors = ""

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("signals-" + UUID().uuidString.prefix(8)).path
        work = base + "/work"
        tmp = base + "/tmp"
        errors = base + "/stderr.txt"
        for path in [work, tmp] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        addTeardownBlock { try? FileManager.default.removeItem(atPath: base) }
    }

    /// Starts `testbed arguments` in the work directory, waits until `ready` holds (the
    /// temporary exists), sends `signal`, and returns the exit status as a shell reports it.
    private func interrupt(_ arguments: [String], by signal: Int32, environment: [String: String] = [:],
                           when ready: () -> Bool) throws -> Int32 {
        let process = Process()
        (process.executableURL, process.arguments) = try Battery.signalledCommand(arguments)
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp].merging(environment) { $1 }) { $1 }
        process.standardOutput = FileHandle.nullDevice
        XCTAssertTrue(FileManager.default.createFile(atPath: errors, contents: nil))
        let errorFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        defer { try? errorFile.close() }
        process.standardError = errorFile
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while !ready() && process.isRunning && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(process.isRunning, "\(arguments) ended before the signal")
        XCTAssertTrue(ready(), "\(arguments) never made its temporary")
        kill(process.processIdentifier, signal)
        awaitEnd(of: process, within: 60, "\(arguments) was still running a minute after signal \(signal)")
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Waits up to `seconds` for `process` to end; one still running then is killed, and the
    /// test fails saying `stillRunning`.
    private func awaitEnd(of process: Process, within seconds: TimeInterval, _ stillRunning: @autoclosure () -> String) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail(stillRunning())
        }
        process.waitUntilExit()
    }

    /// Starts `testbed arguments` with its standard error on a pipe, reads the first line,
    /// hands it to `beforeClosing`, closes the pipe (as `| head -1` does) and returns the
    /// process once it has ended.
    private func closingTheReaderAfterTheFirstLine(_ arguments: [String], beforeClosing: (String) throws -> Void) throws -> Process {
        let process = Process()
        (process.executableURL, process.arguments) = try Battery.signalledCommand(arguments)
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { $1 }
        let output = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = output
        try process.run()
        try output.fileHandleForWriting.close()
        var first = Data()
        while !first.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first += chunk
        }
        try beforeClosing(String(decoding: first, as: UTF8.self))
        try output.fileHandleForReading.close()
        awaitEnd(of: process, within: 120, "\(arguments) was still running two minutes after its reader went away")
        return process
    }

    private func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func testGenerateStoppedMidWriteLeavesNoTemporary() throws {
        for (signal, output) in [(SIGTERM, ["--csv", "big"]), (SIGINT, ["--sqlite", "big.sqlite"])] {
            let status = try interrupt(["generate", "--shape", "documents", "--rows", "2000000"] + output, by: signal) {
                entries(work).contains { $0.hasPrefix(".big") }
            }
            XCTAssertEqual(status, 128 + signal)
            XCTAssertEqual(entries(work), [], "after \(output)")
        }
    }

    func testAPlistBackendsDirectoryGoesWithTheProcess() throws {
        let status = try interrupt(["query", "selected-document-children", "--rows", "500000", "--backend", "plist-directory"],
                                   by: SIGTERM) { entries(tmp).contains { $0.hasPrefix("testbed-plist-") } }
        XCTAssertEqual(status, 128 + SIGTERM)
        XCTAssertEqual(entries(tmp).filter { $0.hasPrefix("testbed-plist-") }, [])
    }

    /// A run acts on a signal at once while it generates or loads a dataset (minutes at a
    /// million rows), not when that step ends: it dies of the signal, its temporary goes, and
    /// the cells it finished stay for --resume.
    func testARunStoppedWhilePreparingADatasetEndsAtOnceKeepingItsCells() throws {
        let config = """
            name: preparing
            dataset:
              shape: documents
              rows: [20, 500000]
              seed: 7
            backend: [plist-directory]
            queries:
              - name: with-children
                text: |
                  let children = selected_documents project [id] rename [id -> parent_id] join documents
                  output children
            flagsets:
              all-on: {preset: all-on}
            repetitions: 1
            warmup: 0
            plans: false

            """
        let timings = try stopWhilePreparing(config, by: SIGTERM, cell: "with-children rows=500000")
        XCTAssertEqual(timings.split(separator: "\n").count, 2, "the 20-row cell is kept: \(timings)")
        XCTAssertTrue(timings.contains(",20,"), timings)
    }

    /// Runs `config` (two cells, the second a large plist-directory load), signals it once
    /// the first cell is kept and the second's files are being written (the small one has at
    /// most 20), checks that it died of the signal saying it stopped while preparing `cell`
    /// and left no plist temporary, and returns the kept `timings.csv`.
    private func stopWhilePreparing(_ config: String, by signal: Int32, cell: String) throws -> String {
        try config.write(toFile: work + "/config.yaml", atomically: true, encoding: .utf8)
        let status = try interrupt(["run", "config.yaml", "--out", "out"], by: signal) {
            FileManager.default.fileExists(atPath: work + "/out/timings.csv")
                && entries(tmp).contains { entries(tmp + "/" + $0 + "/data/documents").count > 100 }
        }
        XCTAssertEqual(status, 128 + signal)
        let said = try String(contentsOfFile: errors, encoding: .utf8)
        XCTAssertTrue(said.contains("stopped while preparing \(cell)") && said.contains("kept 1 of 2 cells")
                      && said.contains("--resume --out out"), said)
        XCTAssertEqual(entries(tmp).filter { $0.hasPrefix("testbed-plist-") || $0.hasPrefix(".testbed-plist-") }, [])
        return try String(contentsOfFile: work + "/out/timings.csv", encoding: .utf8)
    }

    /// A change experiment loads a fresh copy of the data for every replay, outside the
    /// dataset cache: that load ends at once too.
    func testAChangeRunStoppedWhileLoadingAReplayEndsAtOnceKeepingItsCells() throws {
        let config = """
            name: replaying
            dataset:
              shape: documents
              rows: [20, 400000]
              seed: 7
            backend: [plist-directory]
            queries:
              - selected-document-parent
            flagsets:
              all-on: {preset: all-on}
            changes:
              session: ui-browse
              transactions: 2
              seed: 3
            modes: [incremental]
            repetitions: 1
            warmup: 0
            plans: false

            """
        let timings = try stopWhilePreparing(config, by: SIGINT, cell: "selected-document-parent rows=400000")
        XCTAssertEqual(timings.split(separator: "\n").count, 3, "the 20-row cell's two transactions are kept: \(timings)")
    }

    func testAStoppedHuntLeavesItsOutputDirectoryAsItFoundIt() throws {
        let hunt = ["hunt", "--random", "100000", "--seed", "3", "--rows", "300", "--orders", "0", "--no-reduce", "--out"]
        var status = try interrupt(hunt + ["fresh"], by: SIGTERM) { entries(work + "/fresh") == ["run.lock"] }
        XCTAssertEqual(status, 128 + SIGTERM)
        XCTAssertEqual(entries(work), [])
        try FileManager.default.createDirectory(atPath: work + "/given", withIntermediateDirectories: false)
        status = try interrupt(hunt + ["given"], by: SIGINT) { entries(work + "/given") == ["run.lock"] }
        XCTAssertEqual(status, 128 + SIGINT)
        XCTAssertEqual(entries(work), ["given"])
        XCTAssertEqual(entries(work + "/given"), [])
    }

    /// `plan` stopped while Graphviz lays out a graph (seconds for a wide union) left the
    /// files it had written: one of eight in an `--out` it made. It now takes back the
    /// directories it made, and in a directory that was there the files that were not.
    func testAPlanStoppedMidWayLeavesNoHalfSetOfPlans() throws {
        let query = (work as NSString).deletingLastPathComponent + "/wide.rq"
        let selects = (0..<44).map { "(documents select (id == \($0)))" }.joined(separator: " union ")
        try "# shape: documents\noutput \(selects)\n".write(toFile: query, atomically: true, encoding: .utf8)
        let plan = ["plan", query, "--rows", "20", "--out"]
        var status = try interrupt(plan + ["made/plans"], by: SIGTERM) {
            FileManager.default.fileExists(atPath: work + "/made/plans/wide-relation.dot")
        }
        XCTAssertEqual(status, 128 + SIGTERM)
        XCTAssertEqual(entries(work), [])
        try FileManager.default.createDirectory(atPath: work + "/given", withIntermediateDirectories: false)
        try "mine".write(toFile: work + "/given/notes.txt", atomically: true, encoding: .utf8)
        status = try interrupt(plan + ["given"], by: SIGTERM) { FileManager.default.fileExists(atPath: work + "/given/wide-relation.dot") }
        XCTAssertEqual(status, 128 + SIGTERM)
        XCTAssertEqual(entries(work + "/given"), ["notes.txt"])
    }

    /// SIGPIPE, the reader of the progress lines going away (`testbed hunt … 2>&1 | head -1`),
    /// killed the hunt at its next progress line and left `--out` holding only its lock; it
    /// now takes back `--out` as the other signals do, and still dies of the signal (141).
    func testAHuntWhoseProgressReaderGoesAwayLeavesNoOutputDirectory() throws {
        let hunt = ["hunt", "--random", "100000", "--seed", "3", "--rows", "300", "--orders", "0", "--no-reduce", "--out", "fresh"]
        let process = try closingTheReaderAfterTheFirstLine(hunt) { first in
            XCTAssertTrue(first.hasPrefix("hunt: "), first)
            XCTAssertEqual(entries(work + "/fresh"), ["run.lock"])
        }
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGPIPE)
        XCTAssertEqual(entries(work), [])
    }

    /// Starting a DuckDB helper ignored SIGPIPE for the rest of the process (so that a helper
    /// that died was an error on write), and a `verify --engines duckdb` whose progress reader
    /// went away ran every case and exited 0. The writes to the helper now hold SIGPIPE back
    /// on their own thread only: the closed pipe ends the command (141), the helper killed
    /// first.
    func testAVerifyWithADuckDBOracleWhoseProgressReaderGoesAwayDiesOfSIGPIPE() throws {
        try SleepingHelper.requireDuckDB()
        let verify = ["verify", "--random", "2000", "--seed", "3", "--engines", "duckdb", "--no-reduce"]
        let process = try closingTheReaderAfterTheFirstLine(verify) { first in
            XCTAssertTrue(first.hasPrefix("verify: 100/2000 random cases"), first)
        }
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGPIPE)
        XCTAssertEqual(processes(holding: "TMPDIR=" + tmp), [], "the DuckDB helper outlived the testbed")
    }

    /// The processes whose environment holds `entry` (`NAME=value`): a helper started by a
    /// testbed given this test's TMPDIR. Linux's /proc; elsewhere none are found.
    private func processes(holding entry: String) -> [String] {
        let needle = Data((entry + "\0").utf8)
        return entries("/proc").filter { name in
            name.allSatisfy(\.isNumber) && FileManager.default.contents(atPath: "/proc/\(name)/environ")?.range(of: needle) != nil
        }
    }

    /// The DuckDB helper runs in a process group of its own (so that Ctrl-C reaches only the
    /// testbed): a helper that does not read its input outlived a testbed ended by a signal.
    func testAQueryStoppedWhileItsDuckDBHelperStartsKillsTheHelper() throws {
        try SleepingHelper.requireDuckDB()
        let helper = (work as NSString).deletingLastPathComponent + "/sleeper.py"
        try SleepingHelper.script.write(toFile: helper, atomically: true, encoding: .utf8)
        for signal in [SIGTERM, SIGINT] {
            unlink(helper + ".pid")
            let status = try interrupt(["query", "selected-document-parent", "--rows", "20", "--engine", "duckdb"], by: signal,
                                       environment: ["TESTBED_DUCKDB_HELPER": helper]) {
                FileManager.default.fileExists(atPath: helper + ".pid")
            }
            XCTAssertEqual(status, 128 + signal)
            let pid = try SleepingHelper.pid(of: helper)
            XCTAssertNotEqual(kill(pid, 0), 0, "the helper \(pid) outlived the testbed")
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }
}
