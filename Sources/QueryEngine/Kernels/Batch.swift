import Relational

/// Rows moving into or out of a kernel: a list of pieces, each either decoded rows or a
/// view into memory tables' columns (`ColumnView`). Sources that are memory tables deliver
/// views; kernels keep them views as long as they can (a select or a set operation narrows
/// the positions, a project or rename remaps columns, a hash join pairs positions of two
/// stores), so a row is decoded only where a `Row` is needed: a result row, a row a join
/// must keep that no store holds, a closure's edges.
struct Batch {
    var pieces: [BatchPiece] = []

    init() {}

    init(_ rows: [Row]) {
        if !rows.isEmpty { pieces = [.rows(rows)] }
    }

    init(_ piece: BatchPiece) { append(piece) }

    static var empty: Batch { Batch() }

    var isEmpty: Bool { pieces.isEmpty }
    var count: Int { pieces.reduce(0) { $0 + $1.count } }

    /// Adds a piece (empty pieces are dropped, so `isEmpty` means no rows).
    mutating func append(_ piece: BatchPiece) {
        if piece.count > 0 { pieces.append(piece) }
    }

    mutating func append(contentsOf other: Batch) { pieces.append(contentsOf: other.pieces) }

    /// The same rows as batches of at most `size` rows each, in order.
    func parts(of size: Int) -> [Batch] {
        var parts: [Batch] = []
        for piece in pieces {
            var start = 0
            while start < piece.count {
                let end = min(start + size, piece.count)
                parts.append(Batch(start == 0 && end == piece.count ? piece : piece.selecting(Array(start..<end))))
                start = end
            }
        }
        return parts
    }

    /// Every row, decoded.
    var rows: [Row] {
        if pieces.count == 1, case let .rows(rows) = pieces[0] { return rows }
        var out: [Row] = []
        out.reserveCapacity(count)
        for piece in pieces { piece.appendRows(to: &out) }
        return out
    }
}

/// Rows as positions in column stores: one part per store, holding a position per row,
/// and for each of the rows' columns the part and store column it reads. Row `k` is, in
/// column `j`, `parts[partOf[j]].store`'s value at `(parts[partOf[j]].positions[k], columnOf[j])`.
/// Stores are snapshots (sharing the tables' storage), so a view stays valid however long
/// a kernel holds it.
struct ColumnView {
    struct Part {
        let store: ColumnStore
        var positions: [Int]
        /// A column of `store` whose values are all distinct (a table's key, when the view
        /// came from its scan), so a position names the row's value there alone.
        var distinctColumn: Int? = nil
    }

    /// On a two-part view a hash join made: each row's position in part `1 - determining`
    /// is a function of its position in part `determining`, one function for every view
    /// with the same stores and `key`/`otherKey`. The join compared the determining part's
    /// store columns `key` with the other part's store columns `otherKey` pairwise, and
    /// `otherKey` holds the other store's distinct column, so a row matches at most one
    /// row there, whatever batch it came in. Narrowing and remapping keep it (they keep
    /// the parts); `ProjectKernel` keys rows by their determining position with it.
    struct Dependence {
        let determining: Int
        let key: [Int]
        let otherKey: [Int]
    }

    var parts: [Part]
    var partOf: [Int]
    var columnOf: [Int]
    /// A predicate every row is known to satisfy, over the view's own scheme: a table
    /// cursor's filter, kept while the view only narrows (any remapping drops it).
    var satisfies: Predicate?
    var dependence: Dependence?

    /// A memory table's batch: the table's columns in scheme order, at the selected rows.
    init(_ batch: ColumnBatch) {
        parts = [Part(store: batch.store, positions: batch.selection, distinctColumn: batch.distinctColumn)]
        partOf = TableColumnMaps.zeros(batch.store.width)
        columnOf = TableColumnMaps.identity(batch.store.width)
        satisfies = batch.satisfies
    }

    init(parts: [Part], partOf: [Int], columnOf: [Int], dependence: Dependence? = nil) {
        self.parts = parts
        self.partOf = partOf
        self.columnOf = columnOf
        self.dependence = dependence
    }

    var count: Int { parts.first?.positions.count ?? 0 }
    var width: Int { partOf.count }

    /// Calls `body` with a reader per part (one borrow per batch, not per value).
    func withReaders<R>(_ body: ([KeyReader]) throws -> R) rethrows -> R {
        // One or two parts (a table's batch, a join's match) build their array once, not by
        // concatenating per part: each array made here is an allocation per batch.
        switch parts.count {
        case 1: return try parts[0].store.withKeyReader { try body([$0]) }
        case 2: return try parts[0].store.withKeyReader { a in try parts[1].store.withKeyReader { try body([a, $0]) } }
        default: break
        }
        func nest(_ i: Int, _ readers: [KeyReader]) throws -> R {
            if i == parts.count { return try body(readers) }
            return try parts[i].store.withKeyReader { try nest(i + 1, readers + [$0]) }
        }
        return try nest(0, [])
    }

    /// Calls `body` with the view's rows as `StoredRows` (readers and position buffers
    /// borrowed once per batch), for predicates tested a run of rows at a time.
    func withStoredRows<R>(_ body: (StoredRows) throws -> R) rethrows -> R {
        try withReaders { readers in
            func nest(_ i: Int, _ buffers: [UnsafeBufferPointer<Int>]) throws -> R {
                if i == parts.count {
                    return try body(StoredRows(readers: readers, positions: buffers, partOf: partOf, columnOf: columnOf))
                }
                return try parts[i].positions.withUnsafeBufferPointer { try nest(i + 1, buffers + [$0]) }
            }
            return try nest(0, [])
        }
    }

    /// At most this many rows make a small view: its values are read from the stores one
    /// by one (`storedValue`) rather than through readers borrowed for the batch, whose
    /// set-up (a generic borrow per part, about 1,000 instructions) is worth it for a run of
    /// rows, not for the one or two a selective query moves.
    static let smallCount = 4

    var isSmall: Bool { count <= Self.smallCount }

    /// The value of row `k` in column `j`, read from its store without a reader.
    func storedValue(_ k: Int, _ j: Int) -> Value {
        let p = partOf[j]
        return parts[p].store.value(row: parts[p].positions[k], column: columnOf[j])
    }

    /// Row `k`, decoded without readers (`storedValue`).
    func storedRow(_ k: Int) -> Row {
        var values: [Value] = []
        values.reserveCapacity(width)
        for j in 0..<width { values.append(storedValue(k, j)) }
        return Row(values)
    }

    /// The value of row `k` in column `j`.
    @inline(__always)
    func value(_ readers: [KeyReader], _ k: Int, _ j: Int) -> Value {
        let p = partOf[j]
        return readers[p].value(row: parts[p].positions[k], column: columnOf[j])
    }

    @inline(__always)
    func encode(_ readers: [KeyReader], _ k: Int, _ j: Int, into encoder: KeyEncoder) {
        let p = partOf[j]
        readers[p].encode(row: parts[p].positions[k], column: columnOf[j], into: encoder)
    }

    func row(_ readers: [KeyReader], _ k: Int) -> Row {
        // Array literals for the narrow rows: one allocation, no `reserveCapacity` call
        // (which takes the array's general growth path, about 60 instructions a row).
        switch width {
        case 1: return Row([value(readers, k, 0)])
        case 2: return Row([value(readers, k, 0), value(readers, k, 1)])
        default: break
        }
        var values: [Value] = []
        values.reserveCapacity(width)
        for j in 0..<width { values.append(value(readers, k, j)) }
        return Row(values)
    }
}

enum BatchPiece {
    case rows([Row])
    case columns(ColumnView)

    var count: Int {
        switch self {
        case let .rows(rows): return rows.count
        case let .columns(view): return view.count
        }
    }

    func appendRows(to out: inout [Row]) {
        switch self {
        case let .rows(rows):
            out.append(contentsOf: rows)
        case let .columns(view):
            out.reserveCapacity(out.count + view.count)
            if view.isSmall {
                for k in 0..<view.count { out.append(view.storedRow(k)) }
                return
            }
            view.withReaders { readers in
                for k in 0..<view.count { out.append(view.row(readers, k)) }
            }
        }
    }

    /// The rows at `keep` (ascending indexes into the piece), as a piece of the same kind:
    /// a view only narrows its positions.
    func selecting(_ keep: [Int]) -> BatchPiece {
        switch self {
        case let .rows(rows):
            return .rows(keep.map { rows[$0] })
        case var .columns(view):
            if keep.count == view.count { return self }
            for i in view.parts.indices {
                let positions = view.parts[i].positions
                view.parts[i].positions = keep.map { positions[$0] }
            }
            return .columns(view)
        }
    }

    /// Each row's values at `positions`, in that order (project, rename): a view only
    /// remaps its columns. When every column left reads one part of a view of several (a
    /// project keeping one side of a join), the view keeps that part alone: a row's values
    /// are its columns', so they are unchanged, and a join that receives a one-part view
    /// keeps its rows by position instead of decoding them.
    func mapping(_ positions: [Int]) -> BatchPiece {
        var maps = ColumnMapCache()
        return mapping(positions, maps: &maps)
    }

    /// `mapping(positions)`, taking a view's new column maps from `maps` (a kernel's, for
    /// its fixed `positions`) when the view's maps are the ones it last saw.
    func mapping(_ positions: [Int], maps: inout ColumnMapCache) -> BatchPiece {
        switch self {
        case let .rows(rows):
            return .rows(rows.map { $0.picking(positions) })
        case let .columns(view):
            let mapped = maps.maps(of: view, positions)
            if let only = mapped.onlyPart {
                return .columns(ColumnView(parts: [view.parts[only]], partOf: mapped.partOf, columnOf: mapped.columnOf))
            }
            return .columns(ColumnView(parts: view.parts, partOf: mapped.partOf, columnOf: mapped.columnOf,
                                       dependence: view.dependence))
        }
    }

    /// Calls `body(k, key)` for every row `k`, `key` holding the row's values at
    /// `positions` (nil: every column): one integer value as that integer, anything else as
    /// its encoding. `encoder`: one to encode with (a kernel's, kept across batches), else a new one.
    func forEachKey(_ positions: [Int]?, encoder given: KeyEncoder? = nil, _ body: (Int, RowKey) -> Void) {
        let encoder = given ?? KeyEncoder()
        switch self {
        case let .rows(rows):
            for (k, row) in rows.enumerated() {
                if let positions, positions.count == 1, case let .integer(i) = row.values[positions[0]] {
                    body(k, RowKey(encoder: encoder, integer: i, isInteger: true))
                    continue
                }
                if positions == nil, row.values.count == 1, case let .integer(i) = row.values[0] {
                    body(k, RowKey(encoder: encoder, integer: i, isInteger: true))
                    continue
                }
                encoder.reset()
                if let positions { encoder.append(row, at: positions) } else { for v in row.values { encoder.append(v) } }
                body(k, RowKey(encoder: encoder, integer: 0, isInteger: false))
            }
        case let .columns(view) where view.isSmall:
            // Values read one by one and spelled as the rows above spell them (equal keys
            // meet whichever way they came), with no readers borrowed.
            for k in 0..<view.count {
                if let positions, positions.count == 1, case let .integer(i) = view.storedValue(k, positions[0]) {
                    body(k, RowKey(encoder: encoder, integer: i, isInteger: true))
                    continue
                }
                if positions == nil, view.width == 1, case let .integer(i) = view.storedValue(k, 0) {
                    body(k, RowKey(encoder: encoder, integer: i, isInteger: true))
                    continue
                }
                encoder.reset()
                if let positions {
                    for j in positions { encoder.append(view.storedValue(k, j)) }
                } else {
                    for j in 0..<view.width { encoder.append(view.storedValue(k, j)) }
                }
                body(k, RowKey(encoder: encoder, integer: 0, isInteger: false))
            }
        case let .columns(view):
            let columns = positions ?? Array(0..<view.width)
            view.withReaders { readers in
                if columns.count == 1 {
                    let j = columns[0]
                    let reader = readers[view.partOf[j]]
                    let column = view.columnOf[j]
                    view.parts[view.partOf[j]].positions.withUnsafeBufferPointer { rows in
                        for k in 0..<rows.count {
                            if let i = reader.integer(row: rows[k], column: column) {
                                body(k, RowKey(encoder: encoder, integer: i, isInteger: true))
                            } else {
                                encoder.reset()
                                reader.encode(row: rows[k], column: column, into: encoder)
                                body(k, RowKey(encoder: encoder, integer: 0, isInteger: false))
                            }
                        }
                    }
                    return
                }
                for k in 0..<view.count {
                    encoder.reset()
                    for j in columns { view.encode(readers, k, j, into: encoder) }
                    body(k, RowKey(encoder: encoder, integer: 0, isInteger: false))
                }
            }
        }
    }

    /// The indexes of the rows the predicate holds for. A view compares its stored values
    /// with the predicate's constants in place, a run of rows at a time
    /// (`CompiledPredicate.selectRows`), decoding none unless the predicate needs a value
    /// itself (two attributes compared, an IN-set).
    func matching(_ test: CompiledPredicate) -> [Int] {
        switch self {
        case let .rows(rows):
            return rows.indices.filter { test.matches(rows[$0]) }
        case let .columns(view):
            return view.withStoredRows { test.selectRows(view.count, of: $0) }
        }
    }
}

/// The column maps `BatchPiece.mapping` last made for one kernel, with the view maps they
/// were made from: a project or rename is handed views with the same maps batch after
/// batch (a table's shared maps, a join's kept ones), and two new arrays per batch were
/// two allocations.
struct ColumnMapCache {
    private var fromPartOf: [Int] = []
    private var fromColumnOf: [Int] = []
    private var fromParts = -1
    private var mapped: (partOf: [Int], columnOf: [Int], onlyPart: Int?) = ([], [], nil)

    /// A view's maps after keeping the columns at `positions` (always the same for one
    /// cache), and the one part they all read when the view has several (`onlyPart`: the
    /// view then keeps that part alone, `partOf` all zeros).
    mutating func maps(of view: ColumnView, _ positions: [Int]) -> (partOf: [Int], columnOf: [Int], onlyPart: Int?) {
        if fromParts == view.parts.count, fromPartOf == view.partOf, fromColumnOf == view.columnOf { return mapped }
        let partOf = positions.map { view.partOf[$0] }
        let columnOf = positions.map { view.columnOf[$0] }
        if view.parts.count > 1, let only = partOf.first, partOf.allSatisfy({ $0 == only }) {
            mapped = (TableColumnMaps.zeros(partOf.count), columnOf, only)
        } else {
            mapped = (partOf, columnOf, nil)
        }
        fromParts = view.parts.count
        fromPartOf = view.partOf
        fromColumnOf = view.columnOf
        return mapped
    }
}

/// A row's key as `BatchPiece.forEachKey` hands it on: one integer value, kept out of the
/// encoder (`isInteger`), or the encoder's bytes. Both spell a key the same way to an
/// `EncodedKeySet`, so equal keys meet whichever way they came.
struct RowKey {
    /// Unretained: a key lives only inside `forEachKey`'s body, which holds the encoder
    /// (a retain and release per row otherwise).
    unowned(unsafe) let encoder: KeyEncoder
    let integer: Int64
    let isInteger: Bool
}

extension EncodedKeySet {
    @inline(__always)
    @discardableResult
    mutating func insert(_ key: RowKey) -> (ordinal: Int, inserted: Bool) {
        key.isInteger ? insert(integer: key.integer) : insert(key.encoder)
    }

    @inline(__always)
    func find(_ key: RowKey) -> Int? {
        key.isInteger ? find(integer: key.integer) : find(key.encoder)
    }
}

/// A table batch's column maps (every column from part 0, column i at i), shared for the
/// usual widths: a small query turns a table batch into a view several times a run, and
/// two fresh arrays each time were two allocations.
enum TableColumnMaps {
    private static let shared = 16
    private static let allZeros: [[Int]] = (0...shared).map { Array(repeating: 0, count: $0) }
    private static let identities: [[Int]] = (0...shared).map { Array(0..<$0) }

    static func zeros(_ width: Int) -> [Int] { width <= shared ? allZeros[width] : Array(repeating: 0, count: width) }
    static func identity(_ width: Int) -> [Int] { width <= shared ? identities[width] : Array(0..<width) }
}
