/// The net effect of a transaction on one source: rows that are there now and were not
/// (`added`), and rows that were there and are not (`removed`). Disjoint by construction.
public struct SourceDelta {
    public let source: any MutableSource
    public private(set) var added: Set<Row> = []
    public private(set) var removed: Set<Row> = []

    public init(source: any MutableSource) { self.source = source }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    /// Records that `row` entered the source (it was absent just before).
    public mutating func recordInsert(_ row: Row) {
        if removed.remove(row) == nil { added.insert(row) }
    }

    /// Records that `row` left the source (it was present just before).
    public mutating func recordRemove(_ row: Row) {
        if added.remove(row) == nil { removed.insert(row) }
    }
}
