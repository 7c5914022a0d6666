import XCTest
@testable import Experiments

/// Every malformed config exits 2 with a message naming the key, and leaves no output.
final class MalformedConfigTests: XCTestCase {
    /// (what is wrong, config text, fragments the message must contain)
    let cases: [(String, String, [String])] = [
        ("rows of the wrong type",
         tinyConfig().replacingOccurrences(of: "rows: [40, 120]", with: "rows: lots"), ["dataset.rows", "expected"]),
        ("unknown top-level key",
         tinyConfig() + "\nrepetitons: 3\n", ["repetitons", "did you mean 'repetitions'", ":21:1"]),
        ("unknown key in dataset",
         tinyConfig().replacingOccurrences(of: "  seed: 7", with: "  sead: 7"), ["dataset.sead", "did you mean 'seed'"]),
        ("unknown key in a flag set",
         tinyConfig().replacingOccurrences(of: "disable: [subtree-copying]", with: "disabel: [subtree-copying]"),
         ["flagsets.no-copying.disabel", "did you mean 'disable'"]),
        ("unknown catalog query",
         tinyConfig().replacingOccurrences(of: "  - selected-document-parent", with: "  - selected-document-parnet"),
         ["queries[0]", "did you mean 'selected-document-parent'"]),
        ("unknown heuristic to disable",
         tinyConfig().replacingOccurrences(of: "disable: [subtree-copying]", with: "disable: [subtree-copyin]"),
         ["flagsets.no-copying.disable[0]", "unknown heuristic 'subtree-copyin'", "did you mean 'subtree-copying'"]),
        ("unknown heuristic to set",
         tinyConfig().replacingOccurrences(of: "all-on: {preset: all-on}", with: "all-on: {preset: all-on, set: {join-filter-treshold: 10}}"),
         ["flagsets.all-on.set.join-filter-treshold", "did you mean 'join-filter-threshold'"]),
        ("bad heuristic value",
         tinyConfig().replacingOccurrences(of: "all-on: {preset: all-on}", with: "all-on: {preset: all-on, set: {join-filter-threshold: -1}}"),
         ["flagsets.all-on.set.join-filter-threshold", "expected integer >= 0"]),
        ("unknown preset",
         tinyConfig().replacingOccurrences(of: "all-on: {preset: all-on}", with: "all-on: {preset: all-onn}"),
         ["flagsets.all-on.preset", "unknown preset 'all-onn'"]),
        ("empty flag-set name",
         tinyConfig().replacingOccurrences(of: "all-on: {preset: all-on}", with: "\"\": {preset: all-on}"),
         ["flagsets", "an entry has an empty name"]),
        ("seed past 2^64",
         tinyConfig().replacingOccurrences(of: "  seed: 7", with: "  seed: 18446744073709551616"),
         ["dataset.seed", "expected an integer from 0 to 18446744073709551615"]),
        ("negative size",
         tinyConfig().replacingOccurrences(of: "rows: [40, 120]", with: "rows: [40, -5]"), ["dataset.rows[1]", "expected an integer >= 1"]),
        ("size over the generators' cap",
         tinyConfig().replacingOccurrences(of: "rows: [40, 120]", with: "rows: [40, 200000000]"),
         ["dataset.rows[1]", "rows", "100000000"]),
        ("empty matrix",
         tinyConfig(baselines: "[]").replacingOccurrences(of: """
              all-on: {preset: all-on}
              no-copying: {preset: all-on, disable: [subtree-copying]}
            """, with: "").replacingOccurrences(of: "flagsets:", with: "flagsets: {}")
            .replacingOccurrences(of: "baseline: no-copying\n", with: ""),
         ["flagsets", "the matrix is empty"]),
        ("no queries",
         tinyConfig().replacingOccurrences(of: """
            queries:
              - selected-document-parent
              - name: selected-inline
                text: |
                  output selected_documents join documents
            """, with: "queries: []"), ["queries", "at least one query"]),
        ("bad YAML",
         "name: tiny\ndataset: {shape: documents, rows: [40\nqueries: [x]\n", ["not valid YAML", ":3:"]),
        ("repetitions of the wrong type",
         tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: many"), ["repetitions", "expected an integer"]),
        ("zero repetitions",
         tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 0"), ["repetitions", "expected an integer in 1...100000, got 0"]),
        ("repetitions 2^63-1 with warmup (overflowed before)",
         tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 9223372036854775807")
            .replacingOccurrences(of: "warmup: 0", with: "warmup: 1"), ["repetitions", "in 1...100000", ":19:"]),
        ("absurd repetitions 10^12",
         tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 1000000000000"), ["repetitions", "in 1...100000"]),
        ("negative repetitions",
         tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: -3"), ["repetitions", "got -3"]),
        ("warmup over its limit",
         tinyConfig().replacingOccurrences(of: "warmup: 0", with: "warmup: 10001"), ["warmup", "in 0...10000", ":20:"]),
        ("negative warmup",
         tinyConfig().replacingOccurrences(of: "warmup: 0", with: "warmup: -1"), ["warmup", "got -1"]),
        ("warmup 2^63-1",
         tinyConfig().replacingOccurrences(of: "warmup: 0", with: "warmup: 9223372036854775807"), ["warmup", "in 0...10000"]),
        ("matrix over the total-runs limit",
         tinyConfig().replacingOccurrences(of: "repetitions: 2", with: "repetitions: 100000")
            .replacingOccurrences(of: "rows: [40, 120]", with: "rows: [\((1...100).map { String($0 * 10) }.joined(separator: ", "))]")
            .replacingOccurrences(of: "warmup: 0", with: "warmup: 10000"), ["repetitions", "600 cells", "more than the limit of 10000000 runs"]),
        ("empty backend list",
         tinyConfig().replacingOccurrences(of: "backend: memory", with: "backend: []"), ["backend", "at least one backend", ":8:"]),
        ("unknown shape",
         tinyConfig().replacingOccurrences(of: "shape: documents", with: "shape: documnets"), ["dataset.shape", "did you mean 'documents'"]),
        ("unknown shape parameter",
         tinyConfig().replacingOccurrences(of: "{roots: 0.1}", with: "{rots: 0.1}"), ["dataset.params.rots", "did you mean 'roots'"]),
        ("unknown backend",
         tinyConfig().replacingOccurrences(of: "backend: memory", with: "backend: postgres"), ["backend", "unknown backend 'postgres'"]),
        ("unknown baseline engine",
         tinyConfig(baselines: "[sqlite-analysed]"), ["baselines[0]", "did you mean 'sqlite-analyzed'"]),
        ("unknown speedup baseline",
         tinyConfig().replacingOccurrences(of: "baseline: no-copying", with: "baseline: no-copyng"), ["baseline", "did you mean 'no-copying'"]),
        ("query for another shape",
         tinyConfig().replacingOccurrences(of: "  - selected-document-parent", with: "  - current-cats"), ["queries[0]", "needs shape pets"]),
        ("inline query whose shape line names another shape",
         tinyConfig().replacingOccurrences(of: "output selected_documents join documents",
                                           with: "# shape: pets\n      output selected_documents join documents"),
         ["queries[1].text", "query 'selected-inline' needs shape pets"]),
        ("inline query whose shape line names no shape",
         tinyConfig().replacingOccurrences(of: "output selected_documents join documents",
                                           with: "# shape: petz\n      output selected_documents join documents"),
         ["queries[1].text", "unknown shape 'petz'"]),
        ("inline query that does not parse",
         tinyConfig().replacingOccurrences(of: "output selected_documents join documents", with: "output selected_documents jion documents"),
         ["queries[1]"]),
        ("heuristic both enabled and disabled",
         tinyConfig().replacingOccurrences(
            of: "disable: [subtree-copying]", with: "enable: [select-pushdown, subtree-copying], disable: [subtree-copying]"),
         ["flagsets.no-copying.disable[0]", "'subtree-copying' is in both enable (enable[1]) and disable"]),
        ("missing name", tinyConfig().replacingOccurrences(of: "name: tiny\n", with: ""), ["missing required key 'name'"]),
        ("name escaping Results", tinyConfig(name: "../escape"), ["name", "'..'"]),
        ("absolute name", tinyConfig(name: "/tmp/escape"), ["name", "absolute path"]),
    ]

    func testEveryMalformedConfigExitsTwoNamingTheKeyAndLeavesNothing() throws {
        XCTAssertGreaterThanOrEqual(cases.count, 10)
        for (what, text, fragments) in cases {
            let scratch = try Scratch()
            let console = CapturedConsole()
            let code = try runConfig(text, in: scratch, console: console)
            XCTAssertEqual(code, 2, "\(what): exit code; stderr: \(console.err)")
            for fragment in fragments {
                XCTAssertTrue(console.err.contains(fragment), "\(what): '\(fragment)' not in: \(console.err)")
            }
            XCTAssertTrue(console.err.contains("config-"), "\(what): the message names the file: \(console.err)")
            XCTAssertEqual(scratch.resultsEntries(), [], "\(what): an output directory was left behind")
            XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/escape"), "\(what)")
        }
    }

    /// The message of a config that fails, as printed.
    private func failure(_ text: String) throws -> (config: String, err: String) {
        let scratch = try Scratch()
        let config = try scratch.write(text, to: "cfg.yaml")
        let console = CapturedConsole()
        var invocation = RunInvocation(configPath: config)
        invocation.resultsRoot = scratch.resultsRoot
        invocation.plots = false
        XCTAssertEqual(invocation.execute(console: console.console), 2, console.err)
        XCTAssertEqual(scratch.resultsEntries(), [])
        return (config, console.err)
    }

    func testAnInlineQueryErrorIsReportedOnceAtItsPlaceInTheYAMLFile() throws {
        // Line 13 is the block scalar's first content line, indented 6; 'jion' is at column 27 of the query.
        let (config, err) = try failure(tinyConfig().replacingOccurrences(
            of: "output selected_documents join documents", with: "output selected_documents jion documents"))
        XCTAssertEqual(err, "testbed: \(config):13:33: queries[1].text: expected 'let' or 'output', found name 'jion'\n")
    }

    func testAnInlineQueryErrorOnALaterLineOfTheQuery() throws {
        let text = tinyConfig().replacingOccurrences(of: """
                text: |
                  output selected_documents join documents
            """, with: """
                text: |

                  let s = selected_documents join documents
                    output s jion documents
            """)
        let (config, err) = try failure(text)
        // The query's line 3 (after a blank line) is the YAML file's line 15; 'jion' is at column 12 of it, indented 6.
        XCTAssertEqual(err, "testbed: \(config):15:18: queries[1].text: expected 'let' or 'output', found name 'jion'\n")
    }

    func testAnInlineQueryOnOneLineIsLocatedOnThatLine() throws {
        let text = tinyConfig().replacingOccurrences(of: """
                text: |
                  output selected_documents join documents
            """, with: """
                text: "output selected_documents jion documents"
            """)
        let (config, err) = try failure(text)
        XCTAssertEqual(err, "testbed: \(config):12:38: queries[1].text: expected 'let' or 'output', found name 'jion'\n")
    }

    func testAHeuristicBothEnabledAndDisabledIsAConfigError() throws {
        let (config, err) = try failure(tinyConfig().replacingOccurrences(
            of: "disable: [subtree-copying]", with: "enable: [subtree-copying], disable: [select-pushdown, subtree-copying]"))
        XCTAssertEqual(err, "testbed: \(config):16:86: flagsets.no-copying.disable[1]: 'subtree-copying' is in both enable (enable[0]) "
            + "and disable; name each heuristic in one of them\n")
    }

    func testTheSameConfigWithoutMistakesRuns() throws {
        let scratch = try Scratch()
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, console: console), 0, console.err)
    }

    func testABadShardIsUsageError() throws {
        let scratch = try Scratch()
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, shard: "3/2", console: console), 2)
        XCTAssertTrue(console.err.contains("--shard '3/2'"), console.err)
        XCTAssertEqual(scratch.resultsEntries(), [])
    }

    func testShippedConfigsAreValid() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Workloads").path
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }
        XCTAssertFalse(files.isEmpty)
        for file in files {
            XCTAssertNoThrow(try ExperimentResolver.load(path: directory + "/" + file), file)
        }
    }
}
