import Foundation
import XCTest

/// A new run whose first files cannot be written (a full disk, a file-size limit) leaves no
/// directory behind that would refuse the next run and `--resume` alike.
final class WriteFailureTests: XCTestCase {
    private var work = ""

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("write-failure-" + UUID().uuidString.prefix(8)).path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        addTeardownBlock { [work] in try? FileManager.default.removeItem(atPath: work) }
    }

    /// A config over the 512-byte file-size limit the command runs under: `config.yaml`,
    /// the run's first file, fails to be written (EFBIG, SIGXFSZ ignored), as on a full disk.
    private let config = """
        # \(String(repeating: "padding ", count: 120))
        name: limited
        dataset:
          shape: documents
          rows: [20]
          seed: 7
        queries:
          - selected-document-parent
        flagsets:
          all-on: {preset: all-on}
        repetitions: 1
        warmup: 0
        plans: false

        """

    private func run(_ arguments: [String], limitingFileSize: Bool) throws -> (status: Int32, stderr: String) {
        try run(executable: try Battery.executable().path, arguments, limitingFileSize: limitingFileSize)
    }

    private func run(executable testbed: String, _ arguments: [String], limitingFileSize: Bool) throws -> (status: Int32, stderr: String) {
        let process = Process()
        if limitingFileSize {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"", testbed] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: testbed)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: work)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    private func entries(_ path: String) -> [String]? {
        (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted()
    }

    func testANewRunThatCannotWriteItsFirstFilesLeavesNothing() throws {
        try config.write(toFile: work + "/limited.yaml", atomically: true, encoding: .utf8)
        var (status, said) = try run(["run", "limited.yaml", "--out", "fresh"], limitingFileSize: true)
        XCTAssertEqual(status, 2, said)
        XCTAssertTrue(said.contains("config.yaml"), said)
        XCTAssertNil(entries(work + "/fresh"), "the run's new directory is removed")
        // A directory given empty stays, empty.
        try FileManager.default.createDirectory(atPath: work + "/given", withIntermediateDirectories: false)
        (status, said) = try run(["run", "limited.yaml", "--out", "given"], limitingFileSize: true)
        XCTAssertEqual(status, 2, said)
        XCTAssertEqual(entries(work + "/given"), [])
        // Before, `fresh` kept its lock file: a new run refused it as not empty, `--resume` as holding no run.
        (status, said) = try run(["run", "limited.yaml", "--out", "fresh"], limitingFileSize: false)
        XCTAssertEqual(status, 0, said)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/fresh/timings.csv"), said)
    }

    /// `plan` and `hunt` take back what they wrote: `plan` left 4 of its 8 files in the
    /// directory it made, `hunt` its new `--out` holding only `run.lock`.
    func testPlansAndHuntsThatCannotWriteLeaveNothing() throws {
        var (status, said) = try run(["plan", "selected-document-parent", "--rows", "20", "--out", "made/plans"], limitingFileSize: true)
        XCTAssertEqual(status, 2, said)
        XCTAssertTrue(said.contains("--out: cannot write plans to 'made/plans'"), said)
        XCTAssertNil(entries(work + "/made"), "the directories plan made are removed")
        (status, said) = try run(["hunt", "--random", "3", "--rows", "20", "--out", "hunted"], limitingFileSize: true)
        XCTAssertEqual(status, 2, said)
        XCTAssertTrue(said.contains("regret.csv"), said)
        XCTAssertNil(entries(work + "/hunted"), "the hunt's new directory is removed")
    }

    /// A plot that cannot be written whole is not left cut off (the plotting scripts write
    /// beside and rename), and the hunt says the traceback's last line, not the traceback.
    func testAPlotThatCannotBeWrittenLeavesNoPartFile() throws {
        let (status, said) = try run(["hunt", "--random", "3", "--rows", "20", "--out", "h"], limitingFileSize: false)
        XCTAssertEqual(status, 0, said)
        guard FileManager.default.fileExists(atPath: work + "/h/plots/regret-cdf.svg") else {
            let message = "matplotlib is not installed (no plot was drawn); bash scripts/setup.sh --plotting installs it"
            if ProcessInfo.processInfo.environment["TESTBED_REQUIRE_REPORT_TOOLS"] == "1" { XCTFail(message) }
            throw XCTSkip(message)
        }
        try FileManager.default.removeItem(atPath: work + "/h/plots/regret-cdf.svg")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/plot_regret.py").path
        let (scriptStatus, scriptSaid) = try run(executable: "/usr/bin/env", ["python3", script, "h"], limitingFileSize: true)
        XCTAssertNotEqual(scriptStatus, 0, scriptSaid)
        XCTAssertEqual(entries(work + "/h/plots"), [], "neither a cut-off regret-cdf.svg nor its .partial is left")
    }
}
