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
        let process = Process()
        let testbed = try Battery.executable().path
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
}
