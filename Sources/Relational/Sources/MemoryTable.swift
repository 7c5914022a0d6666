/// An in-memory table: a set of rows with a hash index on each declared attribute.
///
/// Rows are stored by position against the table's scheme. A cursor whose filter implies
/// `a ∈ {values}` for an indexed `a` visits only the rows in those index buckets;
/// `rowsExamined` counts every row a cursor looked at, so tests can tell a lookup from a scan.
public final class MemoryTable: SourceRelation {
    public let scheme: Scheme
    public let sourceName: String
    public let indexedAttributes: [Attribute]

    private var rows: [Row] = []
    private var positionOfRow: [Row: Int] = [:]
    /// Positions of the indexed columns, and for each a map value → row positions.
    /// (Parallel arrays, not a dictionary of dictionaries: iterating a dictionary's keys while
    /// mutating its values copies the whole dictionary on every insert.)
    private var indexColumns: [Int] = []
    private var indexBuckets: [[Value: [Int]]] = []

    /// Rows looked at by cursors since creation (or the last `resetStatistics`).
    public private(set) var rowsExamined = 0
    /// Rows handed out by cursors.
    public private(set) var rowsDelivered = 0

    public init(name: String, scheme: Scheme, indexedAttributes: [Attribute] = []) throws {
        self.sourceName = name
        self.scheme = scheme
        self.indexedAttributes = indexedAttributes
        for a in indexedAttributes {
            let column = try scheme.requireIndex(of: a, context: "index on table \(name)")
            if !indexColumns.contains(column) {
                indexColumns.append(column)
                indexBuckets.append([:])
            }
        }
    }

    /// A table from rows written in `columns` order (any order; stored sorted by name),
    /// like PLRelational's `MakeRelation`.
    public convenience init(
        name: String, columns: [Attribute], rows: [[Value]], indexedAttributes: [Attribute] = []
    ) throws {
        let scheme = try Scheme(columns)
        try self.init(name: name, scheme: scheme, indexedAttributes: indexedAttributes)
        let order = scheme.attributes.map { a in columns.firstIndex(of: a)! }
        for values in rows {
            guard values.count == columns.count else {
                throw RelationError.rowWidth(expected: columns.count, got: values.count, relation: name)
            }
            try add(Row(order.map { values[$0] }))
        }
    }

    public var count: Int { rows.count }

    /// Every row, in insertion order (deletions move the last row into the gap).
    public var allRows: [Row] { rows }

    public func resetStatistics() {
        rowsExamined = 0
        rowsDelivered = 0
    }

    // MARK: Changing rows

    /// Adds a row (values in scheme order); returns false if it was already present.
    @discardableResult
    public func add(_ row: Row) throws -> Bool {
        guard row.count == scheme.count else {
            throw RelationError.rowWidth(expected: scheme.count, got: row.count, relation: sourceName)
        }
        // One hash of the row both checks membership and inserts (the load's hot path).
        let position = rows.count
        var isNew = false
        insertIfAbsent(&positionOfRow[row, default: -1], position, &isNew)
        if !isNew { return false }
        rows.append(row)
        for k in indexColumns.indices {
            indexBuckets[k][row.values[indexColumns[k]], default: []].append(position)
        }
        return true
    }

    public func add<S: Sequence>(contentsOf newRows: S) throws where S.Element == Row {
        for row in newRows { try add(row) }
    }

    /// Reserves room for `n` more rows (bulk loads).
    /// Index maps are sized for `n` distinct values too (right for keys, generous otherwise),
    /// so a bulk load does not rehash them as they grow.
    public func reserveCapacity(_ n: Int) {
        rows.reserveCapacity(rows.count + n)
        positionOfRow.reserveCapacity(rows.count + n)
        for k in indexBuckets.indices { indexBuckets[k].reserveCapacity(indexBuckets[k].count + n) }
    }

    /// Deletes the rows matching the predicate; returns how many went.
    @discardableResult
    public func delete(where predicate: Predicate) throws -> Int {
        let test = try CompiledPredicate(predicate, scheme: scheme)
        let doomed = rows.filter { test.matches($0) }
        for row in doomed { remove(row) }
        return doomed.count
    }

    /// Sets attributes on the rows matching the predicate; returns how many rows matched.
    /// An update that makes two rows equal leaves one (relations are sets).
    @discardableResult
    public func update(where predicate: Predicate, set newValues: [Attribute: Value]) throws -> Int {
        let test = try CompiledPredicate(predicate, scheme: scheme)
        var assignments: [(Int, Value)] = []
        for (a, v) in newValues.sorted(by: { $0.key < $1.key }) {
            assignments.append((try scheme.requireIndex(of: a, context: "update of \(sourceName)"), v))
        }
        let matched = rows.filter { test.matches($0) }
        for row in matched { remove(row) }
        for row in matched {
            var changed = row.values
            for (i, v) in assignments { changed[i] = v }
            try add(Row(changed))
        }
        return matched.count
    }

    private func remove(_ row: Row) {
        guard let position = positionOfRow.removeValue(forKey: row) else { return }
        let last = rows.count - 1
        for k in indexColumns.indices {
            removeFromIndex(k, value: row.values[indexColumns[k]], position: position)
        }
        if position != last {
            let moved = rows[last]
            rows[position] = moved
            positionOfRow[moved] = position
            for k in indexColumns.indices {
                let value = moved.values[indexColumns[k]]
                if let i = indexBuckets[k][value]?.firstIndex(of: last) {
                    indexBuckets[k][value]![i] = position
                }
            }
        }
        rows.removeLast()
    }

    private func removeFromIndex(_ k: Int, value: Value, position: Int) {
        guard var bucket = indexBuckets[k].removeValue(forKey: value),
            let i = bucket.firstIndex(of: position)
        else { return }
        bucket.swapAt(i, bucket.count - 1)
        bucket.removeLast()
        if !bucket.isEmpty { indexBuckets[k][value] = bucket }
    }

    private func bucketIndex(for attribute: Attribute) -> Int? {
        guard let column = scheme.index(of: attribute) else { return nil }
        return indexColumns.firstIndex(of: column)
    }

    // MARK: Reading rows

    /// The indexed attribute whose implied value set touches the fewest rows, with those
    /// rows' positions; nil when no index answers the filter.
    private func indexedCandidates(_ filter: Predicate) -> [Int]? {
        var best: [Int]?
        for (attribute, values) in filter.impliedValueSets {
            guard let k = bucketIndex(for: attribute) else { continue }
            let index = indexBuckets[k]
            var positions: [Int] = []
            for v in values { positions.append(contentsOf: index[v] ?? []) }
            if best == nil || positions.count < best!.count { best = positions }
        }
        return best
    }

    public func canFetchSelectively(_ filter: Predicate) -> Bool {
        filter.isUnsatisfiable || indexedCandidates(filter) != nil
    }

    public func estimatedCount(filter: Predicate?) -> Int? {
        guard let filter else { return rows.count }
        if filter.isUnsatisfiable { return 0 }
        return indexedCandidates(filter)?.count ?? rows.count
    }

    /// Rows whose `attribute` equals `value`, through the index (no scan).
    public func lookup(_ attribute: Attribute, _ value: Value) throws -> [Row] {
        guard let k = bucketIndex(for: attribute) else {
            throw RelationError.unsupported("table \(sourceName) has no index on '\(attribute)'")
        }
        let positions = indexBuckets[k][value] ?? []
        rowsExamined += positions.count
        rowsDelivered += positions.count
        return positions.map { rows[$0] }
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        guard let filter else {
            return MemoryTableCursor(table: self, rows: rows, positions: nil, test: nil)
        }
        let test = try CompiledPredicate(filter, scheme: scheme)
        if filter.isUnsatisfiable {
            return MemoryTableCursor(table: self, rows: [], positions: [], test: test)
        }
        return MemoryTableCursor(table: self, rows: rows, positions: indexedCandidates(filter), test: test)
    }

    fileprivate func record(examined: Int, delivered: Int) {
        rowsExamined += examined
        rowsDelivered += delivered
    }
}

/// Walks either every row or the candidate positions from an index, testing the filter.
private final class MemoryTableCursor: RowCursor {
    private let table: MemoryTable
    private let rows: [Row]
    private let positions: [Int]?
    private let test: CompiledPredicate?
    private var next = 0

    init(table: MemoryTable, rows: [Row], positions: [Int]?, test: CompiledPredicate?) {
        self.table = table
        self.rows = rows
        self.positions = positions
        self.test = test
    }

    func next(maxRows: Int) throws -> [Row] {
        let total = positions?.count ?? rows.count
        var out: [Row] = []
        var examined = 0
        while next < total && out.count < maxRows {
            let row = rows[positions?[next] ?? next]
            next += 1
            examined += 1
            if test?.matches(row) ?? true { out.append(row) }
        }
        table.record(examined: examined, delivered: out.count)
        return out
    }
}

/// Sets a freshly defaulted dictionary slot (value -1) to `position`, reporting whether it
/// was new. Taking the slot `inout` through `subscript(_:default:)` hashes the key once.
@inline(__always)
private func insertIfAbsent(_ slot: inout Int, _ position: Int, _ isNew: inout Bool) {
    if slot == -1 {
        slot = position
        isNew = true
    }
}
