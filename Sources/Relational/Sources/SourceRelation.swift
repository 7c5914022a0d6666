/// A relation that holds rows itself (a memory table, an SQLite table) and can be asked
/// for only the rows matching a filter.
///
/// Contract: a cursor returns exactly the rows that satisfy `filter` (all rows when nil),
/// each once. `canFetchSelectively` tells whether that costs less than a scan (an index
/// answers the filter). `estimatedCount` is quick and approximate; nil means the source
/// cannot estimate, which the engine treats as larger than anything.
public protocol SourceRelation: AnyObject {
    var scheme: Scheme { get }
    var sourceName: String { get }
    func makeCursor(filter: Predicate?) throws -> any RowCursor
    func canFetchSelectively(_ filter: Predicate) -> Bool
    func estimatedCount(filter: Predicate?) -> Int?
    /// True only when the source can tell cheaply, without fetching, that no row satisfies
    /// `filter` (a memory table from its columns' lowest and highest values); false when it
    /// cannot tell. Not an estimate: `estimatedCount` does not use it.
    func provablyMatchesNothing(_ filter: Predicate) -> Bool
    /// A bound on the values `attribute` holds, in the total value order (a memory table's
    /// lowest and highest, kept per column), found without fetching; nil when the source
    /// cannot tell cheaply or holds no row.
    func valueRange(of attribute: Attribute) -> ValueRange?
    /// Non-nil when `estimatedCount` answers from the source's contents alone, which stay
    /// the same while this value is the same: an estimate kept with it may be given again
    /// later (a prepared query's next run) without asking. Nil (the default): ask anew.
    var estimateVersion: Int? { get }
}

extension SourceRelation {
    public func provablyMatchesNothing(_ filter: Predicate) -> Bool { filter.isUnsatisfiable }
    public func valueRange(of attribute: Attribute) -> ValueRange? { nil }
    public var estimateVersion: Int? { nil }
}

/// Delivers a source's rows in batches; an empty batch means the cursor is drained.
public protocol RowCursor: AnyObject {
    func next(maxRows: Int) throws -> [Row]
}

extension SourceRelation {
    /// All rows matching the filter, drained from one cursor.
    public func fetchAll(filter: Predicate? = nil) throws -> [Row] {
        let cursor = try makeCursor(filter: filter)
        var out: [Row] = []
        while true {
            let batch = try cursor.next(maxRows: 4096)
            if batch.isEmpty { return out }
            out.append(contentsOf: batch)
        }
    }
}

/// A cursor over rows already in memory.
public final class ArrayCursor: RowCursor {
    private let rows: [Row]
    private var position = 0

    public init(_ rows: [Row]) { self.rows = rows }

    public func next(maxRows: Int) throws -> [Row] {
        let end = min(rows.count, position + max(1, maxRows))
        defer { position = end }
        return Array(rows[position..<end])
    }
}
