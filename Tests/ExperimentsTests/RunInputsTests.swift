import FileSupport
import XCTest
@testable import Experiments

/// A query file or change script edited between a run and its `--resume`, or between two
/// shards, is refused by name (`inputs.txt`), as an edited config is.
final class RunInputsTests: XCTestCase {
    private func config(queryFile: String, changes: String? = nil) -> String {
        tinyConfig(baselines: changes == nil ? "[sqlite]" : "[]")
            .replacingOccurrences(of: "  - selected-document-parent\n", with: "  - name: from-file\n    file: \(queryFile)\n")
            + (changes.map { "\nchanges:\n  script: \($0)\n  transactions: 1\nmodes: [incremental]\n" } ?? "")
    }

    private let query = "# shape: documents\noutput selected_documents join documents\n"

    func testResumeRefusesAQueryFileEditedSinceTheRun() throws {
        let scratch = try Scratch()
        let file = try scratch.write(query, to: "q.rq")
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: out, hooks: RunHooks(shouldStop: { $0 >= 1 })), 130)
        XCTAssertTrue(try FileSystem.readText(out + "/" + RunInputs.fileName).contains("query from-file "))

        _ = try scratch.write(query.replacingOccurrences(of: "selected_documents join documents", with: "documents join selected_documents"), to: "q.rq")
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: out, resume: true, console: console), 2)
        XCTAssertTrue(console.err.contains("--resume: query 'from-file' has changed since"), console.err)
        XCTAssertEqual(try RunState.read(directory: out).cellsDone, 1, "nothing ran")

        _ = try scratch.write(query, to: "q.rq")
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: out, resume: true), 0, "the restored file resumes")
    }

    func testResumeRefusesAChangeScriptEditedSinceTheRun() throws {
        let scratch = try Scratch()
        let file = try scratch.write(query, to: "q.rq")
        let script = try scratch.write("update selected_documents set [id = 3]\n", to: "s.changes")
        let text = config(queryFile: file, changes: script)
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(text, in: scratch, out: out, hooks: RunHooks(shouldStop: { $0 >= 1 })), 130)
        _ = try scratch.write("update selected_documents set [id = 4]\n", to: "s.changes")
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(text, in: scratch, out: out, resume: true, console: console), 2)
        XCTAssertTrue(console.err.contains("--resume: the change script has changed since"), console.err)
    }

    func testMergeRefusesShardsRunOnDifferentQueryFiles() throws {
        let scratch = try Scratch()
        let file = try scratch.write(query, to: "q.rq")
        let one = scratch.path + "/one", two = scratch.path + "/two"
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: one, shard: "1/2"), 0)
        _ = try scratch.write(query.replacingOccurrences(of: "selected_documents join documents", with: "documents join selected_documents"), to: "q.rq")
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: two, shard: "2/2"), 0)

        let merged = mergeRuns([one, two], out: scratch.path + "/merged")
        XCTAssertEqual(merged.status, 2)
        XCTAssertTrue(merged.err.contains("merge: query 'from-file' has changed since '\(one)' ran it"), merged.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/merged/timings.csv"))
    }

    func testMergedRunRecordsItsInputs() throws {
        let scratch = try Scratch()
        let file = try scratch.write(query, to: "q.rq")
        let one = scratch.path + "/one", two = scratch.path + "/two", merged = scratch.path + "/merged"
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: one, shard: "1/2"), 0)
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: two, shard: "2/2"), 0)
        XCTAssertEqual(mergeRuns([one, two], out: merged).status, 0)
        XCTAssertEqual(try FileSystem.readText(merged + "/" + RunInputs.fileName), try FileSystem.readText(one + "/" + RunInputs.fileName))
    }

    func testAHandEditedInputsFileIsRefusedByLine() throws {
        let scratch = try Scratch()
        let file = try scratch.write(query, to: "q.rq")
        let out = scratch.path + "/run"
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: out, hooks: RunHooks(shouldStop: { $0 >= 1 })), 130)
        let path = out + "/" + RunInputs.fileName
        let lines = try FileSystem.readText(path).split(separator: "\n").map(String.init)
        for (edit, expected) in [("query from-file zz \(file)", "line 2: 'zz' is not a content hash"),
                                 ("widget from-file 0123456789abcdef x", "line 2: expected"),
                                 (lines[1] + "\n" + lines[1], "line 3: query 'from-file' is listed twice")] {
            try FileSystem.writeTextAtomically(([lines[0], edit] + lines.dropFirst(2)).joined(separator: "\n") + "\n", to: path)
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: out, resume: true, console: console), 2)
            XCTAssertTrue(console.err.contains(expected), console.err)
        }
        // A run from before inputs.txt has none, and resumes on its config alone.
        FileSystem.remove(path)
        XCTAssertEqual(try runConfig(config(queryFile: file), in: scratch, out: out, resume: true), 0)
    }
}
