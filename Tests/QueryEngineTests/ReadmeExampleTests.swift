import Foundation
import XCTest
import Relational
import QueryEngine

/// The README's engine example, kept compiling and correct.
final class ReadmeExampleTests: XCTestCase {
    func testReadmeExample() throws {
        let documents = try MemoryTable(name: "documents", columns: ["id", "name", "parent_id"],
                                        rows: [[1, "A Story", nil], [2, "Cake Recipe", nil],
                                               [3, "A Story: Chapter 1", 1], [4, "A Story: Chapter 2", 1]],
                                        indexedAttributes: ["id", "parent_id"])
        let docs = Relation(source: documents)
        let selected = Relation(source: try MemoryTable(name: "selected", columns: ["id"], rows: [[3]]))
        let parent = try selected.join(docs).project(["parent_id"]).rename(["parent_id": "id"]).join(docs)

        let flags = try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: ["subtree-copying"])
        let run = try QueryEngine(flags: flags).run([parent], capture: true)
        XCTAssertEqual(run.results[0], [Row([1, "A Story", .null])])
        XCTAssertEqual(run.counters.sourceRowsRead, 5)  // selected id + all 4 documents: no copy
        let directory = NSTemporaryDirectory() + "readme-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        if let snapshots = run.snapshots {
            try PlanExport.writePlans(snapshots, to: directory, baseName: "parent")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/parent-final.svg"))
    }
}
