/// Rows held as columns: one `ValueColumn` per attribute of a scheme, in scheme order, all
/// of the same length. A memory table keeps its rows in one, and bulk loaders build one
/// and hand it over whole (`MemoryTable.append(_:)`), so no `Row` is made per row.
///
/// Value semantics: a copy is a snapshot that shares storage until either side changes.
public struct ColumnStore: Sendable {
    public private(set) var columns: [ValueColumn]
    /// Rows held (kept apart from the columns so that a zero-width store counts rows too).
    public private(set) var count: Int

    /// An empty store of `width` columns.
    public init(width: Int) {
        columns = Array(repeating: ValueColumn(), count: width)
        count = 0
    }

    /// Columns built elsewhere (e.g. by a generator); they must have one length.
    public init(columns: [ValueColumn]) throws {
        let lengths = Set(columns.map(\.count))
        guard lengths.count <= 1 else {
            throw RelationError.unsupported("columns of different lengths \(columns.map(\.count)) cannot form rows")
        }
        self.columns = columns
        self.count = columns.first?.count ?? 0
    }

    /// A zero-width store of `count` rows (only 0 or 1 can be a set, but a store may hold more).
    init(emptyRows count: Int) {
        columns = []
        self.count = count
    }

    /// Rows in the store's column order.
    public init(width: Int, rows: [Row]) throws {
        self.init(width: width)
        reserveCapacity(rows.count)
        for row in rows { try append(row) }
    }

    public var width: Int { columns.count }

    @inline(__always)
    public func value(row: Int, column: Int) -> Value { columns[column].value(at: row) }

    public func row(at position: Int) -> Row {
        var values: [Value] = []
        values.reserveCapacity(columns.count)
        for i in columns.indices { values.append(columns[i].value(at: position)) }
        return Row(values)
    }

    /// Every row, in stored order.
    public var rows: [Row] {
        (0..<count).map { row(at: $0) }
    }

    /// Seals every column (see `ValueColumn.seal`).
    public mutating func seal() {
        for i in columns.indices { columns[i].seal() }
    }

    public mutating func reserveCapacity(_ n: Int) {
        for i in columns.indices { columns[i].reserveCapacity(n) }
    }

    /// Appends a row (values in column order).
    public mutating func append(_ row: Row) throws {
        guard row.count == columns.count else {
            throw RelationError.rowWidth(expected: columns.count, got: row.count, relation: "column store")
        }
        for i in columns.indices { columns[i].append(row.values[i]) }
        count += 1
    }

    // MARK: Internal (the memory table's upkeep)

    mutating func appendStored(_ stored: [(ValueTag, Int64)]) {
        for i in columns.indices { columns[i].appendStored(stored[i].0, stored[i].1) }
        count += 1
    }

    mutating func interned(_ row: Row) -> [(ValueTag, Int64)] {
        var out: [(ValueTag, Int64)] = []
        out.reserveCapacity(columns.count)
        for i in columns.indices { out.append(columns[i].stored(row.values[i])) }
        return out
    }

    mutating func moveRow(from: Int, to: Int) {
        for i in columns.indices { columns[i].copyValue(from: from, to: to) }
    }

    mutating func removeLast() {
        for i in columns.indices { columns[i].removeLast() }
        count -= 1
    }

    mutating func gather(_ positions: [Int]) {
        for i in columns.indices { columns[i].gather(positions) }
        count = positions.count
    }

    /// Every column, borrowed for hot loops (no copy of a column per access). The store
    /// must not change inside `body`.
    @inline(__always)
    func withReaders<R>(_ body: (RowReader) throws -> R) rethrows -> R {
        try columns.withUnsafeBufferPointer { try body(RowReader(columns: $0)) }
    }
}

/// Every column of a store, borrowed: row hashes and row equality for the membership table.
struct RowReader {
    let columns: UnsafeBufferPointer<ValueColumn>

    var count: Int { columns.first?.count ?? 0 }

    /// The hash of the row at `position`, consistent with `hash(ofStored:)`.
    @inline(__always)
    func rowHash(_ position: Int) -> UInt64 {
        var h = StorageHash.rowSeed
        for i in columns.indices { h = StorageHash.combine(h, columns[i].key(at: position).hash) }
        return h
    }

    /// True when the row at `position` is the row with these stored forms.
    @inline(__always)
    func rowIs(_ position: Int, _ stored: [(ValueTag, Int64)]) -> Bool {
        for i in columns.indices where columns[i].key(at: position) != ValueKey(stored: stored[i].0, stored[i].1) { return false }
        return true
    }

    /// True when rows `a` and `b` are equal.
    @inline(__always)
    func rowsEqual(_ a: Int, _ b: Int) -> Bool {
        for i in columns.indices where columns[i].key(at: a) != columns[i].key(at: b) { return false }
        return true
    }
}

/// The hash a row with these stored forms has (see `RowReader.rowHash`).
@inline(__always)
func hash(ofStored stored: [(ValueTag, Int64)]) -> UInt64 {
    var h = StorageHash.rowSeed
    for (tag, payload) in stored { h = StorageHash.combine(h, ValueKey(stored: tag, payload).hash) }
    return h
}
