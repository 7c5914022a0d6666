import Foundation
import XCTest

/// Bad input of the thirty-fifth session's probe, through the built `testbed`: names that
/// mean two things, directories that are links or pipes, line ends and number spellings
/// some readers took and others refused. Each is refused with exit 2 naming it, or read
/// as every other reader reads it.
final class PathAndSpellingInputTests: XCTestCase {
    private var testbed: TestbedProcess!

    override func setUpWithError() throws {
        testbed = try TestbedProcess(label: "path-spelling")
    }

    override func tearDown() {
        testbed?.remove()
    }

    private let config = """
        name: tiny
        dataset: {shape: documents, rows: [20], seed: 42}
        backend: memory
        queries: [selected-document-parent]
        flagsets: {all-on: {preset: all-on}, all-off: {preset: all-off}}
        baseline: all-off
        repetitions: 1
        warmup: 0

        """

    private func assertRefused(_ arguments: [String], environment: [String: String] = [:], _ fragments: String...,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try testbed.run(arguments, environment: environment)
        let label = arguments.joined(separator: " ")
        XCTAssertEqual(outcome.status, 2, "\(label): \(outcome.err)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(outcome.err.contains(fragment), "\(label): '\(fragment)' not in: \(outcome.err)", file: file, line: line)
        }
    }

    /// A bare name that is a catalog query and a file here was read from the file, under the
    /// catalog query's name (a config's `queries:` too); two catalog files whose names are one
    /// text in two Unicode forms stood for each other.
    func testANameMeaningTwoQueriesIsRefused() throws {
        try testbed.write("selected-document-parent", "# shape: documents\noutput documents select (id == 5)\n")
        try testbed.write("c.yaml", config)
        try assertRefused(["query", "selected-document-parent", "--rows", "20"], "is both a catalog query and a file")
        try assertRefused(["run", "c.yaml", "--out", "r"], "c.yaml:4:11: queries[0]", "is both a catalog query and a file")
        XCTAssertFalse(FileManager.default.fileExists(atPath: testbed.directory.path + "/r"))
        let local = try testbed.run("query", "./selected-document-parent", "--rows", "20")
        XCTAssertEqual(local.status, 0, local.err)
        XCTAssertTrue(local.out.contains("(1 row)"), local.out)

        try testbed.write("qd/caf\u{E9}.rq", "# shape: documents\noutput documents select (id == 1)\n")
        try testbed.write("qd/cafe\u{301}.rq", "# shape: documents\noutput documents select (id == 2)\n")
        try assertRefused(["query", "caf\u{E9}", "--rows", "20"], environment: ["TESTBED_QUERIES": "qd"],
                          "one name in two Unicode forms", "(from TESTBED_QUERIES)")
        try assertRefused(["queries"], environment: ["TESTBED_QUERIES": ""], "(from TESTBED_QUERIES) is empty")
    }

    /// `plots/` or `plans/` of a run, or `repro/` of a hunt, that is a symbolic link was
    /// written through; a `run.lock` that is a pipe hung `report` and `merge`.
    func testLinkedSubdirectoriesAndAPipeLockAreRefused() throws {
        try testbed.write("c.yaml", config)
        let made = try testbed.run("run", "c.yaml", "--out", "r")
        XCTAssertEqual(made.status, 0, made.err)
        let run = testbed.directory.appendingPathComponent("r").path
        let outside = testbed.directory.appendingPathComponent("outside").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: run + "/plots")
        try FileManager.default.createSymbolicLink(atPath: run + "/plots", withDestinationPath: "../outside")
        let state = try String(contentsOfFile: run + "/run.txt", encoding: .utf8)
        try state.replacingOccurrences(of: "status: complete", with: "status: finishing").write(toFile: run + "/run.txt", atomically: true, encoding: .utf8)
        try assertRefused(["run", "c.yaml", "--resume", "--out", "r"], "'r/plots': is a symbolic link")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing written through the link")

        try FileManager.default.createDirectory(atPath: testbed.directory.path + "/h", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: testbed.directory.path + "/h/repro", withDestinationPath: "../outside")
        try assertRefused(["hunt", "--random", "3", "--rows", "20", "--case", "1", "--out", "h"], "'h/repro': is a symbolic link")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing written through the link")

        try FileManager.default.removeItem(atPath: run + "/run.lock")
        XCTAssertEqual(mkfifo(run + "/run.lock", 0o644), 0)
        let started = Date()
        try assertRefused(["report", "r"], "run.lock': is not a regular file")
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "report waited on the pipe")
    }

    /// `run.txt` and `inputs.txt` with CRLF line ends read as one line ("not a run state
    /// file", "does not list query …"); every other file the testbed reads takes CRLF.
    func testRunFilesWithCRLFLineEndsReadAsWritten() throws {
        try testbed.write("c.yaml", config)
        XCTAssertEqual(try testbed.run("run", "c.yaml", "--out", "r").status, 0)
        for name in ["run.txt", "inputs.txt"] {
            let path = testbed.directory.path + "/r/" + name
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let resumed = try testbed.run("run", "c.yaml", "--resume", "--out", "r")
        XCTAssertEqual(resumed.status, 0, resumed.err)
        XCTAssertTrue(resumed.err.contains("is already complete (2/2 cells"), resumed.err)
    }

    /// Numbers spelt in hexadecimal (`0x1p1`) were taken by some readers while config
    /// integers and repro tables refuse them; `.` as a dataset directory was generated whole
    /// and then failed to move; `fanout-k` beside `fanout=zipf` was ignored.
    func testOtherSpellingsAndPlacesAreRefusedBeforeAnyWork() throws {
        try assertRefused(["hunt", "--random", "3", "--rows", "20", "--min-regret", "0x1p1", "--out", "h"],
                          "--min-regret: '0x1p1' is not valid; expected a decimal number")
        try assertRefused(["generate", "--shape", "documents", "--rows", "20", "--param", "reals=0x1p-2"], "reals")
        try assertRefused(["generate", "--shape", "documents", "--rows", "20", "--csv", "."], "--csv: '.' ends in '.'")
        try assertRefused(["generate", "--shape", "documents", "--rows", "20", "--param", "fanout=zipf", "--param", "fanout-k=5"],
                          "fanout-k", "no value with fanout=zipf")
        XCTAssertEqual(testbed.listing(), [], "nothing written")
    }

    /// SQLite's 2,000-column limit, met when `query --engine sqlite` first runs the statement,
    /// ended it with exit 1 ("the command failed"), where a config's baseline refuses it.
    /// `query --engine postgres` on NUL text was exit 1 too. A shard past the config's cells
    /// ran nothing and called the run complete.
    func testLimitsOfTheQueryAndTheShardAreTheInputs() throws {
        let names = (0..<2100).map { "a\($0)" }.joined(separator: ", ")
        let values = (0..<2100).map(String.init).joined(separator: ", ")
        try testbed.write("wide.rq", "# shape: documents\noutput relation [\(names)] { (\(values)) } join (documents select (id == 1) project [id])\n")
        try assertRefused(["query", "wide.rq", "--rows", "20", "--engine", "sqlite"], "--engine sqlite cannot run this query", "too many columns")
        // NUL in PostgreSQL text, met when the statement is bound: exit 1 before.
        try testbed.write("nul.rq", "# shape: documents\noutput documents select (name == \"a\\u{0}b\")\n")
        try assertRefused(["query", "nul.rq", "--rows", "20", "--engine", "postgres"], "engine postgres cannot run this", "NUL character")
        try testbed.write("c.yaml", config)
        try assertRefused(["run", "c.yaml", "--shard", "5/9", "--out", "s"], "--shard 5/9: the config has 2 cells, so shard 5 of 9 holds none")
        XCTAssertFalse(FileManager.default.fileExists(atPath: testbed.directory.path + "/s"))
    }

    /// A `--plist` database without the query's tables said only `unknown relation`; `plan
    /// --out` inside the database wrote its graphs among the database's files, which then
    /// refused to open.
    func testAPlistDatabaseOfAnotherShapeSaysWhatItHoldsAndIsNotWrittenInto() throws {
        XCTAssertEqual(try testbed.run("generate", "--shape", "pets", "--rows", "20", "--plist", "pets").status, 0)
        try assertRefused(["query", "selected-document-parent", "--plist", "pets"],
                          "unknown relation 'selected_documents'", "the database 'pets' holds 'added', 'pets', 'removed'")
        let before = testbed.listing()
        try assertRefused(["plan", "current-cats", "--plist", "pets", "--out", "pets/pets"], "is inside the --plist database 'pets'")
        XCTAssertEqual(testbed.listing(), before, "nothing written")
    }
}
