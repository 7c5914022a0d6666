import Foundation
import XCTest

/// Bad input through the built `testbed`: each case exits 2 with a message starting
/// `testbed: ` that names where the problem is, prints nothing on standard output, and
/// leaves the working directory as it was. Good input that used to fail (CRLF, BOM) runs.
final class CommandLineInputTests: XCTestCase {
    private var testbed: TestbedProcess!

    override func setUpWithError() throws {
        testbed = try TestbedProcess(label: "cli-input")
    }

    override func tearDown() {
        testbed?.remove()
    }

    /// Runs `arguments` and asserts the contract for bad input: exit 2, `testbed: ` and every
    /// fragment on stderr, no `Error:`, nothing on stdout, nothing created or changed.
    private func assertRefused(
        _ arguments: [String], _ fragments: String..., file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = testbed.listing()
        let outcome = try testbed.run(arguments)
        let label = arguments.joined(separator: " ")
        XCTAssertEqual(outcome.status, 2, "\(label): \(outcome.err)", file: file, line: line)
        XCTAssertTrue(outcome.err.hasPrefix("testbed: "), "\(label): \(outcome.err)", file: file, line: line)
        XCTAssertFalse(outcome.err.contains("Error:"), "\(label): \(outcome.err)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(outcome.err.contains(fragment), "\(label): '\(fragment)' not in: \(outcome.err)", file: file, line: line)
        }
        XCTAssertEqual(outcome.out, "", "\(label): nothing runs", file: file, line: line)
        XCTAssertEqual(testbed.listing(), before, "\(label): nothing created or changed", file: file, line: line)
    }

    // MARK: Line ends and byte order marks

    func testCRLFAndBOMQueryFilesRun() throws {
        let body = "# The selected document.\n# shape: documents\noutput selected_documents join documents\n"
        try testbed.write("crlf.rq", body.replacingOccurrences(of: "\n", with: "\r\n"))
        try testbed.write("bom.rq", bytes: Data([0xEF, 0xBB, 0xBF]) + Data(body.utf8))
        try testbed.write("both.rq", bytes: Data([0xEF, 0xBB, 0xBF]) + Data(body.replacingOccurrences(of: "\n", with: "\r\n").utf8))
        for name in ["crlf.rq", "bom.rq", "both.rq"] {
            let outcome = try testbed.run("query", name, "--rows", "20", "--verify")
            XCTAssertEqual(outcome.status, 0, "\(name): \(outcome.err)")
            XCTAssertTrue(outcome.out.contains("query \(name.dropLast(3)) on documents"), outcome.out)
            XCTAssertTrue(outcome.out.contains("verified"), outcome.out)
        }
        // The catalog commands read the same files the same way.
        let listed = try testbed.run("queries", "--directory", ".")
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertEqual(listed.out.split(separator: "\n").count, 3, listed.out)
        XCTAssertFalse(listed.out.contains("\r"), "descriptions lose the CR")
        let verified = try testbed.run("verify", "--directory", ".", "--sizes", "5", "--seeds", "1", "--no-reduce")
        XCTAssertEqual(verified.status, 0, verified.err)
        XCTAssertTrue(verified.out.contains("verify: 9 cases"), "3 queries × (default + 2 trigger datasets): \(verified.out)")
    }

    func testAnErrorInACRLFFileIsLocatedAsInAnLFFile() throws {
        try testbed.write("bad.rq", "# x\r\n# shape: documents\r\noutput documents select (idd == 1)\r\n")
        try assertRefused(["query", "bad.rq"], "bad.rq:3:26: select: unknown attribute 'idd'; did you mean 'id'?")
    }

    // MARK: Shapes and catalogs

    func testAnUnknownShapeLineIsLocated() throws {
        try testbed.write("widgets.rq", "# Widgets.\n# shape: widgets\noutput documents\n")
        let message = "widgets.rq:2:10: unknown shape 'widgets' in the `# shape:` line"
        try assertRefused(["query", "widgets.rq"], message)
        try assertRefused(["plan", "widgets.rq", "--out", "plans"], message)
        try assertRefused(["queries", "--directory", "."], message)
        try assertRefused(["verify", "--directory", "."], message)
    }

    func testVerifyOverASyntaxErrorIsRefusedBeforeAnythingRuns() throws {
        try testbed.write("good.rq", "# Good.\n# shape: pets\noutput pets\n")
        try testbed.write("bad.rq", "# Bad.\n# shape: pets\nlet a = pets\noutput a select (id == )\n")
        try assertRefused(["verify", "--directory", ".", "--sizes", "3", "--seeds", "1"],
                          "bad.rq:4:24: expected an attribute name or a literal value, found ')'")
    }

    func testVerifyRefusesAQueryWithoutAShape() throws {
        try testbed.write("shapeless.rq", "# No shape.\noutput pets\n")
        try assertRefused(["verify", "--directory", "."], "shapeless.rq:1:1: no `# shape:` line")
    }

    func testMissingOrEmptyCatalogsAreErrors() throws {
        try assertRefused(["verify", "--directory", "/nonexistent-catalog"], "query catalog directory '/nonexistent-catalog' does not exist")
        try assertRefused(["queries", "--directory", "/nonexistent-catalog"], "query catalog directory '/nonexistent-catalog' does not exist")
        try testbed.write("empty/readme.txt", "not a query\n")
        try assertRefused(["verify", "--directory", "empty"], "query catalog directory 'empty' holds no .rq files")
        try assertRefused(["queries", "--directory", "empty"], "query catalog directory 'empty' holds no .rq files")
        try assertRefused(["queries", "--directory", "empty/readme.txt"], "'empty/readme.txt' is not a readable directory")
        try assertRefused(["queries"], "holds no .rq files", environment: ["TESTBED_QUERIES": "empty"])
    }

    private func assertRefused(_ arguments: [String], _ fragment: String, environment: [String: String],
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try testbed.run(arguments, environment: environment)
        XCTAssertEqual(outcome.status, 2, outcome.err, file: file, line: line)
        XCTAssertTrue(outcome.err.hasPrefix("testbed: ") && outcome.err.contains(fragment), outcome.err, file: file, line: line)
    }

    // MARK: Verify's options

    func testVerifyRefusesSizesAboveTheGeneratorsLimitBeforeRunning() throws {
        try assertRefused(["verify", "--sizes", "20,100000001", "--directory", TestbedProcess.catalog],
                          "--sizes: '100000001' is not a dataset size; expected integers from 1 to 100000000")
    }

    func testRandomZeroIsRefused() throws {
        try assertRefused(["verify", "--random", "0"], "--random: '0' is not valid; expected an integer >= 1")
    }

    func testOptionsOfAnotherModeAreRefusedNotIgnored() throws {
        try assertRefused(["verify", "--random", "2", "--directory", TestbedProcess.catalog],
                          "--directory names the catalog to verify; it cannot be combined with --random")
        try assertRefused(["verify", "--repro", "r", "--random", "2"], "--repro replays one directory; it cannot be combined with --random")
        try assertRefused(["verify", "--repro", "r", "--directory", "d"], "--repro replays one directory; it cannot be combined with --directory")
    }

    func testEmptyOutputPathsAreRefused() throws {
        try assertRefused(["verify", "--random", "1", "--repro-directory", ""], "--repro-directory: '' is empty")
        try assertRefused(["verify", "--random", "1", "--repro-directory", "/"], "--repro-directory: '/' is the file-system root")
        try assertRefused(["plan", "current-cats", "--out", ""], "--out: '' is empty; give a directory path")
        try assertRefused(["plan", "current-cats", "--out", "  "], "--out: '  ' is blank")
        try testbed.write("taken", "a file\n")
        try assertRefused(["plan", "current-cats", "--out", "taken"], "--out: 'taken' is an existing file, not a directory")
    }

    // MARK: Repro directories

    func testABadReproManifestIsRefusedNamingItsLine() throws {
        try testbed.write("repro/manifest.txt", "backend: memory\nkind: widgets\n")
        try testbed.write("repro/query.rq", "output relation [a] { (1) }\n")
        try assertRefused(["verify", "--repro", "repro"], "repro/manifest.txt:2: unknown kind 'widgets'")
        try testbed.write("repro/manifest.txt", "table: ../outside indexed [] rows 1\n")
        try testbed.write("outside.csv", "a\n1\n")
        try assertRefused(["verify", "--repro", "repro"], "repro/manifest.txt:1: table name '../outside' contains '/'")
        try assertRefused(["verify", "--repro", "no-such-repro"], "no-such-repro/manifest.txt")
    }

    func testACRLFReproReplays() throws {
        try testbed.write("repro/manifest.txt", "backend: memory\r\nkind: reference\r\ntable: t indexed [a] rows 2\r\n")
        try testbed.write("repro/t.csv", "a\r\n1\r\n2\r\n")
        try testbed.write("repro/query.rq", "\u{FEFF}output t select (a == 2)\r\n")
        let outcome = try testbed.run("verify", "--repro", "repro")
        XCTAssertEqual(outcome.status, 0, outcome.err)
        XCTAssertTrue(outcome.out.contains("verify: repro repro: 0 mismatches"), outcome.out)
    }

    // MARK: Flags

    func testContradictoryOrRepeatedFlagsAreRefused() throws {
        try assertRefused(["query", "current-cats", "--enable", "subtree-copying", "--disable", "subtree-copying"],
                          "heuristic 'subtree-copying' is both enabled and disabled")
        try assertRefused(["plan", "current-cats", "--out", "plans", "--set", "join-filter-threshold=1",
                           "--set", "join-filter-threshold=2"],
                          "heuristic 'join-filter-threshold' is set twice ('1', then '2'); set it once")
        // Naming one heuristic twice on the same side is not a contradiction.
        let twice = try testbed.run("query", "current-cats", "--rows", "10", "--enable", "select-pushdown", "--enable", "select-pushdown")
        XCTAssertEqual(twice.status, 0, twice.err)
    }

    // MARK: Usage errors, help and version

    func testUsageErrorsSpeakAsTestbedAndExit2() throws {
        try assertRefused(["query", "current-cats", "--bogus"], "Unknown option '--bogus'")
        try assertRefused(["query"], "Missing expected argument '<query>'")
        try assertRefused(["frobnicate"], "Unexpected argument 'frobnicate'")
        try assertRefused(["query", "current-cats", "--rows", "ten"], "The value 'ten' is invalid for '--rows <rows>'")
    }

    func testHelpAndVersionStillExit0() throws {
        for arguments in [["--help"], ["query", "--help"], ["help", "verify"], ["--version"]] {
            let outcome = try testbed.run(arguments)
            XCTAssertEqual(outcome.status, 0, "\(arguments): \(outcome.err)")
            XCTAssertFalse(outcome.out.isEmpty, "\(arguments)")
            XCTAssertEqual(outcome.err, "", "\(arguments)")
        }
    }

    // MARK: Query-language limits and literals

    func testTooManyConstantsIsALocatedUsageError() throws {
        let values = (0...10_000).map { "(\($0))" }.joined(separator: ",")
        try testbed.write("big.rq", "# Big.\n# shape: pets\noutput relation [id] { \(values) } join pets\n")
        // The 10,001st value is the one refused: after the prefix, 10,000 `(i),` and its `(`.
        let column = "output relation [id] { ".count + (0..<10_000).map { "(\($0)),".count }.reduce(0, +) + 2
        try assertRefused(["query", "big.rq"], "big.rq:3:\(column): more than 10000 constants in one query")
    }

    func testTrueAndFalseAreLiteralValues() throws {
        try testbed.write("flags.rq", "# Flags.\n# shape: pets\noutput (relation [id, on] { (1, true), (2, false) } join pets) select (on == true)\n")
        let outcome = try testbed.run("query", "flags.rq", "--rows", "10", "--verify")
        XCTAssertEqual(outcome.status, 0, outcome.err)
        XCTAssertTrue(outcome.out.contains("(1 row)"), outcome.out)
    }

    // MARK: Messages

    func testControlCharactersInInputAreEscapedInMessages() throws {
        try testbed.write("ctl.rq", "# Ctl.\n# shape: pets\noutput pets select (\u{1B}[31m == 1)\n")
        try assertRefused(["query", "ctl.rq"], "ctl.rq:3:21: unexpected character '\\u{1b}'")
        let outcome = try testbed.run("query", "current-cats", "--enable", "x\u{1B}[2J")
        XCTAssertEqual(outcome.status, 2)
        XCTAssertFalse(outcome.err.contains("\u{1B}"), outcome.err)
        XCTAssertTrue(outcome.err.contains("unknown heuristic 'x\\u{1b}[2J'"), outcome.err)
    }
}
