import Foundation
import XCTest
import Relational
@testable import SQLiteStore

/// Bad paths fail in `init` with a message naming the path, never crash, and leave nothing behind.
final class OpenErrorTests: XCTestCase {
    func testFileThatIsNotADatabase() throws {
        let (dir, cleanup) = try makeTemporaryDirectory()
        defer { cleanup() }
        let path = dir + "/notes.txt"
        let content = Data(String(repeating: "this is not a database\n", count: 200).utf8)
        try content.write(to: URL(fileURLWithPath: path))
        for create in [false, true] {
            assertSQLiteError(["'\(path)' is not an SQLite database", "file is not a database"], kind: .notADatabase) {
                try SQLiteDatabase(path: path, create: create)
            }
        }
        assertSQLiteError(["not an SQLite database"], kind: .notADatabase) { try SQLiteDatabase(path: path, readOnly: true) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), content, "the file must be untouched")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["notes.txt"], "no journal or stray files")
    }

    func testMissingDirectory() throws {
        let (dir, cleanup) = try makeTemporaryDirectory()
        defer { cleanup() }
        let path = dir + "/no/such/dir/db.sqlite"
        assertSQLiteError(["cannot create database '\(path)'", "directory '\(dir)/no/such/dir' does not exist"], kind: .open) {
            try SQLiteDatabase(path: path, create: true)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/no"))
    }

    func testMissingFileWithoutCreate() throws {
        let (dir, cleanup) = try makeTemporaryDirectory()
        defer { cleanup() }
        let path = dir + "/absent.sqlite"
        assertSQLiteError(["'\(path)'", "does not exist", "create: true"], kind: .open) { try SQLiteDatabase(path: path) }
        assertSQLiteError(["does not exist"], kind: .open) { try SQLiteDatabase(path: path, readOnly: true) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no stray empty file")
    }

    func testDirectoryInsteadOfFile() throws {
        let (dir, cleanup) = try makeTemporaryDirectory()
        defer { cleanup() }
        assertSQLiteError(["'\(dir)'", "is a directory"], kind: .open) { try SQLiteDatabase(path: dir, create: true) }
    }

    /// A location nobody can create files in (procfs refuses even root), and a read-only
    /// connection that is asked to write.
    func testReadOnlyLocationAndReadOnlyConnection() throws {
        let path = "/proc/querytestbed-\(getpid()).sqlite"
        assertSQLiteError(["cannot open or create database '\(path)'", "unable to open database file"], kind: .open) {
            try SQLiteDatabase(path: path, create: true)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))

        let (dir, cleanup) = try makeTemporaryDirectory()
        defer { cleanup() }
        let file = dir + "/ro.sqlite"
        do {
            let db = try SQLiteDatabase(path: file, create: true)
            try db.createTable("t", scheme: try scheme("a")).add(Row([1]))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let db = try SQLiteDatabase(path: file, readOnly: true)
        let t = try db.table(named: "t")
        XCTAssertEqual(try t.fetchAll(), [Row([1])])
        assertSQLiteError(["readonly database"], kind: .readOnly) { try t.add(Row([2])) }
        assertSQLiteError(["readonly database"], kind: .readOnly) { try db.createTable("u", scheme: try scheme("a")) }
        XCTAssertEqual(try t.fetchAll(), [Row([1])])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
        assertSQLiteError(["readOnly and create"], kind: .usage) { try SQLiteDatabase(path: file, readOnly: true, create: true) }
    }

    func testUnknownTableAndSchemeMismatch() throws {
        let db = try SQLiteDatabase.inMemory()
        assertSQLiteError(["no table named 'nope'", ":memory:"], kind: .noSuchTable) { try db.table(named: "nope") }
        try db.createTable("t", scheme: try scheme("a", "b"))
        assertSQLiteError(["table 'T' in ':memory:' has scheme [a, b], not the requested [a]"], kind: .schemeMismatch) {
            try db.getOrCreateTable("T", scheme: try scheme("a"))
        }
        XCTAssertEqual(try db.getOrCreateTable("t", scheme: try scheme("a", "b")).scheme, try scheme("a", "b"))
        assertSQLiteError(["CREATE TABLE \"t\"", "table \"t\" already exists"], kind: .execute) {
            try db.createTable("t", scheme: try scheme("a"))
        }
        XCTAssertThrowsError(try db.table(named: "t").add(Row([1]))) { error in
            XCTAssertEqual((error as? RelationError)?.description, "t: row has 1 values but the scheme has 2 attributes")
        }
        XCTAssertThrowsError(try db.createTable("u", scheme: try scheme("a"), primaryKey: ["z"])) { error in
            XCTAssertTrue("\(error)".contains("unknown attribute 'z'"), "\(error)")
        }
    }
}
