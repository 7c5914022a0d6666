import Foundation
import XCTest

/// Bad input of the thirty-sixth session's probe, through the built `testbed`: a repro path
/// that is a link (replacing it emptied the directory it named), YAML merge keys that got
/// past the integer checks, a merge that left half a result behind, and repro manifest
/// lines a replay read and then ignored.
final class LinksMergesAndReproLinesInputTests: XCTestCase {
    private var testbed: TestbedProcess!

    override func setUpWithError() throws {
        testbed = try TestbedProcess(label: "link-merge-key")
    }

    override func tearDown() {
        testbed?.remove()
    }

    private var path: String { testbed.directory.path }

    private func config(_ lines: String) -> String {
        """
        name: tiny
        backend: memory
        queries: [selected-document-parent]
        warmup: 0
        plans: false
        \(lines)

        """
    }

    func testAReproPathThatIsALinkIsRefusedAndWhatItNamesIsKept() throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: path + "/out/repro", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: path + "/outside", withIntermediateDirectories: true)
        _ = try testbed.write("outside/precious.txt", "keep\n")
        try fm.createSymbolicLink(atPath: path + "/out/repro/hunt-s1-case1", withDestinationPath: path + "/outside")
        let outcome = try testbed.run("hunt", "--random", "3", "--rows", "20", "--case", "1", "--out", "out")
        XCTAssertEqual(outcome.status, 2, outcome.err)
        XCTAssertTrue(outcome.err.contains("out/repro/hunt-s1-case1': is a symbolic link"), outcome.err)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: path + "/outside"), ["precious.txt"])
    }

    func testMergeKeysAreCheckedAsTheDecoderReadsThem() throws {
        let refused: [(String, [String])] = [
            ("dataset: {<<: {rows: [010]}, shape: documents, seed: 7}\nflagsets: {a: {preset: all-on}}\nrepetitions: 1",
             ["dataset.rows[0]", "decimal digits", "'010'"]),
            ("dataset: {<<: [{rows: [20]}, {seed: 0x10}], shape: documents}\nflagsets: {a: {preset: all-on}}\nrepetitions: 1",
             ["dataset.seed", "'0x10'"]),
            ("dataset: {shape: documents, rows: [20], seed: 1}\nflagsets: {a: {preset: all-on}}\n<<: {repetitions: 1_0}",
             ["repetitions", "'1_0'"]),
            ("dataset: {<<: 7, shape: documents, rows: [20], seed: 1}\nflagsets: {a: {preset: all-on}}\nrepetitions: 1",
             ["dataset.<<", "takes a mapping or a list of mappings", "found '7'"]),
            ("dataset: {shape: documents, rows: [20], seed: 1}\nflagsets: {a: {<<: null, preset: all-on}}\nrepetitions: 1",
             ["flagsets.a.<<", "found null"]),
        ]
        for (n, (lines, fragments)) in refused.enumerated() {
            _ = try testbed.write("c\(n).yaml", config(lines))
            let outcome = try testbed.run("run", "c\(n).yaml", "--out", "o\(n)")
            XCTAssertEqual(outcome.status, 2, "\(lines): \(outcome.err)")
            for fragment in fragments { XCTAssertTrue(outcome.err.contains(fragment), "\(fragment) not in \(outcome.err)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/o\(n)"))
        }
        // A merge of an alias is read as written: flag set b is all-on without subtree copying.
        _ = try testbed.write("ok.yaml", config("""
            dataset: {shape: documents, rows: [20], seed: 1}
            flagsets: {a: &on {preset: all-on}, b: {<<: *on, disable: [subtree-copying]}}
            repetitions: 1
            """))
        let outcome = try testbed.run("run", "ok.yaml", "--out", "ok")
        XCTAssertEqual(outcome.status, 0, outcome.err)
        let timings = try String(contentsOfFile: path + "/ok/timings.csv", encoding: .utf8)
        XCTAssertTrue(timings.contains("subtree-copying=off"), timings)
    }

    /// A link in a shard's `plans/` made the copy recurse and left the merge's `--out` half
    /// written; the shard is refused before anything is written.
    func testAMergeRefusingAShardLeavesNoOutput() throws {
        _ = try testbed.write("s.yaml", config("""
            dataset: {shape: documents, rows: [20], seed: 7}
            flagsets: {a: {preset: all-on}, b: {preset: all-off}}
            repetitions: 1
            plans: true
            """).replacingOccurrences(of: "plans: false\n", with: ""))
        for k in 1...2 {
            let outcome = try testbed.run("run", "s.yaml", "--shard", "\(k)/2", "--out", "s\(k)")
            XCTAssertEqual(outcome.status, 0, outcome.err)
        }
        try FileManager.default.createSymbolicLink(atPath: path + "/s1/plans/loop", withDestinationPath: ".")
        let outcome = try testbed.run("merge", "s1", "s2", "--out", "m")
        XCTAssertEqual(outcome.status, 2, outcome.err)
        XCTAssertTrue(outcome.err.contains("s1/plans/loop': is a symbolic link"), outcome.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/m"))
        try FileManager.default.removeItem(atPath: path + "/s1/plans/loop")
        XCTAssertEqual(try testbed.run("merge", "s1", "s2", "--out", "m").status, 0)
    }

    /// `hunt --repro` measures the grid on memory tables: a manifest asking for another
    /// backend, a verification `kind`, other flags than the flag set's, or a change script
    /// beside it was replayed as if it said nothing. A partition line over outputs of
    /// another shape skipped the partition oracle and reported "0 mismatches".
    func testReproLinesAReplayCannotHonourAreRefused() throws {
        XCTAssertEqual(try testbed.run("hunt", "--random", "3", "--rows", "20", "--case", "1", "--out", "h").status, 0)
        let written = "h/repro/hunt-s1-case1"
        let manifest = try String(contentsOfFile: path + "/" + written + "/manifest.txt", encoding: .utf8)
        let edits: [(String, String, [String])] = [
            ("backend: memory", "backend: sqlite", ["manifest.txt:2", "memory tables only"]),
            ("backend: memory", "backend: memory\nkind: reference", ["manifest.txt:3", "'kind' belongs to a verification repro"]),
            ("flags: initiator-ordering=smallest-estimate", "flags: initiator-ordering=declaration", ["manifest.txt:1", "are not flag set 'all-on''s"]),
        ]
        for (n, (from, to, fragments)) in edits.enumerated() {
            let copy = "r\(n)"
            try FileManager.default.copyItem(atPath: path + "/" + written, toPath: path + "/" + copy)
            _ = try testbed.write(copy + "/manifest.txt", manifest.replacingOccurrences(of: from, with: to))
            let outcome = try testbed.run("hunt", "--repro", copy)
            XCTAssertEqual(outcome.status, 2, "\(to): \(outcome.err)")
            for fragment in fragments { XCTAssertTrue(outcome.err.contains(fragment), "\(fragment) not in \(outcome.err)") }
        }
        try FileManager.default.copyItem(atPath: path + "/" + written, toPath: path + "/changes")
        _ = try testbed.write("changes/changes.changes", "begin\ncommit\n")
        let outcome = try testbed.run("hunt", "--repro", "changes")
        XCTAssertEqual(outcome.status, 2, outcome.err)
        XCTAssertTrue(outcome.err.contains("replay it with `testbed verify --repro changes`"), outcome.err)

        _ = try testbed.write("p/query.rq", "output t0\noutput t0 select (a == 1)\noutput t0 select (a == 1)\n")
        _ = try testbed.write("p/t0.csv", "a\n1\n2\n")
        _ = try testbed.write("p/manifest.txt", "flags: \nbackend: memory\nkind: partition\npartition: 0 1 2\ntable: t0 indexed [a] rows 2\n")
        let partition = try testbed.run("verify", "--repro", "p")
        XCTAssertEqual(partition.status, 2, partition.err)
        XCTAssertTrue(partition.err.contains("p/manifest.txt:4"), partition.err)
        XCTAssertTrue(partition.err.contains("partition oracle cannot check them"), partition.err)
    }

    /// One byte-order mark is dropped; a second hid the `# shape:` line unnamed.
    func testASecondByteOrderMarkIsNamed() throws {
        _ = try testbed.write("twice.rq", bytes: Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF]) + Data("# shape: documents\noutput documents\n".utf8))
        let outcome = try testbed.run("query", "twice.rq", "--rows", "10")
        XCTAssertEqual(outcome.status, 2, outcome.err)
        XCTAssertTrue(outcome.err.contains("second byte-order mark, U+FEFF"), outcome.err)
        _ = try testbed.write("once.rq", bytes: Data([0xEF, 0xBB, 0xBF]) + Data("# shape: documents\noutput documents select (id == 1)\n".utf8))
        XCTAssertEqual(try testbed.run("query", "once.rq", "--rows", "10").status, 0)
    }
}
