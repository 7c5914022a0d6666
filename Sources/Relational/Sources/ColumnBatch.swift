/// A batch of a memory table's rows as columns plus a selection vector: the batch's rows
/// are `store`'s rows at `selection[0]`, `selection[1]`, ... in delivery order. `store` is
/// a snapshot of the whole table taken when the cursor was made; it shares the table's
/// storage (no column is copied per batch), so a consumer reads values straight from the
/// typed columns — e.g. an integer-only column's payloads are the integers — and only
/// decodes what it needs. Text and blobs are codes in each column's dictionary; equal
/// codes mean equal values within one column.
public struct ColumnBatch: Sendable {
    public let store: ColumnStore
    public let selection: [Int]
    /// The cursor's filter, which every row of the batch satisfies (nil: no filter), so a
    /// consumer testing the same predicate again can skip it.
    public let satisfies: Predicate?
    /// A column whose values are distinct in `store` (the table's key index answering
    /// membership when the cursor was made), else nil: a consumer may take a row's
    /// position as its key there.
    public let distinctColumn: Int?

    public var count: Int { selection.count }
    public var isEmpty: Bool { selection.isEmpty }

    /// The value of the batch's `k`-th row in column `column` (scheme position).
    public func value(_ k: Int, column: Int) -> Value {
        store.value(row: selection[k], column: column)
    }

    /// The batch's `k`-th row, decoded.
    public func row(_ k: Int) -> Row { store.row(at: selection[k]) }

    /// Every row of the batch, decoded (what a `RowCursor` would have returned).
    public var rows: [Row] { selection.map { store.row(at: $0) } }
}

/// Delivers a memory table's matching rows as `ColumnBatch`es: the same rows, in the same
/// order and with the same counter updates as the table's `RowCursor` for the same filter
/// and batch sizes. Each batch holds up to `maxRows` rows; an empty batch means drained.
public final class ColumnBatchCursor {
    @exclusivity(unchecked) private var scan: ColumnBatchScan

    init(_ scan: TableScan) { self.scan = ColumnBatchScan(scan) }

    /// True when the cursor has looked at every row it may deliver: `next` would return an
    /// empty batch (and count nothing). A batch shorter than asked does not tell: the
    /// filter may have rejected rows of a run that did not reach the end.
    public var isDrained: Bool { scan.isDrained }

    public func next(maxRows: Int) -> ColumnBatch { scan.next(maxRows: maxRows) }
}

/// `ColumnBatchCursor`'s walk as a value (the cursor wraps one): the same batches, rows and
/// counts, for a caller that drains it in one place (the runner's drain loop). A cursor is
/// an object made and freed per fetch; a selective query's run opens a few.
public struct ColumnBatchScan {
    private var scan: TableScan

    init(_ scan: TableScan) { self.scan = scan }

    /// The next batch of up to `maxRows` rows; empty when drained.
    public mutating func next(maxRows: Int) -> ColumnBatch {
        let selection = scan.nextSelection(maxRows: maxRows)
        return ColumnBatch(store: scan.store, selection: selection, satisfies: scan.filter, distinctColumn: scan.distinctColumn)
    }

    /// As `ColumnBatchCursor.isDrained`.
    public var isDrained: Bool { scan.isDrained }
}
