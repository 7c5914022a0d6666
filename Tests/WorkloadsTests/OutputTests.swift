import XCTest
import Relational
import FileSupport
import SQLiteStore
@testable import Workloads

final class OutputTests: XCTestCase {
    private func scratchPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.path + "/workloads-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir + "/" + name
    }

    func testCSVEncodingKeepsTypesApart() throws {
        let scheme = try Scheme(["a", "b"])
        let rows = [Row([.null, ""]), Row([42, "say \"hi\", ok"]), Row([2.5, .blob([0, 255])]), Row([3.0, "line\nbreak"])]
        XCTAssertEqual(CSVWriter.text(scheme: scheme, rows: rows), """
            a,b
            ,""
            42,"say ""hi"", ok"
            2.5,x'00ff'
            3.0,"line
            break"

            """)
    }

    func testCSVDirectoryIsWrittenWholeAndRefusesToOverwrite() throws {
        let dataset = try Shape.documents.generate(rows: 30, seed: 3)
        let dir = scratchPath("csv-\(UInt32.random(in: 0...UInt32.max))")
        try dataset.writeCSV(to: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(files, ["documents.csv", "manifest.txt", "selected_documents.csv"])
        let text = try String(contentsOfFile: dir + "/documents.csv", encoding: .utf8)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 31)
        XCTAssertEqual(lines[0], "id,name,parent_id")
        XCTAssertEqual(lines[1], "1,\"Document 1\",", "a root's parent_id is written as an empty field (null)")
        let manifest = try String(contentsOfFile: dir + "/manifest.txt", encoding: .utf8)
        XCTAssertTrue(manifest.contains("content-hash: \(dataset.contentHashHex)"))
        XCTAssertThrowsError(try dataset.writeCSV(to: dir)) { error in
            XCTAssertEqual("\(error)", "'\(dir)' already exists and is not empty; choose a new directory")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileSystem.parentDirectory(of: dir)).filter { $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [])
    }

    func testSQLiteFileHoldsTheRowsAndIndexes() throws {
        let dataset = try Shape.todo.generate(rows: 200, seed: 6)
        let path = scratchPath("todo-\(UInt32.random(in: 0...UInt32.max)).sqlite")
        try dataset.writeSQLite(to: path, analyze: true)
        let db = try SQLiteDatabase(path: path, readOnly: true)
        XCTAssertEqual(try db.tableNames(), ["item_tags", "items", "selected_item_ids", "tags"])
        for t in dataset.tables {
            let table = try db.table(named: t.name)
            XCTAssertEqual(table.scheme, t.scheme)
            XCTAssertEqual(Set(try table.allRows()), Set(t.rows), t.name)
            XCTAssertEqual(table.leadingIndexedAttributes.intersection(t.indexedAttributes), Set(t.indexedAttributes), t.name)
        }
        XCTAssertFalse(try db.query("SELECT * FROM sqlite_stat1").isEmpty, "ANALYZE ran")
        XCTAssertThrowsError(try dataset.writeSQLite(to: path)) { error in
            XCTAssertEqual("\(error)", "'\(path)' already exists; pass --force to replace it")
        }
        try dataset.writeSQLite(to: path, replace: true)
    }
}
