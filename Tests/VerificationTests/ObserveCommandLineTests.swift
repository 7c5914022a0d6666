import Foundation
import XCTest

/// `testbed observe` through the built executable: the shipped change script verifies
/// under every preset and every mode, and bad scripts exit 2 at file:line:column.
final class ObserveCommandLineTests: XCTestCase {
    private var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Workloads/changes/select-and-rename.changes").path
    }

    func testTheShippedScriptVerifiesUnderEveryPresetAndMode() throws {
        let testbed = try TestbedProcess(label: "observe-cli")
        defer { testbed.remove() }
        for preset in ["all-on", "all-off"] {
            for mode in ["incremental", "incremental-single", "requery", "counted"] {
                let outcome = try testbed.run(["observe", "selected-document-parent", "--changes", script, "--rows", "10000",
                                              "--preset", preset, "--mode", mode, "--verify"])
                XCTAssertEqual(outcome.status, 0, outcome.err)
                XCTAssertEqual(outcome.out.components(separatedBy: "verified: every change is exact").count - 1, 4)
                XCTAssertTrue(outcome.out.contains("[id: 221, name: Renamed parent, parent_id: 32]"), outcome.out)
            }
        }
    }

    func testBadScriptsAndOptionsExitTwoNamingWhere() throws {
        let testbed = try TestbedProcess(label: "observe-cli")
        defer { testbed.remove() }
        let cases: [(String, [String], String)] = [
            ("update selected_documents set [idd = 3]", [], "bad.changes:1:32: update set: unknown attribute"),
            ("begin\nupdate selected_documents set [id = 3]\n", [], "bad.changes:3:1: the transaction begun at line 1 has no 'commit'"),
            // The update through the join on `parent`'s join attribute is refused at its line.
            ("update selected_documents set [id = 5]\nupdate parent set [id = 9]", [],
             "bad.changes:2:1: cannot update 'parent' through join(id = id): 'id' is a join attribute"),
            ("delete documents", ["--mode", "fast"], "--mode: 'fast' is not a mode"),
        ]
        for (text, extra, message) in cases {
            let path = try testbed.write("bad.changes", text)
            let outcome = try testbed.run(["observe", "selected-document-parent", "--changes", path, "--rows", "100"] + extra)
            XCTAssertEqual(outcome.status, 2, text)
            XCTAssertTrue(outcome.err.hasPrefix("testbed: ") && outcome.err.contains(message), "\(text): \(outcome.err)")
        }
        // A script mistake is found before a large dataset is generated.
        let path = try testbed.write("bad.changes", "delete documents where (nope == 1)")
        let early = try testbed.run(["observe", "selected-document-parent", "--changes", path, "--rows", "50000000"])
        XCTAssertEqual(early.status, 2)
        XCTAssertTrue(early.err.contains("bad.changes:1:25: where: unknown attribute 'nope'"), early.err)
        XCTAssertEqual(early.out, "")
        let missing = try testbed.run(["observe", "selected-document-parent", "--changes", "nope.changes", "--rows", "100"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.err.hasPrefix("testbed: --changes: "), missing.err)
    }

    /// A row that takes an existing document's id is refused alike on every backend: exit 2
    /// at the statement, naming the relation and the key (it was exit 1 on sqlite, a second
    /// row with id 1 on memory and plist-file, a temporary file's path on plist-directory).
    func testAKeyClashExitsTwoAtTheStatementOnEveryBackend() throws {
        let testbed = try TestbedProcess(label: "observe-cli")
        defer { testbed.remove() }
        let path = try testbed.write("clash.changes", "update selected_documents set [id = 3]\n"
            + "add documents [id, name, parent_id] { (1, \"dup\", null) }\n")
        for backend in ["memory", "sqlite", "plist-file", "plist-directory", "plist-database"] {
            let outcome = try testbed.run(["observe", "selected-document-parent", "--changes", path, "--rows", "50",
                                          "--backend", backend, "--verify"])
            XCTAssertEqual(outcome.status, 2, "\(backend): \(outcome.err)")
            XCTAssertTrue(outcome.err.hasPrefix("testbed: \(path):2:1: change to documents would give two rows the same key [id] "
                + "(id = 1): "), "\(backend): \(outcome.err)")
            XCTAssertTrue(outcome.out.contains("== transaction 1 "), "\(backend): \(outcome.out)")
            XCTAssertFalse(outcome.out.contains("== transaction 2 "), "\(backend): \(outcome.out)")
        }
    }

    /// Text from the change script reaches observe's output escaped, as in `query`'s tables:
    /// a name holding ESC or a line break printed raw moved the terminal's cursor and could
    /// forge a line of the output (`== transaction 9 …`).
    func testControlCharactersInChangedRowsAreEscaped() throws {
        let testbed = try TestbedProcess(label: "observe-cli")
        defer { testbed.remove() }
        let path = try testbed.write("esc.changes", "update selected_documents set [id = 3]\n"
            + "update documents set [name = \"a\u{1b}[31mb\\n== transaction 9\"] where (id == 3)\n")
        let outcome = try testbed.run(["observe", "selected-document", "--changes", path, "--rows", "50",
                                      "--ordered-by", "name", "--verify"])
        XCTAssertEqual(outcome.status, 0, outcome.err)
        XCTAssertFalse(outcome.out.contains("\u{1b}"), outcome.out)
        XCTAssertFalse(outcome.out.contains("\n== transaction 9"), outcome.out)
        XCTAssertTrue(outcome.out.contains("[id: 3, name: a\\u{1b}[31mb\\u{a}== transaction 9, parent_id: 1]"), outcome.out)
        XCTAssertTrue(outcome.out.contains("move 0 -> 0: [id: 3, name: Document 3, parent_id: 1] -> "
            + "[id: 3, name: a\\u{1b}[31mb\\u{a}== transaction 9, parent_id: 1]"), outcome.out)
    }

    /// `testbed demo` ends with the fruit example; step 6's update, applied to
    /// selectedFruitName, reaches the fruits table.
    func testDemoPrintsTheFruitExampleWithStepSixPropagatedBack() throws {
        let testbed = try TestbedProcess(label: "observe-cli")
        defer { testbed.remove() }
        let outcome = try testbed.run(["demo", "--example", "observing-change"])
        XCTAssertEqual(outcome.status, 0, outcome.err)
        let parts = outcome.out.components(separatedBy: "-- Step 6: Reverse-propagating Update\n")
        XCTAssertEqual(parts.count, 2, outcome.out)
        XCTAssertTrue(parts.last?.hasPrefix("""
            selectedFruitName.asyncUpdateString("Banana")

            ============================
            fruits
            ----------------------------
            Added
            [id: 3, name: Banana]
            Removed
            [id: 3, name: Bandana]
            """) ?? false, outcome.out)
        XCTAssertTrue(parts[0].contains("-- Step 2: Deletion\nfruits.asyncDelete(Fruit.id *== 2)\n\n"
            + "============================\nfruits\n----------------------------\nRemoved\n[id: 2, name: Apricot]\n"
            + "============================\n\n-- Step 3"), outcome.out)
    }

    func testVerifyChangesRunsTheChangeFuzzerAndNeedsRandom() throws {
        let testbed = try TestbedProcess(label: "observe-cli")
        defer { testbed.remove() }
        let outcome = try testbed.run(["verify", "--random", "40", "--seed", "9", "--changes"])
        XCTAssertEqual(outcome.status, 0, outcome.err)
        XCTAssertTrue(outcome.out.contains("verify --changes: 40 cases, 200 runs, 1000 transactions checked, 0 failed"), outcome.out)
        let refused = try testbed.run(["verify", "--changes"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.err.hasPrefix("testbed: --changes checks random cases; give --random N"), refused.err)
    }
}
