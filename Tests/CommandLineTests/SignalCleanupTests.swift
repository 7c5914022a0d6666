import Foundation
import XCTest

/// Commands stopped by SIGINT or SIGTERM while they hold a temporary still die of the signal
/// (130 or 143), and leave nothing behind: `generate`'s `.NAME.tmp-PID` sibling, a plist
/// backend's directory under TMPDIR, `hunt`'s claimed `--out`.
final class SignalCleanupTests: XCTestCase {
    private var work = ""
    private var tmp = ""

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("signals-" + UUID().uuidString.prefix(8)).path
        work = base + "/work"
        tmp = base + "/tmp"
        for path in [work, tmp] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        addTeardownBlock { try? FileManager.default.removeItem(atPath: base) }
    }

    /// Starts `testbed arguments` in the work directory, waits until `ready` holds (the
    /// temporary exists), sends `signal`, and returns the exit status as a shell reports it.
    private func interrupt(_ arguments: [String], by signal: Int32, when ready: () -> Bool) throws -> Int32 {
        let process = Process()
        (process.executableURL, process.arguments) = try Battery.signalledCommand(arguments)
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmp]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while !ready() && process.isRunning && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(process.isRunning, "\(arguments) ended before the signal")
        XCTAssertTrue(ready(), "\(arguments) never made its temporary")
        kill(process.processIdentifier, signal)
        let ended = Date().addingTimeInterval(60)
        while process.isRunning && Date() < ended { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("\(arguments) was still running a minute after signal \(signal)")
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
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
}
