import FileSupport
import XCTest
import QueryEngine
@testable import Experiments

/// Every run writes `passes.csv`: per testbed cell and repetition, each optimizer pass and
/// each heuristic hook with its time; `disabled-passes` and `--disable-pass` skip passes by
/// name, and an unknown name is refused before anything is written.
final class PassesFileTests: XCTestCase {
    func testPassesCSVHasOneRowPerRepetitionAndPassOrHook() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, console: console), 0, console.err)
        let table = try CSVTable(parsing: try FileSystem.readText(out + "/passes.csv"), file: "passes.csv")
        XCTAssertEqual(table.header, PassRecord.header)
        let records = table.records
        // 2 sizes × 2 queries × 2 flag sets × 2 repetitions, each running union flattening's three
        // passes, difference-to-select's one and self-operand-folding's two.
        let passes = records.filter { $0["kind"] == "pass" }
        XCTAssertEqual(passes.count, 2 * 2 * 2 * 2 * 6)
        XCTAssertEqual(Set(passes.map { $0["name"] ?? "" }),
                       ["self-operand-folding", "select-folding", "single-operand-union-elimination", "nested-union-folding", "orphan-collection", "difference-to-select"])
        XCTAssertTrue(passes.allSatisfy { $0["calls"] == "1" && Double($0["us"] ?? "") != nil })
        let hooks = records.filter { $0["kind"] == "hook" }
        XCTAssertTrue(hooks.contains { $0["name"] == "subtree-copying.willProvideFilter" && $0["flagset"] == "all-on" })
        XCTAssertFalse(hooks.contains { $0["name"]?.hasPrefix("subtree-copying.") == true && $0["flagset"] == "no-copying" },
                       "a heuristic switched off has no hooks")
        XCTAssertFalse(hooks.contains { $0["name"] == "union-flattening.operandCompleted" }, "only hooks a heuristic implements")
        XCTAssertFalse(records.contains { $0["backend"] == "sqlite" || $0["flagset"] == "sqlite" }, "SQLite baselines have no passes")
        let canonical = try HeuristicCatalog.standard.preset("all-on").canonical
        XCTAssertTrue(records.contains { $0["flagset"] == "all-on" && $0["flags"] == canonical && $0["repetition"] == "2" })
    }

    func testDisabledPassesAreSkippedAndUnknownNamesRefused() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let config = tinyConfig() + "\ndisabled-passes: [nested-union-folding]\n"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(config, in: scratch, out: out, console: console), 0, console.err)
        let names = try CSVTable(parsing: try FileSystem.readText(out + "/passes.csv"), file: "passes.csv").records
            .filter { $0["kind"] == "pass" }.map { $0["name"] ?? "" }
        XCTAssertFalse(names.isEmpty)
        XCTAssertFalse(names.contains("nested-union-folding"))

        let bad = CapturedConsole()
        XCTAssertEqual(try runConfig(tinyConfig() + "\ndisabled-passes: [orphan-colection]\n", in: scratch,
                                     out: scratch.path + "/bad", console: bad), 2)
        XCTAssertTrue(bad.err.contains("disabled-passes[0]: unknown optimizer pass 'orphan-colection'; did you mean 'orphan-collection'?"), bad.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/bad"))

        let cli = CapturedConsole()
        let file = try scratch.write(tinyConfig(), to: "cli.yaml")
        var invocation = RunInvocation(configPath: file, out: scratch.path + "/cli")
        invocation.plots = false
        invocation.disabledPasses = ["nested-union-foldng"]
        XCTAssertEqual(invocation.execute(console: cli.console), 2)
        XCTAssertTrue(cli.err.contains("--disable-pass: unknown optimizer pass 'nested-union-foldng'; did you mean 'nested-union-folding'?"), cli.err)
        XCTAssertFalse(FileSystem.exists(scratch.path + "/cli"))
    }

    /// Every column but the time.
    private func passRows(_ path: String) throws -> [[String]] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let us = try XCTUnwrap(table.column("us"))
        return table.rows.map { row in row.enumerated().filter { $0.offset != us }.map(\.element) }
    }

    func testResumedAndMergedRunsHaveTheSamePassRowsAsAWholeRun() throws {
        let scratch = try Scratch()
        let whole = scratch.path + "/whole", partial = scratch.path + "/partial"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: whole), 0)
        let expected = try passRows(whole + "/passes.csv")
        XCTAssertFalse(expected.isEmpty)

        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: partial, hooks: RunHooks(shouldStop: { $0 >= 5 })), 130)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: partial, resume: true), 0)
        XCTAssertEqual(try passRows(partial + "/passes.csv"), expected)

        let one = scratch.path + "/one", two = scratch.path + "/two", merged = scratch.path + "/merged"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: one, shard: "1/2"), 0)
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: two, shard: "2/2"), 0)
        var merge = MergeInvocation(directories: [two, one], out: merged)
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 0, console.err)
        XCTAssertEqual(try passRows(merged + "/passes.csv"), expected)
    }

    /// A run stopped after 5 of its 12 cells, its passes.csv text and table.
    private func interruptedRun(in scratch: Scratch) throws -> (out: String, passes: String, table: CSVTable) {
        let out = scratch.path + "/partial"
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, hooks: RunHooks(shouldStop: { $0 >= 5 })), 130)
        let passes = try FileSystem.readText(out + "/passes.csv")
        return (out, passes, try CSVTable(parsing: passes, file: "p"))
    }

    /// A resume reads passes.csv back with timings.csv, before its first write: a malformed
    /// row, of a kept cell or of one that would run again, refuses it with the directory as it was.
    func testAMalformedPassesCSVRefusesAResumeBeforeItWritesAnything() throws {
        let scratch = try Scratch()
        let (out, good, table) = try interruptedRun(in: scratch)
        let us = try XCTUnwrap(table.column("us"))
        // The last row's cell is made one that runs again: its timings rows are dropped.
        let last = table.rows[table.rows.count - 1]
        let cell = Cell(query: last[1], rows: Int(last[2]) ?? 0, backend: last[3], engine: Cell.testbedEngine, flagset: last[4])
        let config = try ExperimentResolver.resolve(text: try FileSystem.readText(out + "/config.yaml"), file: "config.yaml")
        let kept = try readTimings(out + "/timings.csv").filter { $0.cell != cell }
        try FileSystem.writeText(TimingsFile.text(kept, order: config.cells), to: out + "/timings.csv")
        for (line, value) in [(2, "nan"), (table.rows.count + 1, "-1")] {
            var edited = table
            edited.rows[line - 2][us] = value
            try FileSystem.writeText(edited.text, to: out + "/passes.csv")
            let before = try snapshot(out)
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true, console: console), 2, console.err)
            XCTAssertTrue(console.err.contains("passes.csv:\(line): column us holds '\(value)'"), console.err)
            XCTAssertEqual(try snapshot(out), before, "line \(line): environment.txt, run.txt and the rest unchanged")
        }
        try FileSystem.writeText(good, to: out + "/passes.csv")
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true), 0)
    }

    /// Rows are held to the config, as timings.csv's are: another experiment, a repetition
    /// or cell the config does not run, and a row given twice were read (a cell at 99 rows
    /// was dropped by merge without a word).
    func testPassRowsTheConfigDoesNotRunAreRefused() throws {
        let scratch = try Scratch()
        let (out, good, table) = try interruptedRun(in: scratch)
        let columns = try ["experiment", "repetition", "rows"].map { try XCTUnwrap(table.column($0)) }
        let edits: [(String, ([String]) -> [[String]], String)] = [
            ("experiment", { row in var r = row; r[columns[0]] = "other"; return [r] }, "column experiment holds 'other'; the config's experiment is 'tiny'"),
            ("repetition", { row in var r = row; r[columns[1]] = "9"; return [r] }, "column repetition holds '9'"),
            ("rows", { row in var r = row; r[columns[2]] = "99"; return [r] }, "the config runs no such cell"),
            ("twice", { row in [row, row] }, "this row is already on line 2"),
        ]
        for (tag, edit, expected) in edits {
            var edited = table
            edited.rows = edit(table.rows[0]) + table.rows.dropFirst()
            try FileSystem.writeText(edited.text, to: out + "/passes.csv")
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true, console: console), 2, tag)
            XCTAssertTrue(console.err.contains(expected), "\(tag): \(console.err)")
        }
        try FileSystem.writeText(good, to: out + "/passes.csv")
        XCTAssertEqual(try runConfig(tinyConfig(), in: scratch, out: out, resume: true), 0)
    }
}
