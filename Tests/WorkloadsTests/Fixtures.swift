import XCTest
import Relational
import Workloads

/// XCTest brings in Foundation, whose `Predicate` would otherwise clash.
typealias Predicate = Relational.Predicate

/// Small hand-written datasets, one per shape, whose query results are checked by hand.
enum Fixtures {
    /// The seed's documents extended by a level so children, siblings and grandparents exist:
    ///
    ///     1 A Story ─┬─ 3 Chapter 1 ─┬─ 5 Scene 1 ── 7 Scene 1 notes
    ///                │               └─ 6 Scene 2
    ///                └─ 4 Chapter 2
    ///     2 Cake Recipe
    ///
    /// selected_documents = {5}.
    static func documents(selected: [Int64] = [5]) throws -> RelationCatalog {
        try catalog([
            MemoryTable(name: "documents", columns: ["id", "name", "parent_id"], rows: [
                [1, "A Story", .null],
                [2, "Cake Recipe", .null],
                [3, "A Story: Chapter 1", 1],
                [4, "A Story: Chapter 2", 1],
                [5, "Chapter 1, Scene 1", 3],
                [6, "Chapter 1, Scene 2", 3],
                [7, "Scene 1 notes", 5],
            ], indexedAttributes: ["id", "parent_id"]),
            MemoryTable(name: "selected_documents", columns: ["id"], rows: selected.map { [.integer($0)] }, indexedAttributes: ["id"]),
        ])
    }

    /// Seed 000's pets, added and removed (removed holds an existing pet, Nudges).
    static func pets() throws -> RelationCatalog {
        let columns: [Attribute] = ["id", "name", "animal"]
        return try catalog([
            MemoryTable(name: "pets", columns: columns, rows: [
                [1, "Mickey", "cat"], [2, "Fido", "dog"], [3, "Nudges", "cat"], [4, "Rover", "dog"],
            ], indexedAttributes: ["id", "animal"]),
            MemoryTable(name: "added", columns: columns, rows: [[5, "Pointy", "cat"], [6, "Rex", "dog"]], indexedAttributes: ["id"]),
            MemoryTable(name: "removed", columns: columns, rows: [[3, "Nudges", "cat"]], indexedAttributes: ["id"]),
        ])
    }

    /// Items 1–3, tags 1–4; item 2 (selected) has tags 1 and 3.
    static func todo() throws -> RelationCatalog {
        try catalog([
            MemoryTable(name: "items", columns: ["item_id", "title", "status"], rows: [
                [1, "Buy groceries", "pending"], [2, "Write report", "pending"], [3, "Fix bike", "done"],
            ], indexedAttributes: ["item_id"]),
            MemoryTable(name: "tags", columns: ["tag_id", "name"], rows: [
                [1, "work"], [2, "home"], [3, "urgent"], [4, "errand"],
            ], indexedAttributes: ["tag_id"]),
            MemoryTable(name: "item_tags", columns: ["item_id", "tag_id"], rows: [
                [1, 2], [1, 4], [2, 1], [2, 3], [3, 2],
            ], indexedAttributes: ["item_id", "tag_id"]),
            MemoryTable(name: "selected_item_ids", columns: ["item_id"], rows: [[2]], indexedAttributes: ["item_id"]),
        ])
    }

    /// Seed 001's employees and equipment, plus one more employee.
    static func employees() throws -> RelationCatalog {
        try catalog([
            MemoryTable(name: "employees", columns: ["id", "name"], rows: [
                [1, "Jane Doe"], [2, "John Smith"], [3, "Tim Smith"], [4, "Sally Jones"],
            ], indexedAttributes: ["id"]),
            MemoryTable(name: "equipment", columns: ["owner_id", "serial_number", "comment"], rows: [
                [1, "HQ1234", "laptop"], [1, "HQ5678", "monitor"], [2, "HQ9999", "phone"], [4, "HQ0001", "laptop"],
            ], indexedAttributes: ["owner_id"]),
        ])
    }

    static func catalog(for shape: Shape) throws -> RelationCatalog {
        switch shape {
        case .documents: return try documents()
        case .pets: return try pets()
        case .todo: return try todo()
        case .employees: return try employees()
        }
    }

    private static func catalog(_ tables: [MemoryTable]) -> RelationCatalog {
        RelationCatalog(sources: tables)
    }
}

/// The catalog directory of this source tree.
let catalogDirectory: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }
    return path + "/Workloads/queries"
}()

/// Asserts that parsing `text` fails with exactly `message` at `line`:`column`.
func assertQueryError(
    _ text: String, line: Int, column: Int, _ message: String, catalog: RelationCatalog,
    file: StaticString = #filePath, testLine: UInt = #line
) {
    do {
        _ = try Query.parse(text, catalog: catalog, file: "test.rq")
        XCTFail("expected \"\(message)\", but the query parsed", file: file, line: testLine)
    } catch let error as QueryError {
        XCTAssertEqual(error.file, "test.rq", file: file, line: testLine)
        XCTAssertEqual("\(error.line):\(error.column): \(error.message)", "\(line):\(column): \(message)", file: file, line: testLine)
    } catch {
        XCTFail("expected a QueryError, got \(error)", file: file, line: testLine)
    }
}
