/// An index on one column: value → the positions holding it, without a copy of any row
/// or value. Rows with equal values form a group, kept as a circular list through
/// `next` (4 bytes a row); a `PositionTable` keyed by the column's value finds each
/// group's last member (4 bytes a slot, a slot per distinct value at most 2/3 full).
/// Keys are the column's `ValueKey`s — an integer, a real's bits, or a text code —
/// so every lookup, including on text, is a probe keyed by one Int64 and a kind byte.
struct ColumnIndex: Sendable {
    /// The column (scheme position) indexed.
    let column: Int
    /// Group tails by value.
    private var tails = PositionTable()
    /// `next[p]`: the position after p in its group (circular: the tail's next is the head).
    private var next: [UInt32] = []

    init(column: Int) { self.column = column }

    var distinctValues: Int { tails.count }

    /// The position holding `key` when the column's values are unique (else the last of them).
    func onlyPosition<C: KeyedColumn>(of key: ValueKey, in values: C) -> Int? {
        tail(key, values)?.position
    }

    /// The group tail holding `key`, with its slot.
    @inline(__always)
    private func tail<C: KeyedColumn>(_ key: ValueKey, _ values: C) -> (slot: Int, position: Int)? {
        tails.find(hash: key.hash) { values.key(at: $0) == key }
    }

    /// Calls `body` with each position holding `key`, in the order they were added.
    @inline(__always)
    func forEachPosition<C: KeyedColumn>(of key: ValueKey, in values: C, _ body: (Int) -> Void) {
        guard let t = tail(key, values)?.position else { return }
        var p = Int(next[t])
        while true {
            body(p)
            if p == t { return }
            p = Int(next[p])
        }
    }

    func positions<C: KeyedColumn>(of key: ValueKey, in values: C, into out: inout [Int]) {
        forEachPosition(of: key, in: values) { out.append($0) }
    }

    /// Adds the row just appended at `position` (must be `next.count`).
    mutating func append<C: KeyedColumn>(_ position: Int, in values: C) {
        let key = values.key(at: position)
        if let (slot, t) = tail(key, values) {
            next.append(next[t])
            next[t] = UInt32(position)
            tails.setSlot(slot, to: position)
        } else {
            next.append(UInt32(position))
            // While every row is its own group the tails are exactly 0..<position.
            tails.insert(position, hash: key.hash, dense: tails.count == position) { values.key(at: $0).hash }
        }
    }

    /// Takes `position` out of its group (the row is being deleted; its value still there).
    mutating func remove<C: KeyedColumn>(_ position: Int, in values: C) {
        guard let (slot, t) = tail(values.key(at: position), values) else { return }
        if Int(next[position]) == position {
            tails.removeSlot(slot) { values.key(at: $0).hash }
            return
        }
        let before = predecessor(of: position, from: t)
        next[before] = next[position]
        if t == position { tails.setSlot(slot, to: before) }
    }

    /// Renames position `from` (the last row) to `to` (the gap a deleted row left); the
    /// column still holds the moving row's value at `from`. Then drops the last entry.
    mutating func move<C: KeyedColumn>(from: Int, to: Int, in values: C) {
        guard let (slot, t) = tail(values.key(at: from), values) else { return }
        if Int(next[from]) == from {
            next[to] = UInt32(to)
        } else {
            let before = predecessor(of: from, from: t)
            next[to] = next[from]
            next[before] = UInt32(to)
        }
        if t == from { tails.setSlot(slot, to: to) }
        next.removeLast()
    }

    /// Room for `n` rows in all, when every row so far holds its own value (an id column,
    /// whose slot table grows with the rows); otherwise the table grows as values come.
    mutating func reserve<C: KeyedColumn>(_ n: Int, in values: C) {
        next.reserveCapacity(n)
        guard tails.count == next.count else { return }
        tails.reserve(n, dense: true) { values.key(at: $0).hash }
    }

    /// Drops the last entry (the deleted row was the last one).
    mutating func dropLast() { next.removeLast() }

    /// Builds the index over the first `count` positions of `values`. Hashes are taken in
    /// one pass over the column and sorted by home slot, so equal values come out adjacent
    /// and in position order: each run becomes one group, linked without looking up the
    /// table, and the table is written in slot order.
    mutating func rebuild<C: KeyedColumn>(_ values: C, count: Int) {
        let sorted = ScratchBuffer<HashRecord>(count: count)
        for p in 0..<count {
            let key = values.key(at: p)
            sorted[p] = HashRecord(hash: key.hash, item: UInt32(p), kind: key.kind)
        }
        sortByHome(sorted, spare: ScratchBuffer(count: count), capacity: PositionTable.capacity(for: count))
        var distinct = 0
        for i in 0..<count where i == 0 || sorted[i].hash != sorted[i - 1].hash || sorted[i].kind != sorted[i - 1].kind {
            distinct += 1
        }
        tails.removeAll()
        tails.reserve(distinct) { _ in 0 }
        next = [UInt32](repeating: 0, count: count)
        var start = 0
        while start < count {
            var end = start + 1
            while end < count && sorted[end].hash == sorted[start].hash && sorted[end].kind == sorted[start].kind { end += 1 }
            for i in start..<(end - 1) { next[Int(sorted[i].item)] = sorted[i + 1].item }
            next[Int(sorted[end - 1].item)] = sorted[start].item
            tails.insertReserved(Int(sorted[end - 1].item), hash: sorted[start].hash) { values.key(at: $0).hash }
            start = end
        }
    }

    private func predecessor(of position: Int, from tail: Int) -> Int {
        var q = tail
        while Int(next[q]) != position { q = Int(next[q]) }
        return q
    }
}
