import Foundation
import XCTest
import Relational
@testable import QueryEngine

final class PlanExportTests: XCTestCase {
    func testFinalGraphShowsTheCopyAndItsFilter() throws {
        let documents = try Fixtures.documents(100)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let run = try QueryEngine(preset: "all-on").run([query], capture: true)
        let snapshots = try XCTUnwrap(run.snapshots)
        XCTAssertEqual(snapshots.planned.liveNodeIDs.count, 6)
        XCTAssertEqual(snapshots.final.liveNodeIDs.count, 7)

        let final = PlanDot.planGraph(snapshots.final, annotations: snapshots.finalAnnotations)
        XCTAssertTrue(final.contains("(copy of "), final)
        XCTAssertTrue(final.contains("Parental filter: id == 3 - 0 remaining (active)"), final)
        XCTAssertTrue(final.contains("Parental filter: id == 2 - 0 remaining (active)"), final)

        let relation = PlanDot.relationGraph([query])
        XCTAssertTrue(relation.contains("selectedDocumentParentMetadata"))
    }

    func testWritesDotAndSVGFiles() throws {
        let documents = try Fixtures.documents(20)
        let query = try Fixtures.selectedDocumentParent(documents: documents, selected: 3)
        let run = try QueryEngine(preset: "all-on").run([query], capture: true)
        let directory = NSTemporaryDirectory() + "plans-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = try PlanExport.writePlans(try XCTUnwrap(run.snapshots), to: directory, baseName: "seed")
        XCTAssertEqual(written.count, 8)
        let svg = try String(contentsOfFile: directory + "/seed-final.svg", encoding: .utf8)
        XCTAssertTrue(svg.contains("<svg"))
        XCTAssertTrue(svg.contains("selectedDocumentMetadata"))
    }

    /// A query named by a 250-byte file name failed as an unwritable `--out`, and one named
    /// by a file called `.rq` wrote `-final.dot` and alike.
    func testLongAndEmptyQueryNamesGiveWritableFileNames() throws {
        let documents = try Fixtures.documents(20)
        let run = try QueryEngine(preset: "all-on").run([try Fixtures.selectedDocumentParent(documents: documents, selected: 3)],
                                                        capture: true)
        let directory = NSTemporaryDirectory() + "plans-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = String(repeating: "é", count: 125)
        let written = try PlanExport.writePlans(try XCTUnwrap(run.snapshots), to: directory, baseName: long)
        XCTAssertEqual(written.count, 8)
        XCTAssertTrue(written.allSatisfy { ($0 as NSString).lastPathComponent.utf8.count <= 255 }, "\(written)")
        XCTAssertEqual(PlanExport.fileNamePart(long).utf8.count, 200, "cut on a character boundary")
        XCTAssertEqual(PlanExport.fileNamePart(""), "query")
    }

    /// A NUL in a string constant cut Graphviz's reading of the relation graph's DOT text
    /// inside a quoted label ("syntax error", `plan` exit 1): its labels print constants as
    /// they are. Control characters are now written escaped in every label.
    func testControlCharactersInALabelAreEscapedAndRender() throws {
        let documents = try Fixtures.documents(20)
        let query = try Relation(source: documents).select(Attribute("name") *== .text("a\u{0}b\r\n\u{7}c"))
        let run = try QueryEngine(preset: "all-on").run([query], capture: true)
        let directory = NSTemporaryDirectory() + "plans-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = try PlanExport.writePlans(try XCTUnwrap(run.snapshots), to: directory, baseName: "nul")
        XCTAssertEqual(written.count, 8)
        let dot = try String(contentsOfFile: directory + "/nul-relation.dot", encoding: .utf8)
        XCTAssertFalse(dot.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, dot)
        XCTAssertTrue(dot.contains(#"a\\u{0}b\\r\\n\\u{7}c"#), dot)
        let svg = try String(contentsOfFile: directory + "/nul-relation.svg", encoding: .utf8)
        XCTAssertTrue(svg.contains(#"a\u{0}b\r\n\u{7}c"#), svg)
        XCTAssertEqual(DotText.quoted("x\ty"), #""x\\u{9}y""#)
    }

    func testBadDOTIsAnErrorNotACrash() {
        XCTAssertThrowsError(try GraphvizRenderer.svg(fromDOT: "digraph { a -> "))
    }
}

final class LargePlanExportTests: XCTestCase {
    func testGraphsOverTheNodeLimitAreWrittenAsDOTOnly() throws {
        var relation = try Fixtures.literal("a", ["x"], [[1]])
        for i in 0...PlanExport.svgNodeLimit {
            relation = try relation.select(Attribute("x") *!= .integer(Int64(i)))
        }
        let run = try QueryEngine(preset: "all-off").run([relation], capture: true)
        let directory = NSTemporaryDirectory() + "plans-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = try PlanExport.writePlans(try XCTUnwrap(run.snapshots), to: directory, baseName: "deep")
        XCTAssertEqual(written.count, 4)
        XCTAssertTrue(written.allSatisfy { $0.hasSuffix(".dot") })
    }

    /// The relation graph of a 45-way union of selects on one table has 90 nodes, far under
    /// the node limit, but every select's edge down to the shared table crosses the union
    /// chain: Graphviz took seconds on it, minutes at 75 ways and over a quarter of an hour
    /// at 150 (`plan`, and a run with `plans: true`, waiting on it). It is written as DOT only.
    func testAGraphWhoseLongEdgesMakeItSlowToLayOutIsWrittenAsDOTOnly() throws {
        let table = Relation(source: try Fixtures.documents(20))
        var union = try table.select(Attribute("id") *== .integer(0))
        for i in 1..<45 { union = try union.union(table.select(Attribute("id") *== .integer(Int64(i)))) }
        let run = try QueryEngine(preset: "all-on").run([union], capture: true)
        let snapshots = try XCTUnwrap(run.snapshots)
        XCTAssertLessThan(GraphLayoutSize.planGraph(snapshots.final), PlanExport.svgLayoutLimit, "flattened, one rank of selects")
        XCTAssertGreaterThan(GraphLayoutSize.relationGraph(snapshots.relations), PlanExport.svgLayoutLimit)
        let directory = NSTemporaryDirectory() + "plans-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let written = Set(try PlanExport.writePlans(snapshots, to: directory, baseName: "wide").map { ($0 as NSString).lastPathComponent })
        XCTAssertTrue(written.isSuperset(of: ["wide-relation.dot", "wide-final.dot", "wide-final.svg"]), "\(written)")
        XCTAssertFalse(written.contains("wide-relation.svg"), "\(written)")
    }

    /// Nodes plus the bends `dot` adds to an edge spanning more than one rank.
    func testTheLayoutSizeCountsTheBendsOfLongEdges() {
        XCTAssertEqual(GraphLayoutSize.of(nodeCount: 3, edges: [(0, 1), (1, 2)]), 3)
        XCTAssertEqual(GraphLayoutSize.of(nodeCount: 3, edges: [(0, 1), (1, 2), (0, 2)]), 4)
        // A chain of five with the top also pointing at the bottom: three bends.
        XCTAssertEqual(GraphLayoutSize.of(nodeCount: 5, edges: [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)]), 8)
        XCTAssertEqual(GraphLayoutSize.of(nodeCount: 2, edges: []), 2)
    }
}
