import Foundation
import XCTest

/// The `testbed` executable with a PostgreSQL baseline, ended every way a run can end: no
/// postgres process and no server directory may be left behind, whether the run finishes,
/// fails, is interrupted (SIGINT, SIGTERM) or killed (SIGKILL, when the server's watchdog
/// cleans up). Each run gets its own TMPDIR, so "left behind" means: a process whose command
/// line or working directory is in it, or anything still in it.
final class PostgresProcessTests: XCTestCase {
    private var tmp = ""
    private var work = ""

    override func setUpWithError() throws {
        guard FileManager.default.fileExists(atPath: "/usr/lib/postgresql") || ProcessInfo.processInfo.environment["TESTBED_REQUIRE_ENGINES"] == "1" else {
            throw XCTSkip("PostgreSQL is not installed (bash scripts/setup.sh --engines)")
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pgproc-" + UUID().uuidString.prefix(8))
        tmp = base.appendingPathComponent("tmp").path
        work = base.appendingPathComponent("work").path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        // The server's unprivileged user must reach its directory under TMPDIR.
        for path in [base.path, tmp] { chmod(path, 0o755) }
    }

    override func tearDown() {
        if !tmp.isEmpty { try? FileManager.default.removeItem(atPath: (tmp as NSString).deletingLastPathComponent) }
    }

    private func config(_ baselines: String, queries: String = "  - selected-document-parent", rows: Int = 2000, repetitions: Int = 3,
                        flagsets: Bool = true) throws -> String {
        let text = """
            name: pg-process
            dataset: {shape: documents, rows: [\(rows)], seed: 42}
            backend: memory
            queries:
            \(queries)
            flagsets: {\(flagsets ? "all-on: {preset: all-on}" : "")}
            baselines: \(baselines)
            repetitions: \(repetitions)
            warmup: 0
            plans: false

            """
        let path = work + "/pg.yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        (process.executableURL, process.arguments) = try Battery.signalledCommand(arguments)
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        var env = ProcessInfo.processInfo.environment
        env["TESTBED_QUERIES"] = Battery.repository.appendingPathComponent("Workloads/queries").path
        env["TMPDIR"] = tmp
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    private func finish(_ process: Process, _ err: Pipe, within seconds: Double = 120) -> (Int32, String) {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate() }
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, text)
    }

    /// Processes whose command line mentions `tmp` or whose working directory is in it.
    private func leftovers() -> [String] {
        var found: [String] = []
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-eo", "pid=,args="]
        let out = Pipe()
        ps.standardOutput = out
        try? ps.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ps.waitUntilExit()
        found += text.split(separator: "\n").map(String.init).filter { $0.contains(tmp) }
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
            if let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"), cwd.hasPrefix(tmp) {
                found.append("pid \(pid) works in \(cwd)")
            }
        }
        return found
    }

    /// Waits up to `seconds` for no process and nothing in TMPDIR; returns what is left.
    private func leftBehind(seconds: Double = 20) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let processes = leftovers()
            // Only the servers' directories: other parts of a run may use TMPDIR too.
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("testbed-pg-") }
            if processes.isEmpty && files.isEmpty { return [] }
            if Date() > deadline { return processes + files.map { "file \($0) in TMPDIR" } }
            usleep(100_000)
        }
    }

    /// Waits until a server of this run accepts connections (its socket is there).
    private func waitForServer(_ process: Process, seconds: Double = 120) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline && process.isRunning {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [] where entry.hasPrefix("testbed-pg-") {
                if FileManager.default.fileExists(atPath: "\(tmp)/\(entry)/.s.PGSQL.5432") { return true }
            }
            usleep(50_000)
        }
        return false
    }

    func testACompleteRunLeavesNoServer() throws {
        let (process, err) = try start(["run", try config("[postgres, postgres-analyzed]"), "--out", work + "/out"])
        let (status, text) = finish(process, err)
        XCTAssertEqual(status, 0, text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/out/timings.csv"))
        XCTAssertEqual(leftBehind(), [])
    }

    func testMissingPostgreSQLExitsTwoWithTheInstallHintAndWritesNothing() throws {
        let (process, err) = try start(["run", try config("[postgres]"), "--out", work + "/out"],
                                       environment: ["TESTBED_POSTGRES_BIN": work + "/no-such-bin"])
        let (status, text) = finish(process, err)
        XCTAssertEqual(status, 2, text)
        XCTAssertTrue(text.hasPrefix("testbed: "), text)
        XCTAssertTrue(text.contains("bash scripts/setup.sh --engines"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/out/timings.csv"))
        XCTAssertEqual(leftBehind(), [])
    }

    func testABadSettingIsRefusedBeforeAnythingStarts() throws {
        let (process, err) = try start(["run", try config("[{engine: postgres, name: pg, settings: {enable_hashjoins: off}}]"),
                                        "--out", work + "/out"])
        let (status, text) = finish(process, err)
        XCTAssertEqual(status, 2, text)
        XCTAssertTrue(text.contains("enable_hashjoins") && text.contains("enable_hashjoin"), text)
        XCTAssertEqual(leftBehind(), [])
    }

    func testAnErrorMidRunLeavesNoServer() throws {
        // PostgreSQL refuses a literal that mixes integers and text in one column, after the
        // server started and loaded the data; the run fails and must clean up.
        let queries = """
              - name: mixed-literal
                text: |
                  output relation [id] { (1), ("one") } join documents
            """
        let (process, err) = try start(["run", try config("[postgres]", queries: queries), "--out", work + "/out"])
        let (status, text) = finish(process, err)
        XCTAssertNotEqual(status, 0, text)
        XCTAssertTrue(text.contains("integer") && text.contains("text"), text)
        XCTAssertEqual(leftBehind(), [])
    }

    private func interrupted(by signal: Int32) throws -> (Int32, String) {
        let (process, err) = try start(["run", try config("[postgres]", rows: 20000, repetitions: 100000, flagsets: false), "--out", work + "/out"])
        guard waitForServer(process) else {
            let (status, text) = finish(process, err, within: 5)
            XCTFail("no server came up (exit \(status)): \(text)")
            return (status, text)
        }
        usleep(300_000)
        XCTAssertTrue(process.isRunning, "the run ended before the signal")
        kill(process.processIdentifier, signal)
        return finish(process, err, within: 60)
    }

    func testSIGINTLeavesNoServer() throws {
        let (status, text) = try interrupted(by: SIGINT)
        XCTAssertNotEqual(status, 0, text)
        XCTAssertEqual(leftBehind(), [])
    }

    func testSIGTERMLeavesNoServer() throws {
        let (status, _) = try interrupted(by: SIGTERM)
        XCTAssertEqual(status, 128 + SIGTERM)
        XCTAssertEqual(leftBehind(), [])
    }

    func testSIGKILLLeavesNoServerOnceTheWatchdogNotices() throws {
        let (status, _) = try interrupted(by: SIGKILL)
        XCTAssertEqual(status, 128 + SIGKILL)
        XCTAssertEqual(leftBehind(seconds: 30), [])
    }
}
