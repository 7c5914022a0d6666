import FileSupport
import Relational
import XCTest
@testable import Experiments

/// Change experiments (`changes:` and `modes:`): one timings row per transaction per cell,
/// the per-transaction summary, state equality between the modes after every transaction
/// (a wrong propagation exits 1), and resume, shards and merge.
final class ChangeExperimentTests: XCTestCase {
    static func config(name: String = "tiny-changes", changes: String = "  session: mixed\n  transactions: 6\n  seed: 3",
                       modes: String = "[incremental, requery]", repetitions: Int = 1) -> String {
        """
        name: \(name)
        dataset:
          shape: documents
          rows: [40, 120]
          seed: 7
          params: {roots: 0.1}
        backend: memory
        queries:
          - selected-document-parent
          - name: named-parents
            text: |
              let parents = documents project [id, name] rename [id -> parent_id, name -> parent_name]
              output named = documents join parents
        flagsets:
          all-on: {preset: all-on}
          all-off: {preset: all-off}
        changes:
        \(changes)
        modes: \(modes)
        repetitions: \(repetitions)
        """
    }

    func testOneRowPerTransactionPerCellAndEqualStatesAcrossModes() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(Self.config(), in: scratch, out: out, console: console), 0, console.err)
        let records = try readTimings(out + "/timings.csv")
        // 2 sizes × 2 queries × 2 flag sets × 2 modes cells, 6 transactions each.
        XCTAssertEqual(records.count, 16 * 6)
        let header = try CSVTable(parsing: try FileSystem.readText(out + "/timings.csv"), file: "t").header
        for column in ["mode", "transaction", "changes_in", "rows_added", "rows_removed", "run_us", "source_rows_read"] {
            XCTAssertTrue(header.contains(column), column)
        }
        for (cell, rows) in Dictionary(grouping: records, by: \.cell) {
            XCTAssertEqual(rows.compactMap(\.change?.transaction).sorted(), Array(1...6), "\(cell)")
            XCTAssertTrue(rows.allSatisfy { $0.planMicroseconds == 0 && $0.runMicroseconds == $0.totalMicroseconds })
        }
        // After every transaction, every cell of a query and size holds the same state.
        for (group, rows) in Dictionary(grouping: records, by: \.equalityGroup) {
            XCTAssertEqual(Set(rows.map(\.resultHash)).count, 1, "\(group)")
            XCTAssertEqual(rows.count, 4, "\(group): 2 flag sets × 2 modes")
        }
        // The stream changes the outputs (some transactions add or remove rows), and
        // changes_in counts the statements' rows.
        XCTAssertTrue(records.contains { ($0.change?.rowsAdded ?? 0) + ($0.change?.rowsRemoved ?? 0) > 0 })
        XCTAssertTrue(records.allSatisfy { ($0.change?.changesIn ?? 0) >= 1 })
        // requery under all-off reads every document each transaction that reaches the query.
        let requery = records.filter { $0.change?.mode == "requery" && $0.flagset == "all-off" && $0.rows == 120 && $0.query == "named-parents" }
        XCTAssertTrue(requery.allSatisfy { ($0.counters[0] ?? 0) >= 120 }, "\(requery.map { $0.counters[0] ?? -1 })")

        let summary = try Summary.read(out + "/summary.csv", experiment: try ExperimentResolver.resolve(
            text: try FileSystem.readText(out + "/config.yaml"), file: "config.yaml"))
        XCTAssertEqual(summary.count, 16)
        for row in summary {
            let change = try XCTUnwrap(row.change)
            let cellRecords = records.filter { $0.cell == row.cell }
            XCTAssertEqual(change.transactions, 6)
            XCTAssertEqual(row.total.maximum, cellRecords.map(\.totalMicroseconds).max())
            XCTAssertLessThanOrEqual(row.total.median, change.totalP95)
            XCTAssertLessThanOrEqual(change.totalP95, row.total.maximum)
            XCTAssertEqual(change.rowsReadTotal, cellRecords.reduce(0) { $0 + ($1.counters[0] ?? 0) })
            XCTAssertEqual(change.rowsReadMax, cellRecords.map { $0.counters[0] ?? 0 }.max())
        }
        XCTAssertTrue(try FileSystem.readText(out + "/summary.txt").contains("all-on/incremental"))
    }

    func testAWrongPropagationIsAMismatchAfterItsTransaction() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        var hooks = RunHooks()
        hooks.changes = { cell, transaction, changes in
            guard cell.mode == "incremental", cell.flagset == "all-on", transaction == 4, !changes.isEmpty else { return }
            changes[0].added.insert(Row([.integer(-1), .text("planted"), .null]))
        }
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(Self.config(), in: scratch, out: out, hooks: hooks, console: console), 1)
        XCTAssertTrue(console.err.contains("after transaction 4"), console.err)
        let report = try FileSystem.readText(out + "/mismatches.txt")
        XCTAssertTrue(report.contains("all-on/incremental"), report)
        XCTAssertFalse(report.contains("after transaction 3"), "earlier transactions agree")
    }

    func testAScriptRunsItsFirstTransactions() throws {
        let scratch = try Scratch()
        let script = try scratch.write("""
            update selected_documents set [id = 3]
            begin
            update documents set [name = "Renamed"] where (id == 1)
            add documents [id, name, parent_id] { (500, "New", 3), (501, "Newer", 500) }
            commit
            delete documents where (id == 501)
            """, to: "s.changes")
        let out = scratch.path + "/run"
        let text = Self.config(changes: "  script: \(script)\n  transactions: 2", modes: "[incremental, incremental-single, requery, counted]")
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(text, in: scratch, out: out, console: console), 0, console.err)
        let records = try readTimings(out + "/timings.csv")
        XCTAssertEqual(records.count, 32 * 2)
        XCTAssertEqual(Set(records.compactMap { $0.change?.changesIn }), [1, 3])
    }

    /// A script the data refuses (document 1 exists, so adding another id 1 clashes) exits 2
    /// at the statement, and the new run leaves nothing: no half-written run directory.
    func testAScriptKeyClashExitsTwoAndLeavesNoRun() throws {
        let scratch = try Scratch()
        let script = try scratch.write("""
            update selected_documents set [id = 3]
            add documents [id, name, parent_id] { (1, "dup", null) }
            """, to: "clash.changes")
        let text = Self.config(changes: "  script: \(script)")
        let out = scratch.path + "/run"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(text, in: scratch, out: out, console: console), 2, console.err)
        XCTAssertTrue(console.err.contains("testbed: \(script):2:1: change to documents would give two rows the same key [id] (id = 1)"),
                      console.err)
        XCTAssertFalse(FileSystem.exists(out), "\(FileSystem.entries(of: out) ?? [])")
        // An empty --out given beforehand stays, empty.
        try FileSystem.makeDirectory(out)
        XCTAssertEqual(try runConfig(text, in: scratch, out: out, console: CapturedConsole()), 2)
        XCTAssertEqual(FileSystem.entries(of: out), [])
        // Without --out, neither the run nor the `Results/NAME/` made for it is left.
        XCTAssertEqual(try runConfig(text, in: scratch, console: CapturedConsole()), 2)
        XCTAssertEqual(FileSystem.entries(of: scratch.resultsRoot) ?? [], [])
    }

    func testResumeAndShardsGiveTheUnshardedCells() throws {
        let scratch = try Scratch()
        let text = Self.config(repetitions: 2)
        let whole = scratch.path + "/whole"
        XCTAssertEqual(try runConfig(text, in: scratch, out: whole), 0)

        let partial = scratch.path + "/partial"
        XCTAssertEqual(try runConfig(text, in: scratch, out: partial, hooks: RunHooks(shouldStop: { $0 >= 5 })), 130)
        XCTAssertEqual(try readTimings(partial + "/timings.csv").count, 5 * 2 * 6, "5 cells × 2 replays × 6 transactions")
        XCTAssertEqual(try runConfig(text, in: scratch, out: partial, resume: true), 0)
        XCTAssertEqual(try deterministicColumns(partial + "/timings.csv"), try deterministicColumns(whole + "/timings.csv"))
        XCTAssertEqual(try deterministicColumns(partial + "/summary.csv"), try deterministicColumns(whole + "/summary.csv"))

        let one = scratch.path + "/one", two = scratch.path + "/two", merged = scratch.path + "/merged"
        XCTAssertEqual(try runConfig(text, in: scratch, out: one, shard: "1/2"), 0)
        XCTAssertEqual(try runConfig(text, in: scratch, out: two, shard: "2/2"), 0)
        var merge = MergeInvocation(directories: [two, one], out: merged)
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 0, console.err)
        XCTAssertEqual(try deterministicColumns(merged + "/timings.csv"), try deterministicColumns(whole + "/timings.csv"))
        XCTAssertEqual(try deterministicColumns(merged + "/summary.csv"), try deterministicColumns(whole + "/summary.csv"))
        XCTAssertEqual(try RunState.read(directory: merged).status, .complete)
    }
}
