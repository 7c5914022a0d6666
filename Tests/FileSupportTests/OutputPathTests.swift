import FileSupport
import XCTest

final class OutputPathTests: XCTestCase {
    func testUnusableOutputPathsAreRefusedNamingTheOption() throws {
        let dir = try scratchDirectory("output-path")
        defer { removeTree(dir) }
        try FileSystem.writeText("", to: dir + "/file")
        XCTAssertEqual(symlink(dir + "/nowhere", dir + "/dangling"), 0)
        let cases: [(path: String, directory: Bool, problem: String)] = [
            ("", true, "'' is empty; give a directory path"),
            ("", false, "'' is empty; give a file path"),
            ("  ", true, "'  ' is blank; give a directory path"),
            ("/", true, "'/' is the file-system root; give a directory below it"),
            ("//", true, "'//' is the file-system root; give a directory below it"),
            ("a\nb", true, "'a\\nb' contains a control character"),
            (dir + "/file", true, "'\(dir)/file' is an existing file, not a directory"),
            (dir, false, "'\(dir)' is an existing directory, not a file"),
            ("/dev/null", false, "'/dev/null' exists and is neither a file nor a directory"),
            (dir + "/dangling", true, "'\(dir)/dangling' is a symbolic link whose target does not exist"),
            (dir + "/dangling", false, "'\(dir)/dangling' is a symbolic link whose target does not exist"),
            // Below a file nothing can be made, however deep: refused before any work.
            (dir + "/file/x", true, "'\(dir)/file/x' cannot be made: '\(dir)/file' is a file, not a directory"),
            (dir + "/file/x/y.csv", false, "'\(dir)/file/x/y.csv' cannot be made: '\(dir)/file' is a file, not a directory"),
            ("/dev/null/x", true, "'/dev/null/x' cannot be made: '/dev/null' is not a directory"),
            // Paths whose last step would fail only after the missing parents were made.
            (dir + "/zz/../pp", true, "'\(dir)/zz/../pp' cannot be made: '..' follows '\(dir)/zz', which does not exist; give the path without it"),
            ("zz-missing/../pp", true, "'zz-missing/../pp' cannot be made: '..' follows 'zz-missing', which does not exist; give the path without it"),
            (dir + "/a/" + String(repeating: "x", count: 256), true,
             "'\(dir)/a/\(String(repeating: "x", count: 256))' cannot be made: a component is 256 bytes long, over the limit of 255"),
            (dir + "/" + String(repeating: "é", count: 128) + ".csv", false,
             "'\(dir)/\(String(repeating: "é", count: 128)).csv' cannot be made: a component is 260 bytes long, over the limit of 255"),
            (String(repeating: "d/", count: 2048), true, "'\(String(repeating: "d/", count: 2048))' is longer than 4095 bytes"),
        ]
        for c in cases {
            XCTAssertThrowsError(try FileSystem.checkedOutputPath(c.path, option: "--out", directory: c.directory), c.path) { error in
                XCTAssertEqual("\(error)", "--out: " + c.problem)
            }
        }
    }

    func testUsablePathsPassUnchanged() throws {
        let dir = try scratchDirectory("output-path-ok")
        defer { removeTree(dir) }
        XCTAssertEqual(try FileSystem.checkedOutputPath(dir, option: "--out", directory: true), dir)
        XCTAssertEqual(try FileSystem.checkedOutputPath(dir + "/new", option: "--out", directory: true), dir + "/new")
        XCTAssertEqual(try FileSystem.checkedOutputPath(dir + "/new/deeper/", option: "--out", directory: true), dir + "/new/deeper/")
        XCTAssertEqual(try FileSystem.checkedOutputPath("relative/x.sqlite", option: "--sqlite", directory: false), "relative/x.sqlite")
        // `..` after a directory that exists, and a component of exactly 255 bytes, are fine.
        XCTAssertEqual(try FileSystem.checkedOutputPath(dir + "/../new", option: "--out", directory: true), dir + "/../new")
        let longest = dir + "/" + String(repeating: "y", count: 255)
        XCTAssertEqual(try FileSystem.checkedOutputPath(longest, option: "--out", directory: true), longest)
    }

    func testJoinNeverDoublesTheSlash() {
        XCTAssertEqual(FileSystem.join("out", "a.csv"), "out/a.csv")
        XCTAssertEqual(FileSystem.join("out/", "a.csv"), "out/a.csv")
    }

    func testEscapedShowsControlCharactersAsEscapes() {
        XCTAssertEqual(Printable.escaped("a\u{1b}[31mb\tc\r\n"), "a\\u{1b}[31mb\\tc\\r\\n")
        XCTAssertEqual(Printable.escaped("plain é"), "plain é")
        XCTAssertEqual(Printable.quoted("x\u{7f}"), "'x\\u{7f}'")
        // Invisible marks: a second byte-order mark in a query file was echoed as `''`.
        XCTAssertEqual(Printable.quoted("\u{feff}"), "'\\u{feff}'")
        XCTAssertEqual(Printable.escaped("a\u{200b}b\u{2060}"), "a\\u{200b}b\\u{2060}")
    }
}
