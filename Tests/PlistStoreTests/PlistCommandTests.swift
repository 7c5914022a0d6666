import FileSupport
import Foundation
import PlistStore
import Workloads
import XCTest

/// `testbed query --plist DIR` on files written by `generate --plist`, and bad files in it:
/// exit 2 with a message naming the file, nothing written.
final class PlistCommandTests: PlistTestCase {
    private func testbed(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let bundle = Bundle(for: PlistCommandTests.self).bundleURL
        guard let binary = [bundle, bundle.deletingLastPathComponent()].map({ $0.appendingPathComponent("testbed") })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            // A missing executable is a broken build, not an absent optional tool: fail, never skip.
            XCTFail("no testbed executable beside \(bundle.path); build the package first (swift build --build-tests)")
            throw XCTSkip("no testbed executable")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    private func database() throws -> String {
        let root = try scratch() + "/db"
        _ = try Shape.documents.write(rows: 2000, seed: 42, to: try .plist(directory: root, layout: .database))
        return root
    }

    func testQueryRunsOnAGeneratedDatabaseAndCountsFiles() throws {
        let root = try database()
        let run = try testbed(["query", "selected-document-parent", "--plist", root, "--verify"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.contains("backend plist-database"), run.out)
        XCTAssertTrue(run.out.contains("== property-list files opened by the run\n2\n"), run.out)
        XCTAssertTrue(run.out.contains("verified"), run.out)
    }

    func testBadFilesExitTwoNamingTheFile() throws {
        let root = try database()
        let rowDirectory = root + "/documents/" + (FileSystem.entries(of: root + "/documents")?.first { $0.count == 2 } ?? "")
        let row = rowDirectory + "/" + (FileSystem.entries(of: rowDirectory)?.first ?? "")
        let cases: [(file: String, bytes: String, arguments: [String])] = [
            (row, "not a plist", ["--disable", "subtree-copying"]),
            (root + "/selected_documents.plist", "bplist00", []),
            (root + "/database.plist", "{}", []),
        ]
        for c in cases {
            let original = try Data(contentsOf: URL(fileURLWithPath: c.file))
            try FileSystem.writeText(c.bytes, to: c.file)
            let run = try testbed(["query", "selected-document-parent", "--plist", root] + c.arguments)
            XCTAssertEqual(run.status, 2, run.err)
            XCTAssertTrue(run.err.hasPrefix("testbed: "), run.err)
            XCTAssertTrue(run.err.contains(c.file), run.err)
            try original.write(to: URL(fileURLWithPath: c.file))
        }
        let missing = try testbed(["query", "selected-document-parent", "--plist", root + "/none"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.err.contains(root + "/none"), missing.err)
        let both = try testbed(["query", "selected-document-parent", "--plist", root, "--backend", "memory"])
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.err.contains("--backend"), both.err)
    }
}
