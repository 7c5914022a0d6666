import Foundation
import XCTest

/// Arguments that are not UTF-8 are refused before any work (exit 2, nothing written): Swift
/// decoded each invalid byte as U+FFFD, so `plan --out $'d\xff/p'` wrote into a new
/// directory beside `d\xff`, and `query $'q\xff.rq'` called an existing file missing.
final class ArgumentEncodingTests: XCTestCase {
    /// Runs the testbed through `sh`, whose `printf` makes the raw bytes a `String` cannot hold.
    private func runThroughShell(_ process: TestbedProcess, _ script: String) throws -> TestbedProcess.Outcome {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script, try TestbedProcess.executable().path]
        shell.currentDirectoryURL = process.directory
        let err = Pipe()
        shell.standardError = err
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        return TestbedProcess.Outcome(status: shell.terminationStatus, out: "", err: String(decoding: data, as: UTF8.self))
    }

    func testAnArgumentThatIsNotUTF8IsRefusedAndNothingIsWritten() throws {
        let process = try TestbedProcess(label: "argument-encoding")
        defer { process.remove() }
        try process.write("q.rq", "# shape: documents\noutput documents select (id == 1)\n")
        _ = try runThroughShell(process, #"mkdir "$(printf 'd\377')" && printf 'output documents\n' > "$(printf 'q\377.rq')""#)
        let before = process.listing()
        XCTAssertEqual(before.count, 3, "\(before)")
        for (script, argument) in [
            (#""$0" plan q.rq --rows 20 --out "$(printf 'd\377/p')""#, "argument 6 ('d\\xFF/p')"),
            (#""$0" query "$(printf 'q\377.rq')" --rows 20"#, "argument 2 ('q\\xFF.rq')"),
            (#""$0" generate --shape documents --rows 20 --sqlite "$(printf 'a\376.db')""#, "argument 7 ('a\\xFE.db')"),
        ] {
            let outcome = try runThroughShell(process, script)
            XCTAssertEqual(outcome.status, 2, script + "\n" + outcome.err)
            XCTAssertTrue(outcome.err.contains(argument + " is not valid UTF-8"), outcome.err)
            XCTAssertEqual(process.listing(), before, script)
        }
    }
}
