import Relational

/// One join operand's stored rows by key. Keys are their encodings (`EncodedKeySet`:
/// equal keys, `3` and `3.0` included, encode alike); the rows of a key are chained in
/// arrival order through flat arrays, so storing a row allocates nothing per key. A row
/// that arrived in a single-store column view is kept as its position in that store (a
/// handle `slot << 32 | position`); any other row is decoded and kept (a negative handle).
///
/// A class, so that probing it from a kernel's per-row closure copies nothing.
/// Unchecked exclusivity: its state is touched once per row by one loop at a time, never
/// by overlapping accesses.
final class JoinTable {
    @exclusivity(unchecked) private var keys = EncodedKeySet()
    /// Keys first stored with a real equal to an integer, as they were written (the
    /// encoding spells them as integers); `keyRows` hands them on as stored.
    private var spelled: [Int: [Value]] = [:]
    @exclusivity(unchecked) private var first: [Int32] = []
    @exclusivity(unchecked) private var last: [Int32] = []
    @exclusivity(unchecked) private var next: [Int32] = []
    @exclusivity(unchecked) private var handles: [Int] = []
    /// Stores whose rows are kept by position, with the operand's column of each store column.
    private(set) var stores: [(store: ColumnStore, columnOf: [Int])] = []
    private var rows: [Row] = []
    private var lastSlot = -1

    /// The slot of a single-part view's store (added when new).
    func slot(for view: ColumnView) -> Int {
        let store = view.parts[0].store
        if lastSlot >= 0, stores[lastSlot].columnOf == view.columnOf, stores[lastSlot].store.sharesStorage(with: store) {
            return lastSlot
        }
        if let s = stores.indices.first(where: { stores[$0].columnOf == view.columnOf && stores[$0].store.sharesStorage(with: store) }) {
            lastSlot = s
        } else {
            stores.append((store, view.columnOf))
            lastSlot = stores.count - 1
        }
        return lastSlot
    }

    @inline(__always)
    static func handle(slot: Int, position: Int) -> Int { slot << 32 | position }

    /// Keeps a decoded row; returns its handle.
    func keep(_ row: Row) -> Int {
        rows.append(row)
        return -rows.count
    }

    /// Stores the row with this handle under `key`; `spelling` gives the key's values when
    /// the key is new and holds an integral real.
    func insert(_ handle: Int, under key: RowKey, spelling: () -> [Value]) {
        let (ordinal, inserted) = keys.insert(key)
        let entry = Int32(truncatingIfNeeded: handles.count)
        handles.append(handle)
        next.append(-1)
        if inserted {
            first.append(entry)
            last.append(entry)
            if !key.isInteger && key.encoder.hasIntegralReal { spelled[ordinal] = spelling() }
        } else {
            next[Int(last[ordinal])] = entry
            last[ordinal] = entry
        }
    }

    /// Calls `body` with the handle of every row stored under `key`, in arrival order.
    @inline(__always)
    func forEachMatch(_ key: RowKey, _ body: (Int) -> Void) {
        guard let ordinal = keys.find(key) else { return }
        var e = Int(first[ordinal])
        while e >= 0 {
            body(handles[e])
            e = Int(next[e])
        }
    }

    /// The value at operand column `position` of the row with this handle.
    func value(_ handle: Int, _ position: Int) -> Value {
        if handle < 0 { return rows[-handle - 1].values[position] }
        let s = stores[handle >> 32]
        return s.store.withKeyReader { $0.value(row: handle & 0xFFFF_FFFF, column: s.columnOf[position]) }
    }

    /// The distinct keys stored, each as a key row (as first stored).
    var keyRows: [Row] {
        keys.allValues.enumerated().map { Row(spelled[$0.offset] ?? $0.element) }
    }
}
