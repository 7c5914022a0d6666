/// An in-memory table: a set of rows, stored as columns, with a hash index on each
/// declared attribute.
///
/// Storage (see `ColumnStore`, `ValueColumn`): one column per attribute, each a tag byte
/// plus an 8-byte payload per value, with text and blobs interned per column. Nothing
/// else holds a copy of a row or a value:
/// - membership (no duplicate rows) goes through an index whose column holds distinct
///   values (an id): a row is present only if the one row with its key equals it. Without
///   such an index (or once an add makes the column non-unique) it is a hash table of row
///   positions keyed by a hash of the row, verified against the columns (`PositionTable`,
///   4 bytes a slot);
/// - each index maps a value to its positions (`ColumnIndex`: 4 bytes a row plus 4 bytes
///   a slot per distinct value), keyed by the value's equality key, so `3` finds `3.0`.
/// The values keep README's semantics: null is an ordinary value, integers and reals
/// compare by numeric value, text by its bytes.
///
/// Reading: `makeCursor(filter:)` yields `[Row]` batches; `makeBatchCursor(filter:)`
/// yields `ColumnBatch`es — the table's columns (a snapshot sharing storage, never copied
/// per batch) plus a selection vector of the positions delivered — for consumers that
/// work on columns. Both visit the same candidates in the same order and count alike: a
/// cursor whose filter implies `a ∈ {values}` for an indexed `a` visits only the rows in
/// those index groups; `rowsExamined` counts every row a cursor looked at, `rowsDelivered`
/// every row it handed out, so tests can tell a lookup from a scan. A cursor reads the
/// rows as they were when it was made.
///
/// Order: rows are kept in insertion order; deleting a row moves the last row into its gap.
public final class MemoryTable: SourceRelation {
    public let scheme: Scheme
    public let sourceName: String
    public let indexedAttributes: [Attribute]
    /// Attributes no two rows share, once declared (`declarePrimaryKey`); empty: only whole
    /// rows are distinct. The table does not check its own changes against it: a
    /// `TransactionalDatabase` refuses a write that would break it before it writes.
    public private(set) var primaryKey: [Attribute] = []

    // The state a cursor reads is read and written without the runtime exclusivity check
    // (the table is used from one thread at a time, and no access overlaps another): the
    // checks cost about 2,700 instructions a prepared run of the seed query, most of them
    // in a scan's set-up and its batches.
    @exclusivity(unchecked) private var store: ColumnStore
    /// Per column, its lowest and highest value once asked (`range(ofColumn:)`). Kept a
    /// sound bound as rows change without a pass over the column each time (change
    /// propagation changes a table every transaction): an added row widens it, a removed
    /// row leaves it (wider than needed is still sound), a bulk load or `removeAll` resets it.
    private var columnRanges: [ValueRange??] = []
    /// The statistics sample once asked (`statisticsSample()`); dropped by any change of rows.
    private var sample: [Row]?
    /// The membership table; nil while `keyIndex` answers membership.
    private var members: PositionTable?
    /// An index whose column has held distinct values in every row so far.
    @exclusivity(unchecked) private var keyIndex: Int?
    @exclusivity(unchecked) private var indexes: [ColumnIndex] = []

    /// Changes with every change of rows (add, bulk load, delete, update, `removeAll`), never
    /// otherwise: an answer about the contents (an estimate) kept with the version it was
    /// asked at holds while the version is the same.
    @exclusivity(unchecked) public private(set) var contentVersion = 0

    /// Rows looked at by cursors since creation (or the last `resetStatistics`).
    @exclusivity(unchecked) public private(set) var rowsExamined = 0
    /// Rows handed out by cursors.
    @exclusivity(unchecked) public private(set) var rowsDelivered = 0

    /// A one-part view's column maps at this table's width (every column from part 0;
    /// column i at i), made once: a filtered scan's batch made both, two allocations.
    fileprivate let scanPartOf: [Int]
    fileprivate let scanColumnOf: [Int]

    public init(name: String, scheme: Scheme, indexedAttributes: [Attribute] = []) throws {
        self.sourceName = name
        self.scheme = scheme
        self.indexedAttributes = indexedAttributes
        self.store = ColumnStore(width: scheme.count)
        scanPartOf = [Int](repeating: 0, count: scheme.count)
        scanColumnOf = Array(0..<scheme.count)
        for a in indexedAttributes {
            let column = try scheme.requireIndex(of: a, context: "index on table \(name)")
            if !indexes.contains(where: { $0.column == column }) {
                indexes.append(ColumnIndex(column: column))
            }
        }
        if indexes.isEmpty { members = PositionTable() } else { keyIndex = 0 }
    }

    /// A table from rows written in `columns` order (any order; stored sorted by name),
    /// like PLRelational's `MakeRelation`.
    public convenience init(
        name: String, columns: [Attribute], rows: [[Value]], indexedAttributes: [Attribute] = []
    ) throws {
        let scheme = try Scheme(columns)
        try self.init(name: name, scheme: scheme, indexedAttributes: indexedAttributes)
        let order = Scheme.sortingOrder(of: columns)
        for values in rows {
            guard values.count == columns.count else {
                throw RelationError.rowWidth(expected: columns.count, got: values.count, relation: name)
            }
            try add(Row(order.map { values[$0] }))
        }
    }

    public var count: Int { store.count }

    /// Declares `key` the table's primary key (see `primaryKey`). Refused when an attribute
    /// is unknown or two rows already share the key's values. A single indexed attribute is
    /// checked by its index (distinct values against rows), any other key by a pass.
    public func declarePrimaryKey(_ key: [Attribute]) throws {
        let columns = try key.map { try scheme.requireIndex(of: $0, context: "primary key of table \(sourceName)") }
        if columns.count == 1, let index = indexes.first(where: { $0.column == columns[0] }) {
            guard index.distinctValues == store.count else { throw notAKey(key) }
        } else {
            var seen = Set<Row>()
            for p in 0..<store.count where !seen.insert(store.row(at: p).picking(columns)).inserted { throw notAKey(key) }
        }
        primaryKey = key
    }

    private func notAKey(_ key: [Attribute]) -> RelationError {
        .unsupported("table \(sourceName): [\(key.map(\.name).joined(separator: ", "))] is not a key; two rows share its values")
    }

    /// Every row, in stored order (built from the columns on each call).
    public var allRows: [Row] { store.rows }

    /// The rows as columns: a snapshot that shares the table's storage.
    public var columns: ColumnStore { store }

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
        // Interning first adds no text to a row already present (its texts are all known).
        let stored = store.interned(row)
        switch presence(of: stored) {
        case .present: return false
        case .absentKeyTaken: buildMembers()
        case .absent: break
        }
        guard store.count < PositionTable.positionLimit else {
            throw RelationError.unsupported("table \(sourceName) cannot hold more than \(PositionTable.positionLimit) rows")
        }
        store.appendStored(stored)
        contentVersion &+= 1
        widenRanges(with: row)
        sample = nil
        let position = store.count - 1
        store.withReaders { rows in
            members?.insert(position, hash: rows.rowHash(position), dense: true) { rows.rowHash($0) }
            for k in indexes.indices { indexes[k].append(position, in: rows.columns[indexes[k].column]) }
        }
        return true
    }

    private enum Presence {
        case present
        case absent
        /// Absent, but another row has its value in the key index's column.
        case absentKeyTaken
    }

    private func presence(of stored: [(ValueTag, Int64)]) -> Presence {
        store.withReaders { rows in
            if let members {
                return members.find(hash: hash(ofStored: stored), where: { rows.rowIs($0, stored) }) == nil ? .absent : .present
            }
            guard let u = keyIndex else { return .absent }
            let column = indexes[u].column
            let key = ValueKey(stored: stored[column].0, stored[column].1)
            guard let p = indexes[u].onlyPosition(of: key, in: rows.columns[column]) else { return .absent }
            return rows.rowIs(p, stored) ? .present : .absentKeyTaken
        }
    }

    /// Switches membership from the key index to a table of its own (the key column is
    /// about to hold a value twice).
    private func buildMembers() {
        keyIndex = nil
        var set = PositionTable()
        let count = store.count
        store.withReaders { rows in
            set.reserve(count) { _ in 0 }
            for p in 0..<count { set.insert(p, hash: rows.rowHash(p), dense: true) { rows.rowHash($0) } }
        }
        members = set
    }

    /// Below this many rows, `add(contentsOf:)` into an empty table adds them one by one:
    /// the bulk build's sort and scratch buffers cost more than a few row-by-row adds, and
    /// most delta tables of a selection change or a rename hold one or two rows.
    static let bulkLoadMinimum = 32

    /// Adds rows (values in scheme order); rows already present, or repeated, are kept once.
    /// Into an empty table they are loaded in bulk (`append`): membership and indexes are
    /// built in one pass instead of row by row, which is what change propagation's delta
    /// tables, emptied and refilled every transaction, pay for each delta row.
    public func add<S: Sequence>(contentsOf newRows: S) throws where S.Element == Row {
        guard store.count == 0 else {
            for row in newRows { try add(row) }
            return
        }
        let rows = Array(newRows)
        for row in rows where row.count != scheme.count {
            throw RelationError.rowWidth(expected: scheme.count, got: row.count, relation: sourceName)
        }
        guard rows.count >= Self.bulkLoadMinimum else {
            for row in rows { try add(row) }
            return
        }
        try append(ColumnStore(width: scheme.count, rows: rows))
    }

    /// Bulk load: appends every row of `rows` (columns in scheme order) that is not already
    /// present; returns how many were added. Into an empty table the columns are taken
    /// over whole (shared, not copied) and membership and indexes are built in one pass.
    @discardableResult
    public func append(_ rows: ColumnStore) throws -> Int {
        guard rows.width == scheme.count else {
            throw RelationError.rowWidth(expected: scheme.count, got: rows.width, relation: sourceName)
        }
        guard rows.count <= PositionTable.positionLimit else {
            throw RelationError.unsupported("table \(sourceName) cannot hold more than \(PositionTable.positionLimit) rows")
        }
        guard store.count == 0 else {
            var added = 0
            for p in 0..<rows.count where try add(rows.row(at: p)) { added += 1 }
            return added
        }
        store = rows
        contentVersion &+= 1
        store.seal()
        columnRanges = []
        sample = nil
        rebuildMembershipAndIndexes()
        return store.count
    }

    /// Reserves room for `n` more rows (bulk loads through `add`).
    public func reserveCapacity(_ n: Int) {
        store.reserveCapacity(n)
        let total = store.count + n
        store.withReaders { rows in
            members?.reserve(total, dense: true) { rows.rowHash($0) }
            for k in indexes.indices { indexes[k].reserve(total, in: rows.columns[indexes[k].column]) }
        }
    }

    /// Deletes the rows matching the predicate; returns how many went.
    @discardableResult
    public func delete(where predicate: Predicate) throws -> Int {
        let doomed = try positions(matching: predicate)
        // Highest first: the row moved into each gap is then never one still to delete.
        for p in doomed.reversed() { removeRow(at: p) }
        return doomed.count
    }

    /// Removes every row and forgets the interned texts: the table is as `init` left it
    /// (its statistics aside). Tables rebound to new contents again and again (change
    /// propagation's delta tables) stay as small as their current rows.
    public func removeAll() {
        store = ColumnStore(width: scheme.count)
        contentVersion &+= 1
        columnRanges = []
        sample = nil
        indexes = indexes.map { ColumnIndex(column: $0.column) }
        if indexes.isEmpty { members = PositionTable() } else { members = nil; keyIndex = 0 }
    }

    /// Removes exactly the given rows, each found through membership (the key index or the
    /// row hash table) rather than a scan; rows not present are skipped. Returns how many went.
    @discardableResult
    public func remove<S: Sequence>(rows: S) -> Int where S.Element == Row {
        var removed = 0
        for row in rows where row.count == scheme.count {
            guard let p = position(of: row) else { continue }
            removeRow(at: p)
            removed += 1
        }
        return removed
    }

    /// Where `row` is stored, nil when absent.
    private func position(of row: Row) -> Int? {
        // A row that is present has every text interned already, so this adds nothing then.
        let stored = store.interned(row)
        return store.withReaders { rows in
            if let members {
                return members.find(hash: hash(ofStored: stored), where: { rows.rowIs($0, stored) })?.position
            }
            guard let u = keyIndex else { return nil }
            let column = indexes[u].column
            let key = ValueKey(stored: stored[column].0, stored[column].1)
            guard let p = indexes[u].onlyPosition(of: key, in: rows.columns[column]) else { return nil }
            return rows.rowIs(p, stored) ? p : nil
        }
    }

    /// Sets attributes on the rows matching the predicate; returns how many rows matched.
    /// An update that makes two rows equal leaves one (relations are sets).
    @discardableResult
    public func update(where predicate: Predicate, set newValues: [Attribute: Value]) throws -> Int {
        var assignments: [(Int, Value)] = []
        for (a, v) in newValues.sorted(by: { $0.key < $1.key }) {
            assignments.append((try scheme.requireIndex(of: a, context: "update of \(sourceName)"), v))
        }
        let matched = try positions(matching: predicate)
        let rows = matched.map { store.row(at: $0) }
        for p in matched.reversed() { removeRow(at: p) }
        for row in rows {
            var changed = row.values
            for (i, v) in assignments { changed[i] = v }
            try add(Row(changed))
        }
        return matched.count
    }

    /// Positions of the rows matching the predicate, ascending (a scan; no counters).
    private func positions(matching predicate: Predicate) throws -> [Int] {
        var probe = RowProbe(try CompiledPredicate(predicate, scheme: scheme), scheme: scheme)
        let rows = store
        return (0..<rows.count).filter { probe.matches($0, in: rows) }
    }

    private func removeRow(at position: Int) {
        let last = store.count - 1
        store.withReaders { rows in
            for k in indexes.indices {
                indexes[k].remove(position, in: rows.columns[indexes[k].column])
            }
            if let found = members?.find(hash: rows.rowHash(position), where: { $0 == position }) {
                members?.removeSlot(found.slot) { rows.rowHash($0) }
            }
            if position != last {
                for k in indexes.indices {
                    indexes[k].move(from: last, to: position, in: rows.columns[indexes[k].column])
                }
                if let found = members?.find(hash: rows.rowHash(last), where: { $0 == last }) {
                    members?.setSlot(found.slot, to: position)
                }
            } else {
                for k in indexes.indices { indexes[k].dropLast() }
            }
        }
        if position != last { store.moveRow(from: last, to: position) }
        store.removeLast()
        contentVersion &+= 1
        sample = nil
    }

    /// Indexes and membership from scratch over `store`. Rows equal to an earlier row are
    /// dropped (a bulk load's duplicates), keeping the first. When an index's column turns
    /// out to hold distinct values, no row can repeat and that index answers membership.
    private func rebuildMembershipAndIndexes() {
        let rows = store
        rows.withReaders { readers in
            for k in indexes.indices {
                indexes[k].rebuild(readers.columns[indexes[k].column], count: rows.count)
            }
        }
        if let u = indexes.indices.first(where: { indexes[$0].distinctValues == rows.count }) {
            keyIndex = u
            members = nil
            return
        }
        keyIndex = nil
        var set = PositionTable()
        var kept: [Int] = []
        var sawDuplicate = false
        rows.withReaders { readers in
            set.reserve(rows.count) { _ in 0 }
            // Equal rows share a hash, so in this order (equal hashes by position) the
            // first of equal rows comes first.
            let records = ScratchBuffer<HashRecord>(count: rows.count)
            for p in 0..<rows.count { records[p] = HashRecord(hash: readers.rowHash(p), item: UInt32(p), kind: 0) }
            sortByHome(records, spare: ScratchBuffer(count: rows.count), capacity: PositionTable.capacity(for: rows.count))
            var duplicate = [Bool](repeating: false, count: rows.count)
            for i in 0..<rows.count {
                let r = records[i]
                let p = Int(r.item)
                let hash = r.hash
                if set.find(hash: hash, where: { readers.rowsEqual($0, p) }) != nil {
                    duplicate[p] = true
                    sawDuplicate = true
                } else {
                    set.insert(p, hash: hash) { readers.rowHash($0) }
                }
            }
            if sawDuplicate { kept = (0..<rows.count).filter { !duplicate[$0] } }
        }
        if sawDuplicate {
            store.gather(kept)
            rebuildMembershipAndIndexes()
            return
        }
        members = set
    }

    private func indexNumber(for attribute: Attribute) -> Int? {
        guard let column = scheme.index(of: attribute) else { return nil }
        return indexes.firstIndex { $0.column == column }
    }

    // MARK: Reading rows

    /// Over the indexed attributes the filter constrains to a value set, the fewest rows
    /// one of them touches: that count, and with `collect` those rows' positions in index
    /// order; nil when no index answers the filter.
    private func indexedCandidates(_ filter: Predicate, collect: Bool) -> (count: Int, positions: [Int])? {
        // The shapes a run asks most (an equality, a one-attribute IN-set such as a join's key
        // filter) go straight to their index: `impliedValueSets` builds a dictionary of sets,
        // and this is asked for estimates, selective-fetch checks and every filtered scan.
        switch filter {
        case let .comparison(.attribute(a), .equal, .value(v)), let .comparison(.value(v), .equal, .attribute(a)):
            guard let k = indexNumber(for: a) else { return nil }
            return candidates(index: k, values: CollectionOfOne(v), collect: collect)
        case let .inSet(attributes, keys) where attributes.count == 1 && keys.allSatisfy({ $0.count == 1 }):
            // One-value rows of a set are distinct values, as the value set would hold them.
            guard let k = indexNumber(for: attributes[0]) else { return nil }
            return candidates(index: k, values: keys.lazy.map { $0.values[0] }, collect: collect)
        default:
            break
        }
        var best: (count: Int, positions: [Int])?
        for (attribute, values) in filter.impliedValueSets {
            guard let k = indexNumber(for: attribute) else { continue }
            let found = candidates(index: k, values: values, collect: collect)
            if found.count < best?.count ?? Int.max { best = found }
        }
        return best
    }

    /// The rows index `k` holds for `values` (distinct): how many, and with `collect` their
    /// positions in index order.
    private func candidates<S: Sequence<Value>>(index k: Int, values: S, collect: Bool) -> (count: Int, positions: [Int]) {
        let column = indexes[k].column
        var n = 0
        var positions: [Int] = []
        store.withReaders { rows in
            // The column's keys borrowed (`withReaders` keeps the columns alive): handed to
            // the index as a value, the column was copied per filtered scan.
            let inPlace = rows.columns[column].borrowedKeys()
            for value in values {
                guard let key = rows.columns[column].key(of: value) else { continue }
                if collect {
                    indexes[k].positions(of: key, in: inPlace, into: &positions)
                } else {
                    indexes[k].forEachPosition(of: key, in: inPlace) { _ in n += 1 }
                }
            }
        }
        if collect { n = positions.count }
        return (n, positions)
    }

    /// Whether `indexedCandidates` would answer (non-nil), decided from the filter's shape
    /// and the indexes alone: it answers exactly when an index covers an attribute it reads
    /// (the same cases, in the same order), so the index groups need not be counted.
    public func canFetchSelectively(_ filter: Predicate) -> Bool {
        if filter.isUnsatisfiable { return true }
        switch filter {
        case let .comparison(.attribute(a), .equal, .value), let .comparison(.value, .equal, .attribute(a)):
            return indexNumber(for: a) != nil
        case let .inSet(attributes, keys) where attributes.count == 1 && keys.allSatisfy({ $0.count == 1 }):
            return indexNumber(for: attributes[0]) != nil
        default:
            return filter.impliedValueSets.keys.contains { indexNumber(for: $0) != nil }
        }
    }

    public var estimateVersion: Int? { contentVersion }

    public func estimatedCount(filter: Predicate?) -> Int? {
        guard let filter else { return store.count }
        if filter.isUnsatisfiable { return 0 }
        return indexedCandidates(filter, collect: false)?.count ?? store.count
    }

    /// From the lowest and highest value of each column the filter reads (each found by one
    /// pass over its column when first asked after a change, then kept): true when no row
    /// can satisfy it. An empty table matches nothing.
    public func provablyMatchesNothing(_ filter: Predicate) -> Bool {
        if filter.isUnsatisfiable || store.count == 0 { return true }
        return !filter.mayMatch { attribute in scheme.index(of: attribute).flatMap { range(ofColumn: $0) } }
    }

    public func valueRange(of attribute: Attribute) -> ValueRange? {
        scheme.index(of: attribute).flatMap { range(ofColumn: $0) }
    }

    private func widenRanges(with row: Row) {
        for column in columnRanges.indices {
            guard let known = columnRanges[column] else { continue }
            let value = row[column]
            columnRanges[column] = .some(known.map { $0.widened(with: value) } ?? ValueRange(lowest: value, highest: value))
        }
    }

    /// A bound on a column's values in the total value order: its lowest and highest value
    /// when first asked, widened by rows added since; rows removed since may have held the
    /// extremes (nil: no rows when asked, none added since).
    public func range(ofColumn column: Int) -> ValueRange? {
        if columnRanges.isEmpty { columnRanges = Array(repeating: nil, count: scheme.count) }
        if let known = columnRanges[column] { return known }
        var hasNull = false
        var lowest: Value?, highest: Value?
        let values = store.columns[column]
        for p in 0..<values.count {
            let v = values.value(at: p)
            if v.isNull { hasNull = true; continue }
            if let l = lowest, let h = highest {
                if v < l { lowest = v } else if h < v { highest = v }
            } else {
                (lowest, highest) = (v, v)
            }
        }
        var found: ValueRange?
        if let lowest, let highest {
            found = ValueRange(lowest: hasNull ? .null : lowest, highest: highest, lowestNonNull: lowest)
        } else if hasNull {
            found = ValueRange(lowest: .null, highest: .null)
        }
        columnRanges[column] = .some(found)
        return found
    }

    /// At most this many rows make the statistics sample.
    public static let statisticsSampleLimit = 128

    /// The table's statistics sample: at most `statisticsSampleLimit` rows, evenly spaced in
    /// stored order (every row of a table that small). Built when first asked after a change
    /// of rows and kept until the next, as `ANALYZE` keeps its sample between changes, so
    /// the queries that use it read no rows of the table for it. (PostgreSQL's `ANALYZE`
    /// samples 300 rows per unit of its statistics target, 30,000 by default: on tables
    /// that small its statistics are exact too.) `statisticsSamplesBuilt` counts the builds.
    public func statisticsSample() -> [Row] {
        if let sample { return sample }
        let count = store.count
        let sampled = min(count, Self.statisticsSampleLimit)
        // Position i * count / sampled: every row when count <= the limit.
        let built = (0..<sampled).map { store.row(at: $0 * count / sampled) }
        sample = built
        statisticsSamplesBuilt += 1
        return built
    }

    /// How many times `statisticsSample()` built a sample (not reset by `resetStatistics`).
    public private(set) var statisticsSamplesBuilt = 0

    /// An estimate's probe of the index on `attribute`: the rows whose `attribute` is one of
    /// `values`, when there are at most `limit` of them; nil when they are more, or no
    /// index covers `attribute`. Like `estimatedCount(filter:)` (which walks the same index
    /// groups to count them) and the statistics sample, it is planning's look at the data,
    /// not a read: no cursor is made and `rowsExamined` is not counted. PostgreSQL's planner
    /// probes an index the same way for a column's actual extremes
    /// (`get_actual_variable_range`). Its only caller sizes a closure's search (the
    /// search's rounds are index fetches), bounded by `limit`.
    public func probeIndex(_ attribute: Attribute, values: Set<Value>, limit: Int) -> [Row]? {
        guard let k = indexNumber(for: attribute), candidates(index: k, values: values, collect: false).count <= limit
        else { return nil }
        let positions = candidates(index: k, values: values, collect: true).positions
        return positions.map { store.row(at: $0) }
    }

    /// Rows whose `attribute` equals `value`, through the index (no scan).
    public func lookup(_ attribute: Attribute, _ value: Value) throws -> [Row] {
        guard let k = indexNumber(for: attribute) else {
            throw RelationError.unsupported("table \(sourceName) has no index on '\(attribute)'")
        }
        guard let key = store.columns[indexes[k].column].key(of: value) else { return [] }
        var positions: [Int] = []
        store.withReaders { indexes[k].positions(of: key, in: $0.columns[indexes[k].column], into: &positions) }
        let out = positions.map { store.row(at: $0) }
        rowsExamined += out.count
        rowsDelivered += out.count
        return out
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        MemoryTableCursor(try makeScan(filter: filter))
    }

    /// A cursor that yields column batches with a selection vector (see `ColumnBatch`).
    public func makeBatchCursor(filter: Predicate?) throws -> ColumnBatchCursor {
        ColumnBatchCursor(try makeScan(filter: filter))
    }

    /// The same walk as `makeBatchCursor`, as a value (`ColumnBatchScan`).
    public func makeBatchScan(filter: Predicate?) throws -> ColumnBatchScan {
        ColumnBatchScan(try makeScan(filter: filter))
    }

    private func makeScan(filter: Predicate?) throws -> TableScan {
        guard let filter else {
            return TableScan(table: self, store: store, positions: nil, probe: nil, distinctColumn: distinctColumn)
        }
        let probe = try compiledProbe(filter)
        if filter.isUnsatisfiable {
            return TableScan(table: self, store: ColumnStore(width: scheme.count), positions: [], probe: probe, distinctColumn: nil)
        }
        return TableScan(table: self, store: store, positions: indexedCandidates(filter, collect: true)?.positions, probe: probe,
                         distinctColumn: distinctColumn)
    }

    /// The filter compiled for this table's scheme, from the few last compiled: a query run
    /// many times (a prepared query) scans with the same filters each run, and compiling
    /// cost more than comparing a filter with a handful of earlier ones. The scheme never
    /// changes, so an entry never goes stale.
    private func compiledProbe(_ filter: Predicate) throws -> RowProbe {
        if let known = recentProbes.first(where: { $0.filter == filter }) { return known.probe }
        let probe = RowProbe(try CompiledPredicate(filter, scheme: scheme), scheme: scheme)
        // Only small filters are kept: a large IN-set is worth compiling again, not keeping.
        guard filter.comparisonCount <= Self.recentProbeMaxComparisons else { return probe }
        if recentProbes.count < Self.recentProbeLimit {
            recentProbes.append((filter, probe))
        } else {
            recentProbes[nextProbeSlot] = (filter, probe)
            nextProbeSlot = (nextProbeSlot + 1) % Self.recentProbeLimit
        }
        return probe
    }

    private static let recentProbeLimit = 4
    private static let recentProbeMaxComparisons = 64
    @exclusivity(unchecked) private var recentProbes: [(filter: Predicate, probe: RowProbe)] = []
    @exclusivity(unchecked) private var nextProbeSlot = 0

    /// The column of the index answering membership: its values are distinct.
    private var distinctColumn: Int? { keyIndex.map { indexes[$0].column } }

    fileprivate func record(examined: Int, delivered: Int) {
        rowsExamined += examined
        rowsDelivered += delivered
    }
}

/// One pass over a snapshot of a table: every position, or the candidates an index gave,
/// testing the filter; shared by both cursor kinds so they count alike.
struct TableScan {
    private let table: MemoryTable
    let store: ColumnStore
    private let positions: [Int]?
    private var probe: RowProbe?
    private var next = 0
    /// A column of `store` holding distinct values, if known.
    let distinctColumn: Int?

    /// The predicate every delivered row satisfies (nil: no filter).
    var filter: Predicate? { probe?.test.predicate }

    fileprivate init(table: MemoryTable, store: ColumnStore, positions: [Int]?, probe: RowProbe?, distinctColumn: Int?) {
        self.table = table
        self.distinctColumn = distinctColumn
        self.store = store
        self.positions = positions
        self.probe = probe
    }

    /// True when every candidate has been looked at: the next selection is empty.
    var isDrained: Bool { next >= (positions?.count ?? store.count) }

    /// Positions of up to `maxRows` more matching rows; empty when drained.
    mutating func nextSelection(maxRows: Int) -> [Int] {
        let total = positions?.count ?? store.count
        // The call after the last batch (a cursor's end test) sets nothing up.
        guard next < total else { return [] }
        var out: [Int] = []
        var examined = 0
        guard let test = probe?.test else {
            let end = min(total, next + max(0, maxRows))
            out = positions.map { Array($0[next..<end]) } ?? Array(next..<end)
            examined = end - next
            next = end
            table.record(examined: examined, delivered: out.count)
            return out
        }
        // Candidates are tested a run at a time, each run as long as the rows still wanted,
        // so exactly the rows a row-by-row scan would look at are examined.
        // A filter that passes most rows takes many short runs per batch, so what a run needs
        // is set up once per batch: the reader and column maps, and a candidate buffer that
        // index positions need not fill (they are read in place).
        out.reserveCapacity(min(maxRows, total - next))
        store.withKeyReader { reader in
            let width = store.width
            let readers = [reader]
            // The table's maps when the store has its width (always: a snapshot of it, or an
            // empty store of its width), else made here.
            let shared = table.scanPartOf.count == width
            let partOf = shared ? table.scanPartOf : [Int](repeating: 0, count: width)
            let columnOf = shared ? table.scanColumnOf : Array(0..<width)
            // `out` passed in, not captured: a local function capturing a variable boxes it,
            // and every access to the box took the runtime exclusivity check.
            func select(_ buffer: UnsafeBufferPointer<Int>, into out: inout [Int]) {
                let rows = StoredRows(readers: readers, positions: [buffer], partOf: partOf, columnOf: columnOf)
                let selected = test.selectRows(buffer.count, of: rows)
                // A few selected (a selective fetch's usual one) appended one by one (room was
                // reserved); more appended in one copy, then turned into positions in place.
                if selected.count <= 8 {
                    for i in selected { out.append(buffer[i]) }
                    return
                }
                let start = out.count
                out.append(contentsOf: selected)
                out.withUnsafeMutableBufferPointer { o in
                    for i in start..<o.count { o[i] = buffer[o[i]] }
                }
            }
            while next < total && out.count < maxRows {
                let run = min(maxRows - out.count, total - next)
                if let positions {
                    positions.withUnsafeBufferPointer { select(UnsafeBufferPointer(rebasing: $0[next..<(next + run)]), into: &out) }
                } else {
                    let first = next
                    let candidates = [Int](unsafeUninitializedCapacity: run) { buffer, initialized in
                        for i in 0..<run { buffer[i] = first + i }
                        initialized = run
                    }
                    candidates.withUnsafeBufferPointer { select($0, into: &out) }
                }
                next += run
                examined += run
            }
        }
        table.record(examined: examined, delivered: out.count)
        return out
    }
}

/// Walks a table scan, delivering rows.
private final class MemoryTableCursor: RowCursor {
    private var scan: TableScan

    init(_ scan: TableScan) { self.scan = scan }

    func next(maxRows: Int) throws -> [Row] {
        let selection = scan.nextSelection(maxRows: maxRows)
        return selection.map { scan.store.row(at: $0) }
    }
}
