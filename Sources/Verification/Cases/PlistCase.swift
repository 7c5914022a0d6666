import FileSupport
import PlistStore
import Relational
import Workloads

/// A case's tables written as a property-list database (in a temporary directory) and its
/// outputs built over the opened relations. Each table's key is an attribute whose values
/// are distinct in its rows (an indexed one first), so key filters reach the directory
/// relations' selective path; a table with no such attribute is keyed by the whole row.
/// Layouts: `plist-file` and `plist-directory` store every table so; `plist-database`
/// alternates (even-numbered tables directories, odd ones files), since case tables are
/// far below the dataset layout's size threshold.
final class PlistCase {
    let database: PlistDatabase
    let outputs: [Relation]
    private let directory: TemporaryDirectory

    init(_ graph: CaseGraph, backend: Backend) throws {
        directory = try TemporaryDirectory(prefix: "testbed-case")
        let root = FileSystem.join(directory.path, "case")
        let declarations = graph.tables.enumerated().map { i, t in
            let kind: PlistRelationDeclaration.Kind
            // A directory relation is keyed by an attribute; a table of none is a file.
            switch t.scheme.attributes.isEmpty ? .file : backend.plistLayout {
            case .file?: kind = .file
            case .directory?: kind = .directory
            case .database?, nil: kind = i % 2 == 0 ? .directory : .file
            }
            return PlistRelationDeclaration(name: t.name, kind: kind, scheme: t.scheme, primaryKey: Self.key(of: t))
        }
        let created = try PlistDatabase.create(root, declarations)
        for (t, relation) in zip(graph.tables, created.relations) { try relation.insertRows(t.rows) }
        try created.saveRelations()
        database = try PlistDatabase.open(root)
        outputs = try graph.relations(over: database.relations.map { Relation(source: $0) })
    }

    static func key(of table: CaseTable) -> [Attribute] {
        let candidates = table.indexedAttributes + table.scheme.attributes.filter { !table.indexedAttributes.contains($0) }
        for a in candidates {
            guard let i = table.scheme.index(of: a) else { continue }
            if Set(table.rows.map { $0[i] }).count == table.rows.count { return [a] }
        }
        return table.scheme.attributes
    }
}
