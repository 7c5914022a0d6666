import FileSupport
import XCTest

final class DirectoryTests: XCTestCase {
    func testMakeDirectoriesCreatesParentsAndAcceptsExisting() throws {
        let dir = try scratchDirectory("parents")
        defer { removeTree(dir + "/a/b"); removeTree(dir) }
        try FileSystem.makeDirectories(dir + "/a/b/c")
        XCTAssertTrue(FileSystem.isDirectory(dir + "/a/b/c"))
        try FileSystem.makeDirectories(dir + "/a/b/c")
        XCTAssertThrowsError(try FileSystem.makeDirectory(dir + "/a")) { error in
            XCTAssertEqual("\(error)", "cannot create directory '\(dir)/a': File exists")
        }
    }

    func testMakeDirectoriesThroughAFileFails() throws {
        let dir = try scratchDirectory("through-file")
        defer { removeTree(dir) }
        try FileSystem.writeText("", to: dir + "/file")
        XCTAssertThrowsError(try FileSystem.makeDirectories(dir + "/file/sub")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot create directory '\(dir)/file/sub': "), "\(error)")
        }
    }

    func testEntriesAreSortedWithoutDots() throws {
        let dir = try scratchDirectory("entries")
        defer { removeTree(dir) }
        XCTAssertTrue(FileSystem.isEmptyDirectory(dir))
        for name in ["b", "c", "a"] { try FileSystem.writeText(name, to: dir + "/" + name) }
        XCTAssertEqual(FileSystem.entries(of: dir), ["a", "b", "c"])
        XCTAssertFalse(FileSystem.isEmptyDirectory(dir))
        XCTAssertFalse(FileSystem.isEmptyDirectory(dir + "/a"), "a file is not an empty directory")
        XCTAssertNil(FileSystem.entries(of: dir + "/missing"))
    }

    func testRemoveDirectoryRemovesItsPlainFiles() throws {
        let dir = try scratchDirectory("remove")
        defer { removeTree(dir) }
        try FileSystem.makeDirectory(dir + "/d")
        for name in ["x.csv", "y.txt"] { try FileSystem.writeText(name, to: dir + "/d/" + name) }
        FileSystem.removeEmptyDirectory(dir + "/d")
        XCTAssertTrue(FileSystem.isDirectory(dir + "/d"), "a directory with files is not empty")
        FileSystem.removeDirectory(dir + "/d")
        XCTAssertEqual(FileSystem.kind(of: dir + "/d"), .missing)
        FileSystem.removeDirectory(dir + "/d")
    }

    func testRenameAndCopyDirectory() throws {
        let dir = try scratchDirectory("copy")
        defer { removeTree(dir + "/to"); removeTree(dir + "/from"); removeTree(dir) }
        try FileSystem.makeDirectories(dir + "/from/sub")
        try FileSystem.writeText("one", to: dir + "/from/1.dot")
        try FileSystem.writeText("two", to: dir + "/from/sub/2.svg")
        try FileSystem.copyDirectory(dir + "/from", to: dir + "/to")
        XCTAssertEqual(try FileSystem.readText(dir + "/to/1.dot"), "one")
        XCTAssertEqual(try FileSystem.readText(dir + "/to/sub/2.svg"), "two")
        try FileSystem.rename(dir + "/to/1.dot", to: dir + "/to/3.dot")
        XCTAssertEqual(FileSystem.entries(of: dir + "/to"), ["3.dot", "sub"])
        XCTAssertThrowsError(try FileSystem.rename(dir + "/nothing", to: dir + "/else")) { error in
            XCTAssertEqual("\(error)", "cannot move '\(dir)/nothing' to '\(dir)/else': No such file or directory")
        }
    }
}
