/// A rule's result rows, already in memory, handed to its parent's rules as a source. Cheaper
/// to make than an indexed `MemoryTable` (see `ChangeDerivation.deltaTable`), which matters
/// when the rows were computed without the engine and will be read without it too; when the
/// engine does read it, it scans (the rows are few) and never claims a selective fetch.
public final class DeltaRows: SourceRelation {
    public let scheme: Scheme
    public let sourceName: String
    public let rows: [Row]

    public init(name: String, scheme: Scheme, rows: [Row]) {
        self.scheme = scheme
        self.sourceName = name
        self.rows = rows
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        guard let filter else { return ArrayCursor(rows) }
        let test = try CompiledPredicate(filter, scheme: scheme)
        return ArrayCursor(rows.filter(test.matches))
    }

    public func canFetchSelectively(_ filter: Predicate) -> Bool { false }

    public func estimatedCount(filter: Predicate?) -> Int? { rows.count }
}
