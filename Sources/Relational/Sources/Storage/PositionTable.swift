/// An open-addressing hash table of row positions (linear probing, at most 2/3 full).
/// It stores no keys: the caller supplies each position's hash and decides equality by
/// looking at its columns, so a table costs 4 bytes a slot whatever the rows hold.
/// Used for a table's membership (a position per row), an index's groups (a position
/// per distinct value) and a dictionary's strings (a code per string).
///
/// While positions stay below 2^27 − 1, a slot's top 5 bits hold 5 bits of the hash, so
/// 31 in 32 probes of a different key are rejected without reading a column (a cache miss
/// each); larger tables fall back to 32-bit positions.
struct PositionTable: Sendable {
    /// 0 is an empty slot; otherwise (hash tag << positionBits) | (position + 1).
    private var slots: [UInt32] = []
    private(set) var count = 0
    private var positionBits: UInt32
    private let taggedPositionBits: UInt32

    /// `taggedPositionBits` below 27 only in tests, to reach the fallback with small tables.
    init(taggedPositionBits: UInt32 = 27) {
        self.taggedPositionBits = taggedPositionBits
        positionBits = taggedPositionBits
    }

    /// Positions must stay below this (slots hold position + 1 in 32 bits).
    static let positionLimit = Int(UInt32.max) - 1

    private var mask: Int { slots.count - 1 }

    @inline(__always)
    private var positionMask: UInt32 { positionBits == 32 ? UInt32.max : (1 << positionBits) - 1 }

    @inline(__always)
    private func tag(_ hash: UInt64) -> UInt32 {
        positionBits == 32 ? 0 : UInt32(truncatingIfNeeded: hash >> UInt64(32 + positionBits)) << positionBits
    }

    /// The first position on `hash`'s probe sequence that `matches`, with its slot.
    @inline(__always)
    func find(hash: UInt64, where matches: (Int) -> Bool) -> (slot: Int, position: Int)? {
        if slots.isEmpty { return nil }
        let mask = self.mask
        let positionMask = self.positionMask
        let tag = self.tag(hash)
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if s & ~positionMask == tag {
                let position = Int(s & positionMask) - 1
                if matches(position) { return (i, position) }
            }
            i = (i + 1) & mask
        }
    }

    /// Adds a position known to be absent. `hashOf` gives any stored position's hash
    /// (needed when the table grows).
    /// `dense`: the table holds exactly the positions 0..<count (a membership table, a
    /// dictionary), so growing re-inserts them in that order, reading the items they hash
    /// sequentially instead of in slot (random) order.
    @inline(__always)
    mutating func insert(_ position: Int, hash: UInt64, dense: Bool = false, hashOf: (Int) -> UInt64) {
        if positionBits < 32 && position + 1 > Int(positionMask) {
            let oldMask = positionMask
            positionBits = 32
            grow(minimumCount: count + 1, dense: dense, hashOf: hashOf, oldPositionMask: oldMask)
        }
        if (count + 1) * 3 > slots.count * 2 { grow(minimumCount: count + 1, dense: dense, hashOf: hashOf) }
        place(position, hash: hash)
        count += 1
    }

    /// Points a slot found by `find` at another position (a row that moved).
    /// The new position must have the same hash (the same row, or the same key).
    mutating func setSlot(_ slot: Int, to position: Int) {
        slots[slot] = (slots[slot] & ~positionMask) | UInt32(position + 1)
    }

    /// Empties a slot found by `find`, shifting later entries of its cluster back so that
    /// every entry stays reachable from its home slot (no tombstones).
    mutating func removeSlot(_ slot: Int, hashOf: (Int) -> UInt64) {
        let mask = self.mask
        var hole = slot
        var j = slot
        while true {
            j = (j + 1) & mask
            let s = slots[j]
            if s == 0 { break }
            let home = Int(truncatingIfNeeded: hashOf(Int(s & positionMask) - 1)) & mask
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            let homeBetween = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)
            if !homeBetween {
                slots[hole] = s
                hole = j
            }
        }
        slots[hole] = 0
        count -= 1
    }

    /// Sizes the table for `n` entries without growing on the way.
    mutating func reserve(_ n: Int, dense: Bool = false, hashOf: (Int) -> UInt64) {
        if n * 3 > slots.count * 2 { grow(minimumCount: n, dense: dense, hashOf: hashOf) }
    }

    /// Slots a table needs for `n` entries.
    static func capacity(for n: Int) -> Int {
        var capacity = 16
        while n * 3 > capacity * 2 { capacity *= 2 }
        return capacity
    }

    /// Adds a position known to be absent; does not grow when the bulk builder reserved room.
    @inline(__always)
    mutating func insertReserved(_ position: Int, hash: UInt64, hashOf: (Int) -> UInt64) {
        guard (count + 1) * 3 <= slots.count * 2 && position + 1 <= Int(positionMask) else {
            return insert(position, hash: hash, hashOf: hashOf)
        }
        place(position, hash: hash)
        count += 1
    }

    /// Shrinks the table while it stays at most 2/3 full (after a build sized for the worst case).
    mutating func shrinkToFit(hashOf: (Int) -> UInt64) {
        var capacity = slots.count
        while capacity > 16 && count * 3 <= (capacity / 2) * 2 { capacity /= 2 }
        guard capacity < slots.count else { return }
        let old = slots
        let positionMask = self.positionMask
        slots = [UInt32](repeating: 0, count: capacity)
        for s in old where s != 0 {
            let position = Int(s & positionMask) - 1
            place(position, hash: hashOf(position))
        }
    }

    mutating func removeAll() {
        slots = []
        count = 0
        positionBits = taggedPositionBits
    }

    /// Every stored position, in slot order.
    func forEachPosition(_ body: (Int) -> Void) {
        for s in slots where s != 0 { body(Int(s & positionMask) - 1) }
    }

    private mutating func grow(minimumCount: Int, dense: Bool = false, hashOf: (Int) -> UInt64, oldPositionMask: UInt32? = nil) {
        var capacity = max(16, slots.count)
        while minimumCount * 3 > capacity * 2 { capacity *= 2 }
        let old = slots
        let decode = oldPositionMask ?? positionMask
        slots = [UInt32](repeating: 0, count: capacity)
        if dense {
            for position in 0..<count { place(position, hash: hashOf(position)) }
            return
        }
        for s in old where s != 0 {
            let position = Int(s & decode) - 1
            place(position, hash: hashOf(position))
        }
    }

    @inline(__always)
    private mutating func place(_ position: Int, hash: UInt64) {
        let mask = self.mask
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = tag(hash) | UInt32(position + 1)
    }
}

/// An item (a position or a code) with its hash, for bulk builds: hashes are computed in
/// one sequential pass over the items, and the records sorted by home slot (`sortedByHome`),
/// so that the build then writes the table in slot order and never reads an item again
/// just to hash it (each such read is a cache miss on a large table).
struct HashRecord {
    var hash: UInt64
    var item: UInt32
    /// Kept beside the hash for index keys: for one kind, key → hash is a bijection
    /// (see `ValueKey.hash`), so equal (kind, hash) means equal keys.
    var kind: UInt8
}

/// The records ordered by home slot in a table of `capacity` slots (a power of two), then
/// by hash, kind and item, so equal hashes are adjacent and in item order. A radix sort
/// on the home slot's top 16 bits, 8 bits a pass (a 256-way scatter stays in cache where a
/// 65,536-way one would not), then an insertion sort of each small 16-bit bucket. The
/// result is in `records` (`spare` is scratch of the same size).
func sortByHome(_ records: ScratchBuffer<HashRecord>, spare: ScratchBuffer<HashRecord>, capacity: Int) {
    let n = records.count
    let capacityBits = capacity.trailingZeroBitCount
    let bucketBits = min(16, capacityBits)
    let shift = UInt64(capacityBits - bucketBits)
    let mask = UInt64(capacity - 1)
    @inline(__always) func bucket(_ r: HashRecord) -> Int { Int((r.hash & mask) >> shift) }

    var from = records.base
    var to = spare.base
    var passes = 0
    var low = 0
    while low < bucketBits {
        let width = min(8, bucketBits - low)
        var starts = [Int](repeating: 0, count: (1 << width) + 1)
        let digitMask = (1 << width) - 1
        for i in 0..<n { starts[((bucket(from[i]) >> low) & digitMask) + 1] += 1 }
        for d in 0..<(1 << width) { starts[d + 1] += starts[d] }
        for i in 0..<n {
            let r = from[i]
            let d = (bucket(r) >> low) & digitMask
            to[starts[d]] = r
            starts[d] += 1
        }
        swap(&from, &to)
        passes += 1
        low += width
    }
    if passes % 2 == 1 { records.base.update(from: spare.base, count: n) }

    @inline(__always)
    func before(_ a: HashRecord, _ b: HashRecord) -> Bool {
        let (ha, hb) = (a.hash & mask, b.hash & mask)
        if ha != hb { return ha < hb }
        if a.hash != b.hash { return a.hash < b.hash }
        if a.kind != b.kind { return a.kind < b.kind }
        return a.item < b.item
    }
    let buffer = records.base
    var start = 0
    while start < n {
        let b = bucket(buffer[start])
        var end = start + 1
        while end < n && bucket(buffer[end]) == b { end += 1 }
        if end - start > 1 {
            for i in (start + 1)..<end {
                let r = buffer[i]
                var j = i
                while j > start && before(r, buffer[j - 1]) {
                    buffer[j] = buffer[j - 1]
                    j -= 1
                }
                buffer[j] = r
            }
        }
        start = end
    }
}
