import FileSupport
import Relational
import XCTest
@testable import Experiments

/// The ordered modes of change experiments: `ordered` (ordered views fed by incremental
/// RowChanges) and `regenerate-sort-diff` (re-run, sort, diff) keep the same states as the
/// other modes after every transaction; `changes: ordered-by:` is checked at its key.
final class OrderedChangeExperimentTests: XCTestCase {
    private func config(orderedBy: String? = "[name]", modes: String = "[ordered, regenerate-sort-diff, incremental]") -> String {
        """
        name: tiny-ordered
        dataset:
          shape: documents
          rows: [60, 150]
          seed: 7
          params: {roots: 0.1}
        backend: memory
        queries:
          - selected-document-children
          - name: named-parents
            text: |
              let parents = documents project [id, name] rename [id -> parent_id, name -> parent_name]
              output named = documents join parents
        flagsets:
          all-on: {preset: all-on}
          all-off: {preset: all-off}
        changes:
          session: mixed
          transactions: 8
          seed: 5
        \(orderedBy.map { "  ordered-by: \($0)" } ?? "")
        modes: \(modes)
        repetitions: 1
        """
    }

    func testOrderedModesKeepTheSameStatesAsIncremental() throws {
        let scratch = try Scratch()
        let out = scratch.path + "/run"
        let console = CapturedConsole()
        XCTAssertEqual(try runConfig(config(), in: scratch, out: out, console: console), 0, console.err)
        let records = try readTimings(out + "/timings.csv")
        // 2 sizes × 2 queries × 2 flag sets × 3 modes, 8 transactions each.
        XCTAssertEqual(records.count, 24 * 8)
        for (group, rows) in Dictionary(grouping: records, by: \.equalityGroup) {
            XCTAssertEqual(Set(rows.map(\.resultHash)).count, 1, "\(group)")
            XCTAssertEqual(Set(rows.compactMap(\.change?.mode)), ["ordered", "regenerate-sort-diff", "incremental"])
        }
        XCTAssertTrue(records.contains { $0.change?.mode == "ordered" && ($0.change?.rowsAdded ?? 0) > 0 })
        // Regenerating re-runs the query: under all-off it reads every document each time.
        let regenerated = records.filter { $0.change?.mode == "regenerate-sort-diff" && $0.flagset == "all-off" && $0.rows == 150 }
        XCTAssertTrue(regenerated.allSatisfy { ($0.counters[0] ?? 0) >= 150 })
    }

    func testBadOrderedByIsRefusedAtItsKeyWithNothingWritten() throws {
        let cases: [(String, String?, String, String)] = [
            ("missing", nil, "[ordered]", "changes: mode ordered needs 'ordered-by"),
            ("unused", "[name]", "[incremental, requery]", "changes.ordered-by: only the modes ordered and regenerate-sort-diff"),
            ("unknown", "[title]", "[ordered]", "changes.ordered-by: 'title' is not an attribute"),
            ("twice", "[name, name]", "[regenerate-sort-diff]", "changes.ordered-by: 'name' is named twice"),
        ]
        for (tag, orderedBy, modes, message) in cases {
            let scratch = try Scratch()
            let out = scratch.path + "/run"
            let console = CapturedConsole()
            XCTAssertEqual(try runConfig(config(orderedBy: orderedBy, modes: modes), in: scratch, out: out, console: console), 2, tag)
            XCTAssertTrue(console.err.contains(message), "\(tag): \(console.err)")
            XCTAssertFalse(FileSystem.exists(out), "\(tag): nothing written")
        }
    }
}
