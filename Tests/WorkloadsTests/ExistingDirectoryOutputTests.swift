import FileSupport
import Foundation
import Relational
import Workloads
import XCTest

/// `generate --csv DIR` and `--plist DIR` on a directory that is there already: an empty one
/// is written into, keeping its owner, mode and identity (it was replaced by a new
/// directory); a symbolic link is refused before the dataset is generated (it was refused
/// only when the generated dataset could not be renamed onto it).
final class ExistingDirectoryOutputTests: XCTestCase {
    private var scratch = ""

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.path + "/existing-dir-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        addTeardownBlock { [scratch] in try? FileManager.default.removeItem(atPath: scratch) }
    }

    private func identity(_ path: String) throws -> (inode: UInt64, mode: UInt32) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return (UInt64(info.st_ino), UInt32(info.st_mode & 0o7777))
    }

    func testAnEmptyDirectoryIsWrittenIntoKeepingItsModeAndIdentity() throws {
        for (name, output) in [("csv", { try DatasetOutput.csv(directory: $0) }),
                               ("plist", { try DatasetOutput.plist(directory: $0, layout: .database) })] as [(String, (String) throws -> DatasetOutput)] {
            let directory = scratch + "/" + name
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            XCTAssertEqual(chmod(directory, 0o750), 0)
            let before = try identity(directory)
            _ = try Shape.pets.write(rows: 20, seed: 1, to: try output(directory))
            let after = try identity(directory)
            XCTAssertEqual(after.inode, before.inode, "\(name): the directory given is the one written into")
            XCTAssertEqual(after.mode, 0o750, name)
            let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
            XCTAssertFalse(entries.isEmpty, name)
            XCTAssertFalse(entries.contains { $0.hasPrefix(".") }, "\(name): no temporary left: \(entries)")
            if name == "csv" { XCTAssertTrue(entries.contains("manifest.txt"), "\(entries)") }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch).sorted(), ["csv", "plist"])
    }

    func testAFailedWriteIntoAnEmptyDirectoryLeavesItEmptyAndAsItWas() throws {
        let directory = scratch + "/empty"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let before = try identity(directory)
        struct Boom: Error {}
        XCTAssertThrowsError(try CSVDestination(directory: directory).write { sink in
            try sink.begin(TableHeader(name: "t", scheme: Scheme(["a"]), rowCount: 1, indexedAttributes: [], primaryKey: ["a"]))
            throw Boom()
        })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        XCTAssertEqual(try identity(directory).inode, before.inode)
    }

    func testALinkToAnEmptyDirectoryIsRefusedWhereTheOptionEnters() throws {
        try FileManager.default.createDirectory(atPath: scratch + "/target", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: scratch + "/link", withDestinationPath: scratch + "/target")
        let link = scratch + "/link"
        for (option, make) in [("--csv", { try DatasetOutput.csv(directory: link) }),
                               ("--plist", { try DatasetOutput.plist(directory: link, layout: .file) })]
            as [(String, () throws -> DatasetOutput)] {
            XCTAssertThrowsError(try make()) { error in
                XCTAssertEqual("\(error)", "\(option): '\(scratch)/link' is a symbolic link; give the directory itself "
                    + "(or the link with a trailing '/')")
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch + "/target"), [])
    }

    /// `--sqlite` given a link to a file was told to give "the directory itself (or the link
    /// with a trailing '/')": a file is neither. The link and its target stay as they were.
    func testALinkGivenAsTheSQLiteFileIsRefusedAsAFile() throws {
        try "old".write(toFile: scratch + "/target.sqlite", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scratch + "/link.sqlite", withDestinationPath: scratch + "/target.sqlite")
        XCTAssertThrowsError(try DatasetOutput.sqlite(path: scratch + "/link.sqlite", replace: true)) { error in
            XCTAssertEqual("\(error)", "--sqlite: '\(scratch)/link.sqlite' is a symbolic link; give the file's own path, not a link to it")
        }
        XCTAssertEqual(try String(contentsOfFile: scratch + "/target.sqlite", encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: scratch + "/link.sqlite"), scratch + "/target.sqlite")
    }
}
