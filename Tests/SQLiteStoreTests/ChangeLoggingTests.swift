import Foundation
import Relational
import XCTest
@testable import SQLiteStore

/// The change-logging database: nothing reaches the file before save; after save the file
/// equals the in-memory view; a failure between save's steps leaves the file as before.
final class ChangeLoggingTests: XCTestCase {
    private var path = ""

    override func setUpWithError() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("changelog-\(UUID().uuidString).sqlite").path
        let db = try SQLiteDatabase(path: path, create: true)
        let a = try db.createTable("a", scheme: Scheme(["id", "name"]), primaryKey: ["id"])
        try a.add([Row([1, "one"]), Row([2, "two"])])
        _ = try db.createTable("b", scheme: Scheme(["x"]))
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: path) }

    /// The file's rows per table, read through a separate connection.
    private func fileRows() throws -> [Set<Row>] {
        let reader = try SQLiteDatabase(path: path, readOnly: true)
        return [Set(try reader.table(named: "a").allRows()), Set(try reader.table(named: "b").allRows())]
    }

    private func edit(_ log: ChangeLoggingDatabase) throws -> [ChangeLoggingTable] {
        let a = try log.table(named: "a")
        let b = try log.table(named: "b")
        try a.removeRows([Row([1, "one"])])
        try a.insertRows([Row([1, "uno"]), Row([3, "three"])])
        try b.insertRows([Row([.null]), Row([7])])
        return [a, b]
    }

    func testNothingReachesTheFileBeforeSaveAndTheFileEqualsTheViewAfter() throws {
        let before = try fileRows()
        let log = ChangeLoggingDatabase(try SQLiteDatabase(path: path))
        let tables = try edit(log)
        let view = try tables.map { Set(try $0.fetchAll()) }
        XCTAssertEqual(view[0], [Row([1, "uno"]), Row([2, "two"]), Row([3, "three"])])
        XCTAssertEqual(Set(try tables[0].fetchAll(filter: Attribute("id") *== 1)), [Row([1, "uno"])])
        XCTAssertEqual(try fileRows(), before)
        XCTAssertTrue(log.hasUnsavedChanges)
        try log.save()
        XCTAssertFalse(log.hasUnsavedChanges)
        XCTAssertEqual(try fileRows(), view)
        XCTAssertEqual(try tables.map { Set(try $0.fetchAll()) }, view)
    }

    func testAFailureBetweenSaveStepsLeavesTheFileAsBefore() throws {
        let before = try fileRows()
        let log = ChangeLoggingDatabase(try SQLiteDatabase(path: path))
        let tables = try edit(log)
        let view = try tables.map { Set(try $0.fetchAll()) }
        struct Crash: Error {}
        log.afterTableWritten = { done in if done == 1 { throw Crash() } }
        XCTAssertThrowsError(try log.save())
        XCTAssertEqual(try fileRows(), before, "half a save reached the file")
        XCTAssertEqual(try tables.map { Set(try $0.fetchAll()) }, view, "the log was lost")
        log.afterTableWritten = nil
        try log.save()
        XCTAssertEqual(try fileRows(), view)
    }
}
