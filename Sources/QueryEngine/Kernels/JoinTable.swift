import Relational

/// One join operand's stored rows by key. Keys are their encodings (`EncodedKeySet`:
/// equal keys, `3` and `3.0` included, encode alike); the rows of a key are chained in
/// arrival order through flat arrays (within a batch, rows stored as integers first), so
/// storing a row allocates nothing per key. A row
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
    /// Stores whose rows are kept by position, with the operand's column of each store
    /// column and the store's column of distinct values, if the view said so.
    private(set) var stores: [(store: ColumnStore, columnOf: [Int], distinctColumn: Int?)] = []
    private var rows: [Row] = []
    private var lastSlot = -1

    /// At most this many stored rows for a table to be emptied and kept for reuse
    /// (`removeAllForReuse`); a bigger one's storage is returned instead.
    static let reuseLimit = 4096

    /// Empties the table, keeping its arrays' storage, when it stored at most `reuseLimit`
    /// rows; false (nothing done) otherwise. A small query's run makes and frees a table per
    /// join operand, an allocation per array each time.
    func removeAllForReuse() -> Bool {
        guard handles.count <= Self.reuseLimit else { return false }
        keys.removeAllKeepingCapacity()
        if !spelled.isEmpty { spelled = [:] }
        first.emptyKeepingCapacity()
        last.emptyKeepingCapacity()
        next.emptyKeepingCapacity()
        handles.emptyKeepingCapacity()
        stores.emptyKeepingCapacity()
        rows.emptyKeepingCapacity()
        lastSlot = -1
        return true
    }

    /// The slot of a single-part view's store (added when new).
    func slot(for view: ColumnView) -> Int {
        let store = view.parts[0].store
        if lastSlot >= 0, stores[lastSlot].columnOf == view.columnOf, stores[lastSlot].store.sharesStorage(with: store) {
            return lastSlot
        }
        if let s = stores.indices.first(where: { stores[$0].columnOf == view.columnOf && stores[$0].store.sharesStorage(with: store) }) {
            lastSlot = s
        } else {
            stores.append((store, view.columnOf, view.parts[0].distinctColumn))
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

    /// Stores a run of rows whose keys are one integer each (`keys[k]`), row `k` by the
    /// handle of `positions[k]` in store `slot`: the same as `insert` per row, with one
    /// borrow of each array per run instead of a uniqueness check per access.
    func insert(integers keys: UnsafeBufferPointer<Int64>, slot: Int, positions: UnsafeBufferPointer<Int>) {
        let n = keys.count
        guard n > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { ordinals in
            self.keys.insert(integers: keys, ordinals: ordinals)
            let base = handles.count
            let high = slot << 32
            // No `reserveCapacity(base + n)`: reserving exactly would reallocate every run.
            for k in 0..<n { handles.append(high | positions[k]) }
            next.append(contentsOf: repeatElement(-1, count: n))
            let newKeys = self.keys.count - first.count
            if newKeys > 0 {
                first.append(contentsOf: repeatElement(-1, count: newKeys))
                last.append(contentsOf: repeatElement(-1, count: newKeys))
            }
            first.withUnsafeMutableBufferPointer { first in
                last.withUnsafeMutableBufferPointer { last in
                    next.withUnsafeMutableBufferPointer { next in
                        for k in 0..<n {
                            let o = ordinals[k]
                            let entry = Int32(truncatingIfNeeded: base + k)
                            if first[o] < 0 {
                                first[o] = entry
                            } else {
                                next[Int(last[o])] = entry
                            }
                            last[o] = entry
                        }
                    }
                }
            }
        }
    }

    /// Appends, for each of `keys` (one integer each) and every row stored under it, the
    /// key's index to `rows` and the row's handle to `matched`; true when a handle is of a
    /// decoded row.
    func matches(integers keys: UnsafeBufferPointer<Int64>, rows: inout [Int], handles matched: inout [Int]) -> Bool {
        let n = keys.count
        guard n > 0, self.keys.count > 0 else { return false }
        var decoded = false
        withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { ordinals in
            self.keys.find(integers: keys, ordinals: ordinals)
            first.withUnsafeBufferPointer { first in
                next.withUnsafeBufferPointer { next in
                    handles.withUnsafeBufferPointer { handles in
                        for k in 0..<n {
                            let o = ordinals[k]
                            if o < 0 { continue }
                            var e = Int(first[o])
                            while e >= 0 {
                                let h = handles[e]
                                rows.append(k)
                                matched.append(h)
                                if h < 0 { decoded = true }
                                e = Int(next[e])
                            }
                        }
                    }
                }
            }
        }
        return decoded
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

    /// How many rows are stored.
    var rowCount: Int { handles.count }

    /// Every stored row, in arrival order, decoded with `width` columns (the operand's).
    func storedRows(width: Int) -> [Row] {
        handles.map { handle in Row((0..<width).map { value(handle, $0) }) }
    }

    /// The value at operand column `position` of the row with this handle.
    func value(_ handle: Int, _ position: Int) -> Value {
        if handle < 0 { return rows[-handle - 1].values[position] }
        let s = stores[handle >> 32]
        return s.store.withKeyReader { $0.value(row: handle & 0xFFFF_FFFF, column: s.columnOf[position]) }
    }

    /// The last `keySet` made from keys that were all one integer each, with those
    /// integers by number; kept across `removeAllForReuse`: a prepared query's runs ask a
    /// join table for the same few keys run after run, and making the set (about 2,500
    /// instructions for one key) cost more than comparing the integers. The set handed out
    /// again is the very set, so a filter built from it compares equal to the last run's
    /// without walking it.
    private var madeKeySet: (keys: [Int64], set: Set<Row>)?
    private var askedKeys: [Int64] = []
    /// At most this many keys for `keySet` to keep what it made.
    static let keySetKeepLimit = 64

    /// The distinct keys stored, each as a key row (as first stored).
    var keySet: Set<Row> {
        guard spelled.isEmpty, keys.count <= Self.keySetKeepLimit, keys.integerKeys(into: &askedKeys) else {
            return makeKeySet()
        }
        if let made = madeKeySet, made.keys == askedKeys { return made.set }
        let set = makeKeySet()
        madeKeySet = (askedKeys, set)
        return set
    }

    private func makeKeySet() -> Set<Row> {
        let values = keys.allValues
        var set = Set<Row>(minimumCapacity: values.count)
        // An empty `spelled` (no integral real key) is not hashed into per key.
        let respelled = !spelled.isEmpty
        for (i, value) in values.enumerated() { set.insert(Row(respelled ? spelled[i] ?? value : value)) }
        return set
    }
}
