import FileSupport
import Foundation
import XCTest
@testable import Experiments

/// A run directory written before a heuristic existed: its `flags` column lacks that
/// heuristic where today's string of the same flag set names it (`NAME=off` in `all-off`).
/// `compare`, `merge` and `--resume` read it back with the missing later heuristic off, and
/// write today's strings; a misspelt name is still refused at its line.
final class OlderFlagsReadBackTests: XCTestCase {
    private let newest = "join-conjunct-pushdown"

    /// The tiny config with an `all-off` flag set, whose string names every later heuristic.
    private var config: String {
        tinyConfig().replacingOccurrences(of: "no-copying: {preset: all-on, disable: [subtree-copying]}",
                                          with: "no-copying: {preset: all-off}")
    }

    /// Rewrites the `flags` column of every CSV file in `directory` as a testbed without
    /// `join-conjunct-pushdown` wrote it; returns how many strings lost the name.
    @discardableResult
    private func makeOlder(_ directory: String) throws -> Int {
        var removed = 0
        for file in [TimingsFile.name, Summary.fileName, PassesFile.name] {
            let path = directory + "/" + file
            guard FileSystem.exists(path) else { continue }
            var table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
            let column = try XCTUnwrap(table.column("flags"))
            for r in table.rows.indices {
                let before = table.rows[r][column]
                table.rows[r][column] = before.split(separator: ",").filter { !$0.hasPrefix(newest + "=") }.joined(separator: ",")
                if table.rows[r][column] != before { removed += 1 }
            }
            try FileSystem.writeText(table.text, to: path)
        }
        return removed
    }

    private func flagsColumn(_ path: String) throws -> [String] {
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let column = try XCTUnwrap(table.column("flags"))
        return table.rows.map { $0[column] }
    }

    func testTheAllOffFlagSetNamesTheNewestHeuristic() throws {
        let scratch = try Scratch()
        let run = scratch.path + "/run"
        XCTAssertEqual(try runConfig(config, in: scratch, out: run), 0)
        XCTAssertTrue(try flagsColumn(run + "/timings.csv").contains { $0.contains("\(newest)=off") },
                      "otherwise the older files below would not differ from today's")
    }

    func testCompareReadsAnOlderRun() throws {
        let scratch = try Scratch()
        let old = scratch.path + "/old", new = scratch.path + "/new"
        XCTAssertEqual(try runConfig(config, in: scratch, out: old), 0)
        XCTAssertEqual(try runConfig(config, in: scratch, out: new), 0)
        XCTAssertGreaterThan(try makeOlder(old), 0)

        let text = try Comparison(results: old).render()
        XCTAssertTrue(text.contains("no-copying"), text)
        let rows = try Summary.read(old + "/summary.csv", experiment: try experiment(of: old))
        XCTAssertTrue(rows.filter { $0.cell.flagset == "no-copying" }.allSatisfy { $0.flags.contains("\(newest)=off") },
                      "read back as today's all-off string")

        let result = try RunComparison(runA: old, runB: new).compare()
        XCTAssertFalse(result.text.contains("flags differ"), result.text)
        XCTAssertTrue(result.text.contains("12 cells compared"), result.text)
    }

    func testMergeReadsOlderShards() throws {
        let scratch = try Scratch()
        let whole = scratch.path + "/whole", one = scratch.path + "/one", two = scratch.path + "/two"
        XCTAssertEqual(try runConfig(config, in: scratch, out: whole), 0)
        XCTAssertEqual(try runConfig(config, in: scratch, out: one, shard: "1/2"), 0)
        XCTAssertEqual(try runConfig(config, in: scratch, out: two, shard: "2/2"), 0)
        XCTAssertGreaterThan(try makeOlder(one) + makeOlder(two), 0)

        let merged = scratch.path + "/merged"
        var merge = MergeInvocation(directories: [one, two], out: merged)
        merge.plots = false
        let console = CapturedConsole()
        XCTAssertEqual(merge.execute(console: console.console), 0, console.err)
        XCTAssertEqual(try deterministicColumns(merged + "/timings.csv"), try deterministicColumns(whole + "/timings.csv"))
        XCTAssertEqual(try deterministicColumns(merged + "/summary.csv"), try deterministicColumns(whole + "/summary.csv"))
    }

    func testResumeReadsAnOlderInterruptedRun() throws {
        let scratch = try Scratch()
        let whole = scratch.path + "/whole", partial = scratch.path + "/partial"
        XCTAssertEqual(try runConfig(config, in: scratch, out: whole), 0)
        XCTAssertEqual(try runConfig(config, in: scratch, out: partial, hooks: RunHooks(shouldStop: { $0 >= 9 })), 130)
        XCTAssertGreaterThan(try makeOlder(partial), 0, "the interrupted run has all-off cells")

        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(config, in: scratch, out: partial, resume: true, console: console), 0, console.err)
        XCTAssertEqual(try deterministicColumns(partial + "/timings.csv"), try deterministicColumns(whole + "/timings.csv"))
        XCTAssertEqual(try deterministicColumns(partial + "/summary.csv"), try deterministicColumns(whole + "/summary.csv"))
    }

    func testAMisspeltHeuristicIsStillRefusedAtItsLine() throws {
        let scratch = try Scratch()
        let run = scratch.path + "/run"
        XCTAssertEqual(try runConfig(config, in: scratch, out: run), 0)
        try makeOlder(run)
        let path = run + "/timings.csv"
        var table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        let column = try XCTUnwrap(table.column("flags"))
        let row = try XCTUnwrap(table.rows.firstIndex { $0[column].contains("late-filter-narrowing=off") })
        table.rows[row][column] = table.rows[row][column]
            .replacingOccurrences(of: "late-filter-narrowing=off", with: "late-filter-narowing=off")
        try FileSystem.writeText(table.text, to: path)
        XCTAssertThrowsError(try readTimings(path)) { error in
            XCTAssertTrue("\(error)".contains("timings.csv:\(row + 2)"), "\(error)")
            XCTAssertTrue("\(error)".contains("unknown heuristic 'late-filter-narowing'"), "\(error)")
        }
    }

    private func experiment(of run: String) throws -> Experiment {
        try ExperimentResolver.resolve(text: try FileSystem.readText(run + "/config.yaml"), file: run + "/config.yaml")
    }
}
