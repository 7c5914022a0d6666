import Foundation
import FileSupport
import XCTest

final class FileTests: XCTestCase {
    func testAtomicWriteLeavesOnlyTheTarget() throws {
        let dir = try scratchDirectory("atomic")
        defer { removeTree(dir) }
        try FileSystem.writeTextAtomically("old", to: dir + "/a.csv")
        try FileSystem.writeTextAtomically("new\n", to: dir + "/a.csv")
        XCTAssertEqual(try FileSystem.readText(dir + "/a.csv"), "new\n")
        XCTAssertEqual(FileSystem.entries(of: dir), ["a.csv"], "no temporary sibling is left")
    }

    func testFailedAtomicWriteLeavesNothing() throws {
        let dir = try scratchDirectory("atomic-fail")
        defer { removeTree(dir) }
        // The target is a non-empty directory, so the final rename fails after the
        // temporary was written.
        try FileSystem.makeDirectory(dir + "/taken")
        try FileSystem.writeText("x", to: dir + "/taken/inside")
        XCTAssertThrowsError(try FileSystem.writeTextAtomically("text", to: dir + "/taken")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot write '\(dir)/taken': "), "\(error)")
        }
        XCTAssertEqual(FileSystem.entries(of: dir), ["taken"], "the temporary was removed")
        XCTAssertThrowsError(try FileSystem.writeTextAtomically("text", to: dir + "/missing/a.csv"))
        XCTAssertEqual(FileSystem.kind(of: dir + "/missing/a.csv"), .missing)
    }

    /// Two `generate --sqlite FILE` at once each found FILE missing and both renamed into it.
    func testAWriteAsNewNeverReplacesAFileThatAppearedMeanwhile() throws {
        let dir = try scratchDirectory("as-new")
        defer { removeTree(dir) }
        try FileSystem.writeTextAtomically("first\n", to: dir + "/s.db", replacing: false)
        XCTAssertThrowsError(try FileSystem.writeTextAtomically("second\n", to: dir + "/s.db", replacing: false)) { error in
            XCTAssertTrue("\(error)".contains("appeared meanwhile"), "\(error)")
        }
        XCTAssertEqual(try FileSystem.readText(dir + "/s.db"), "first\n")
        XCTAssertEqual(FileSystem.entries(of: dir), ["s.db"], "the temporary was removed")
    }

    /// A UTF-16 query file was told it had no `# shape:` line: every other byte is a NUL.
    func testUTF16TextIsRefusedNamingTheByteOrderMark() throws {
        let dir = try scratchDirectory("utf16")
        defer { removeTree(dir) }
        for (mark, bytes) in [("FF FE", [UInt8]([0xFF, 0xFE, 0x23, 0x00])), ("FE FF", [0xFE, 0xFF, 0x00, 0x23])] {
            XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/q.rq", contents: Data(bytes)))
            XCTAssertThrowsError(try FileSystem.readText(dir + "/q.rq")) { error in
                XCTAssertTrue("\(error)".contains("is UTF-16 text (it begins with the byte-order mark \(mark)); save it as UTF-8"), "\(error)")
            }
        }
        // A UTF-8 byte-order mark is text as before (the readers drop it).
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/q.rq", contents: Data([0xEF, 0xBB, 0xBF, 0x23])))
        XCTAssertEqual(try FileSystem.readText(dir + "/q.rq"), "\u{FEFF}#")
    }

    func testReadingAMissingFileNamesThePath() throws {
        let path = "/tmp/filesupport-tests-\(getpid())-no-such-file"
        XCTAssertThrowsError(try FileSystem.readText(path)) { error in
            XCTAssertEqual("\(error)", "cannot read '\(path)': No such file or directory")
            XCTAssertEqual((error as? FileSystemError)?.path, path)
        }
    }

    func testKindSizeAndRemove() throws {
        let dir = try scratchDirectory("kind")
        defer { removeTree(dir) }
        let file = dir + "/f.txt"
        XCTAssertEqual(FileSystem.kind(of: file), .missing)
        XCTAssertFalse(FileSystem.exists(file))
        try FileSystem.writeText("12345", to: file)
        XCTAssertEqual(FileSystem.kind(of: file), .file)
        XCTAssertEqual(FileSystem.size(of: file), 5)
        XCTAssertTrue(FileSystem.isDirectory(dir))
        FileSystem.remove(file)
        XCTAssertNil(FileSystem.size(of: file))
    }

    func testByteFileWriterWritesEverything() throws {
        let dir = try scratchDirectory("writer")
        defer { removeTree(dir) }
        let writer = try ByteFileWriter(path: dir + "/big.bin")
        for _ in 0..<(3 << 20) { writer.write(byte: UInt8(ascii: "a")) }
        writer.write("z")
        try writer.close()
        XCTAssertEqual(FileSystem.size(of: dir + "/big.bin"), (3 << 20) + 1)
        XCTAssertThrowsError(try ByteFileWriter(path: dir + "/no/such/dir/x")) { error in
            XCTAssertEqual("\(error)", "cannot create '\(dir)/no/such/dir/x': No such file or directory")
        }
    }

    func testPathNames() {
        XCTAssertEqual(FileSystem.parentDirectory(of: "a/b/c.txt"), "a/b")
        XCTAssertEqual(FileSystem.parentDirectory(of: "c.txt"), ".")
        XCTAssertEqual(FileSystem.parentDirectory(of: "/c.txt"), "/")
        XCTAssertEqual(FileSystem.temporarySibling(of: "out/data/"), "out/.data.tmp-\(getpid())")
        XCTAssertEqual(FileSystem.temporarySibling(of: "x.db"), ".x.db.tmp-\(getpid())")
    }
}
