import Relational
import QueryEngine

/// Small hand-built datasets shared by the engine tests.
enum Fixtures {
    /// documents(id, name, parent_id): ids 1...n; every tenth document (1, 11, 21, ...) is a
    /// root, each other document's parent is the previous id. Indexed on id and parent_id.
    static func documents(_ n: Int) throws -> MemoryTable {
        let table = try MemoryTable(
            name: "documents", scheme: Scheme(["id", "name", "parent_id"]), indexedAttributes: ["id", "parent_id"])
        table.reserveCapacity(n)
        for i in 1...n {
            let parent: Value = i % 10 == 1 ? .null : .integer(Int64(i - 1))
            // Scheme order is id, name, parent_id.
            try table.add(Row([.integer(Int64(i)), .text("doc \(i)"), parent]))
        }
        return table
    }

    static func literal(_ name: String, _ columns: [Attribute], _ rows: [[Value]]) throws -> Relation {
        Relation(source: try MemoryTable(name: name, columns: columns, rows: rows)).named(name)
    }

    /// Seed 000's selectedDocumentParentMetadata over the given documents.
    static func selectedDocumentParent(documents: MemoryTable, selected: Int64) throws -> Relation {
        let docs = Relation(source: documents)
        let selectedIDs = try literal("selected_documents", ["id"], [[.integer(selected)]])
        let selectedDoc = try selectedIDs.join(docs).named("selectedDocumentMetadata")
        let parentID = try selectedDoc.project(["parent_id"]).rename(["parent_id": "id"]).named("selectedDocumentParentID")
        return try parentID.join(docs).named("selectedDocumentParentMetadata")
    }

    /// Rows delivered by every node that reads `source` (the original and its copies).
    static func rowsDelivered(by source: String, in run: QueryRun) -> Int {
        run.counters.perNode.filter { $0.label == source }.reduce(0) { $0 + $1.rowsOut }
    }
}

extension Array where Element == Row {
    var asSet: Set<Row> { Set(self) }
}
