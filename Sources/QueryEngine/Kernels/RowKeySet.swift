import Relational

/// The rows a set operation keeps (union's seen rows, difference's right side), by key:
/// one-integer keys (an integer, or a real equal to one: `3 == 3.0`) inside a window of
/// values as bits (`IntegerWindowSet`), every other key in an `EncodedKeySet`. The window
/// is placed around the first integer key, as wide as a few times its store's rows, so a
/// table's ids take a bit each; integers outside it go to the encoded set, which spells
/// them the same way. Every integer key goes through `insert(integer:)` /
/// `contains(integer:)`, so equal keys meet whichever way they came.
struct RowKeySet {
    private var window: IntegerWindowSet?
    private var others = EncodedKeySet()
    /// The window's width, once it is placed: `spanPerRow` values per row of the first
    /// view's store (or a floor for decoded rows and small stores).
    private var span = Self.minimumSpan
    private static let minimumSpan = 1 << 16
    private static let spanPerRow = 4

    init() {}

    // MARK: One key at a time

    @inline(__always)
    mutating func insert(_ key: RowKey) -> Bool {
        if key.isInteger { return insert(integer: key.integer) }
        if let i = EncodedKeySet.singleInteger(key.encoder.buffer) { return insert(integer: i) }
        return others.insert(key.encoder).inserted
    }

    @inline(__always)
    func contains(_ key: RowKey) -> Bool {
        if key.isInteger { return contains(integer: key.integer) }
        if let i = EncodedKeySet.singleInteger(key.encoder.buffer) { return contains(integer: i) }
        return others.find(key.encoder) != nil
    }

    mutating func insert(integer i: Int64) -> Bool {
        if window == nil { window = IntegerWindowSet(around: i, span: span) }
        if window?.covers(i) == true { return window?.insert(i) ?? false }
        return others.insert(integer: i).inserted
    }

    func contains(integer i: Int64) -> Bool {
        if let window, window.covers(i) { return window.contains(i) }
        return others.find(integer: i) != nil
    }

    // MARK: A piece at a time

    /// Adds every row of the piece (its whole row is the key); returns the indexes of the
    /// rows that were new, ascending.
    mutating func insertNew(_ piece: BatchPiece) -> [Int] {
        if window == nil, case let .columns(view) = piece, let part = view.partOf.first {
            span = max(Self.minimumSpan, Self.spanPerRow * view.parts[part].store.count)
        }
        if let fresh = Self.withIntegerKeys(piece, { keys, others in insertNew(keys, nonIntegers: others, piece) }) {
            return fresh
        }
        var fresh: [Int] = []
        piece.forEachKey(nil) { k, key in if insert(key) { fresh.append(k) } }
        return fresh
    }

    /// The indexes of the piece's rows the set holds (`holding`) or does not hold,
    /// ascending.
    func select(_ piece: BatchPiece, holding: Bool) -> [Int] {
        if let found = Self.withIntegerKeys(piece, { keys, others in select(keys, nonIntegers: others, piece, holding: holding) }) {
            return found
        }
        var keep: [Int] = []
        piece.forEachKey(nil) { k, key in if contains(key) == holding { keep.append(k) } }
        return keep
    }

    /// How many keys the set holds (as many as `allValues`, without making them).
    var count: Int { (window?.count ?? 0) + others.count }

    /// Every key's values (an integral real comes back as the equal integer).
    var allValues: [[Value]] {
        (window?.values ?? []).map { [.integer($0)] } + others.allValues
    }

    /// For a view of one column: `body(keys, nonIntegers)` with the rows' values where
    /// stored as integers and the ascending indexes of the rows whose value is not
    /// (`KeyReader.integers`), one read of the column for the batch. Nil for any other piece.
    private static func withIntegerKeys<R>(
        _ piece: BatchPiece, _ body: (UnsafeBufferPointer<Int64>, [Int]) -> R
    ) -> R? {
        guard case let .columns(view) = piece, view.width == 1, view.count > 0 else { return nil }
        let part = view.partOf[0]
        return view.parts[part].store.withKeyReader { reader in
            view.parts[part].positions.withUnsafeBufferPointer { rows in
                withUnsafeTemporaryAllocation(of: Int64.self, capacity: rows.count) { keys in
                    var nonIntegers: [Int] = []
                    reader.integers(column: view.columnOf[0], rows: rows, into: keys, others: &nonIntegers)
                    return body(UnsafeBufferPointer(keys), nonIntegers)
                }
            }
        }
    }

    private mutating func insertNew(_ keys: UnsafeBufferPointer<Int64>, nonIntegers: [Int], _ piece: BatchPiece) -> [Int] {
        var fresh: [Int] = []
        var outside: [Int] = []
        if window == nil, let first = firstInteger(keys, skipping: nonIntegers) {
            window = IntegerWindowSet(around: first, span: span)
        }
        if window != nil {
            window?.insertEach(keys, skip: nonIntegers, fresh: &fresh, outside: &outside)
        }
        for k in outside where others.insert(integer: keys[k]).inserted { fresh.append(k) }
        if !nonIntegers.isEmpty {
            piece.selecting(nonIntegers).forEachKey(nil) { i, key in
                if insert(key) { fresh.append(nonIntegers[i]) }
            }
        }
        if !outside.isEmpty || !nonIntegers.isEmpty { fresh.sort() }
        return fresh
    }

    private func select(_ keys: UnsafeBufferPointer<Int64>, nonIntegers: [Int], _ piece: BatchPiece, holding: Bool) -> [Int] {
        var found: [Int] = []
        var outside: [Int] = []
        if let window {
            window.findEach(keys, skip: nonIntegers, found: &found, outside: &outside)
        } else {
            var s = 0
            for k in 0..<keys.count {
                if s < nonIntegers.count, nonIntegers[s] == k { s += 1 } else { outside.append(k) }
            }
        }
        for k in outside where others.find(integer: keys[k]) != nil { found.append(k) }
        if !nonIntegers.isEmpty {
            piece.selecting(nonIntegers).forEachKey(nil) { i, key in
                if contains(key) { found.append(nonIntegers[i]) }
            }
        }
        if !outside.isEmpty || !nonIntegers.isEmpty { found.sort() }
        return holding ? found : Self.complement(found, count: keys.count)
    }

    private func firstInteger(_ keys: UnsafeBufferPointer<Int64>, skipping nonIntegers: [Int]) -> Int64? {
        for k in 0..<keys.count where nonIntegers.count <= k || nonIntegers[k] != k { return keys[k] }
        return nil
    }

    /// `0..<count` without `sorted` (ascending).
    private static func complement(_ sorted: [Int], count: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(count - sorted.count)
        var s = 0
        for k in 0..<count {
            if s < sorted.count, sorted[s] == k { s += 1 } else { out.append(k) }
        }
        return out
    }
}
