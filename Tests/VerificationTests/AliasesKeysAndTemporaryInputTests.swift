import Foundation
import XCTest

/// Bad input of the thirty-seventh session's probe, through the built `testbed`: a config
/// whose aliases expand into a huge tree, and mapping keys that are not names.
final class AliasesKeysAndTemporaryInputTests: XCTestCase {
    private var testbed: TestbedProcess!

    override func setUpWithError() throws {
        testbed = try TestbedProcess(label: "alias-key-tmp")
    }

    override func tearDown() {
        testbed?.remove()
    }

    private var path: String { testbed.directory.path }

    private let base = """
        name: tiny
        backend: memory
        dataset: {shape: documents, rows: [20], seed: 1}
        queries: [selected-document-parent]
        repetitions: 1
        warmup: 0
        plans: false

        """

    /// Ten levels of lists naming the level below ten times: 700 bytes that expand to ten
    /// billion nodes. Every walk of the tree walked the expansion, and `run` was still
    /// checking it after minutes; it is refused at once, and nothing is written.
    func testAConfigWhoseAliasesExpandBeyondTheLimitIsRefusedAtOnce() throws {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1..<10 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        _ = try testbed.write("c.yaml", lines.joined(separator: "\n") + "\n" + base + "flagsets: {a: {preset: all-on}}\n")
        let start = Date()
        let outcome = try testbed.run("run", "c.yaml", "--out", "o")
        XCTAssertEqual(outcome.status, 2, outcome.err)
        XCTAssertTrue(outcome.err.contains("expands to more than 100000 YAML nodes"), outcome.err)
        XCTAssertLessThan(Date().timeIntervalSince(start), 60, "refused without walking the expansion")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/o"))
        // A few aliases, as configs use them, are read as before.
        _ = try testbed.write("ok.yaml", base + "flagsets: {a: &on {preset: all-on}, b: *on}\n")
        let ok = try testbed.run("run", "ok.yaml", "--out", "ok")
        XCTAssertEqual(ok.status, 0, ok.err)
    }

    /// `? [x]: …` keys were dropped without a word: a flag set written so vanished from the
    /// run (which then ran the others), and one at the top level was not even called unknown.
    func testAKeyThatIsNotANameIsRefusedWhereItIs() throws {
        let cases: [(String, [String])] = [
            (base + "flagsets:\n  all-on: {preset: all-on}\n  ? [x]\n  : {preset: all-off}\n", ["flagsets", "a key must be a plain name, found a list"]),
            ("? [a, b]\n: c\n" + base + "flagsets: {a: {preset: all-on}}\n", ["a key must be a plain name, found a list"]),
            (base + "flagsets: {a: {preset: all-on, set: {? {x: 1} : 1}}}\n", ["flagsets.a.set", "found a mapping"]),
        ]
        for (n, (text, fragments)) in cases.enumerated() {
            _ = try testbed.write("k\(n).yaml", text)
            let outcome = try testbed.run("run", "k\(n).yaml", "--out", "o\(n)")
            XCTAssertEqual(outcome.status, 2, "\(text): \(outcome.err)")
            for fragment in fragments { XCTAssertTrue(outcome.err.contains(fragment), "\(fragment) not in \(outcome.err)") }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/o\(n)"))
        }
    }

    /// A `TMPDIR` that cannot hold a temporary was found only where the first temporary was
    /// made: `run` on a property-list backend ended with exit 1 and a failed run, and
    /// `verify` reported every case as an engine error and wrote repros of them. It is
    /// refused before any work; help still prints.
    func testATemporaryRootThatCannotHoldATemporaryIsRefusedFirst() throws {
        _ = try testbed.write("c.yaml", base.replacingOccurrences(of: "backend: memory", with: "backend: plist-file")
            + "flagsets: {a: {preset: all-on}}\n")
        _ = try testbed.write("file", "x\n")
        for bad in [path + "/missing/x", path + "/file"] {
            let run = try testbed.run(["run", "c.yaml", "--out", "o"], environment: ["TMPDIR": bad])
            XCTAssertEqual(run.status, 2, run.err)
            XCTAssertTrue(run.err.contains("TMPDIR is '\(bad)'"), run.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/o"))
            let verify = try testbed.run(["verify", "--random", "1", "--backend", "plist-file", "--repro-directory", "r"],
                                         environment: ["TMPDIR": bad])
            XCTAssertEqual(verify.status, 2, verify.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + "/r"))
        }
        let help = try testbed.run(["run", "--help"], environment: ["TMPDIR": path + "/missing"])
        XCTAssertEqual(help.status, 0, help.err)
        XCTAssertTrue(help.out.contains("OVERVIEW"), help.out)
        let fine = try testbed.run(["run", "c.yaml", "--out", "o"], environment: ["TMPDIR": path])
        XCTAssertEqual(fine.status, 0, fine.err)
    }
}
