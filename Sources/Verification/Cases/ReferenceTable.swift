import Relational

/// A case table as the reference evaluator reads it: the case's own rows, handed over as
/// they are. The evaluator never reads a `MemoryTable`, so a bug in the memory tables'
/// storage, indexes or filtered cursors (which the engine uses) cannot reach the oracle.
final class ReferenceTable: SourceRelation {
    let scheme: Scheme
    let sourceName: String
    private let rows: [Row]

    init(_ table: CaseTable) {
        scheme = table.scheme
        sourceName = table.name
        rows = table.rows
    }

    func makeCursor(filter: Predicate?) throws -> any RowCursor {
        guard filter == nil else {
            throw RelationError.unsupported("reference table '\(sourceName)' is read whole, never filtered")
        }
        return ArrayCursor(rows)
    }

    func canFetchSelectively(_ filter: Predicate) -> Bool { false }

    func estimatedCount(filter: Predicate?) -> Int? { nil }
}
