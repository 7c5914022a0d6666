import Foundation
import XCTest

/// `testbed observe --ordered-by`: each output is also kept as a sorted array, and each
/// transaction's change is printed as index changes that `--verify` checks.
final class OrderedObserveCommandLineTests: XCTestCase {
    private var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Workloads/changes/ordered-children.changes").path
    }

    func testTheShippedBrowseAndEditScriptPrintsVerifiedIndexChanges() throws {
        let testbed = try TestbedProcess(label: "ordered-cli")
        defer { testbed.remove() }
        for preset in ["all-on", "all-off"] {
            let outcome = try testbed.run(["observe", "selected-document-children", "--changes", script, "--rows", "2000",
                                          "--preset", preset, "--ordered-by", "name", "--verify"])
            XCTAssertEqual(outcome.status, 0, outcome.err)
            XCTAssertEqual(outcome.out.components(separatedBy: "verified: every change is exact").count - 1, 6)
            // "Aardvark" sorts before the generated "Document …" names, "Zebra" after them.
            XCTAssertTrue(outcome.out.contains("insert at 0: [id: 900001, name: Aardvark, parent_id: 3]"), outcome.out)
            XCTAssertTrue(outcome.out.contains("-> [id: 900002, name: Middle, parent_id: 3]"), outcome.out)
            XCTAssertTrue(outcome.out.contains("remove at 0: [id: 900001, name: Aardvark, parent_id: 3]"), outcome.out)
        }
    }

    func testBadOrderingsExitTwoBeforeGenerating() throws {
        let testbed = try TestbedProcess(label: "ordered-cli")
        defer { testbed.remove() }
        let cases: [(String, String)] = [
            ("title", "--ordered-by: 'title' is not an attribute of [id, name, parent_id]"),
            ("name,name", "--ordered-by: 'name' is named twice"),
            ("name,", "--ordered-by: 'name,' has an empty attribute name"),
        ]
        for (ordering, message) in cases {
            let outcome = try testbed.run(["observe", "selected-document-children", "--changes", script,
                                          "--rows", "50000000", "--ordered-by", ordering])
            XCTAssertEqual(outcome.status, 2, ordering)
            XCTAssertTrue(outcome.err.hasPrefix("testbed: ") && outcome.err.contains(message), "\(ordering): \(outcome.err)")
            XCTAssertEqual(outcome.out, "", "nothing is generated or printed before the error")
        }
    }
}
