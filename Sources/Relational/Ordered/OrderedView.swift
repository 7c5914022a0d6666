/// A relation's contents kept as an array sorted by chosen attributes, maintained from the
/// relation's RowChanges with an order-statistics list: a change of k rows costs
/// O(k log n), never a re-sort.
public struct OrderedView {
    public let scheme: Scheme
    public let ordering: RowOrdering
    private var list: OrderStatisticsList<Row>

    public init(scheme: Scheme, orderedBy attributes: [Attribute], rows: some Sequence<Row>) throws {
        self.scheme = scheme
        let ordering = try RowOrdering(attributes, in: scheme)
        self.ordering = ordering
        self.list = OrderStatisticsList(rows, less: ordering.less)
    }

    public var count: Int { list.count }

    /// The sorted array.
    public var rows: [Row] { list.elements }

    public subscript(index: Int) -> Row { list[index] }

    /// Applies an exact RowChange and returns its index-level form. Fails, changing nothing,
    /// when the change is not exact for the view (a removed row absent, an added row present).
    public mutating func apply(_ change: RowChange) throws -> OrderedChange {
        for row in change.removed where list.rank(of: row) == nil {
            throw OrderedViewError("a removed row is not in the view: \(RowChange.render(row, scheme: scheme))")
        }
        for row in change.added where list.rank(of: row) != nil {
            throw OrderedViewError("an added row is already in the view: \(RowChange.render(row, scheme: scheme))")
        }
        let paired = MovePairing.pairs(removed: change.removed, added: change.added, ordering: ordering)
        // Old indices are ranks before anything is taken out; new ones ranks after everything is in.
        let removalIndex = Dictionary(uniqueKeysWithValues: change.removed.map { ($0, list.rank(of: $0) ?? -1) })
        for row in change.removed { list.remove(row) }
        for row in change.added { list.insert(row) }
        func newIndex(_ row: Row) -> Int { list.rank(of: row) ?? -1 }
        return OrderedChange(
            removals: paired.removed.map { .init(index: removalIndex[$0] ?? -1, row: $0) },
            insertions: paired.added.map { .init(index: newIndex($0), row: $0) },
            moves: paired.moves.map { .init(from: removalIndex[$0.old] ?? -1, to: newIndex($0.new), old: $0.old, new: $0.new) })
    }
}
