import Relational

/// Symmetric hash join: each operand's rows are stored under their key and probe the
/// other operand's table. A table that can no longer be probed (the other operand is
/// complete) is freed, and rows arriving then are not stored.
///
/// Column views stay views: a view's row is stored as its position (`JoinTable`), and a
/// match of a view's row with a row stored by position is emitted as a pair of positions
/// (a `ColumnView` with one more part), so no row is decoded on the way. Other matches
/// are decoded into rows.
final class HashJoinKernel: Kernel {
    private let keyPositions: [[Int]]
    /// Each operand's column count.
    private let widths: [Int]
    /// Per output column: the operand and that operand's column it comes from.
    private let sources: [(operand: Int, position: Int)]
    /// Each operand's table, made when the first row arrives (a run of a small query
    /// creates and frees this kernel for every join, so empty state costs nothing).
    private var tables = JoinTablePair()
    /// Rows delivered per operand (join-key filters look at small complete operands).
    private var rowsReceivedLeft = 0
    private var rowsReceivedRight = 0
    private var completeLeft = false
    private var completeRight = false
    /// Every match of the batch being received: the probing row's index and the stored
    /// row's handle. Kept by the kernel, emptied per batch (`receive` never runs nested on
    /// one kernel), so a batch of a few rows allocates neither list.
    private var matchRows: [Int] = []
    private var matchHandles: [Int] = []
    /// A small view's integer keys (`receiveIntegerKeys`), kept likewise.
    private var smallKeys: [Int64] = []
    /// The last match view's column maps and dependence, per probing operand: they follow
    /// from the probing view's maps and the stored store's alone, and a run delivers the
    /// same ones batch after batch, run after run.
    private var lastMaps: (MatchMaps?, MatchMaps?)

    /// A match view's column maps, with what they were made from.
    private struct MatchMaps {
        let partOf: [Int]
        let columnOf: [Int]
        let storedColumnOf: [Int]
        let probeParts: Int
        let probeDistinct: Int?
        let storedDistinct: Int?
        let outPartOf: [Int]
        let outColumnOf: [Int]
        let dependence: ColumnView.Dependence?
    }

    func rowsReceived(_ operand: Int) -> Int { operand == 0 ? rowsReceivedLeft : rowsReceivedRight }
    private func isComplete(_ operand: Int) -> Bool { operand == 0 ? completeLeft : completeRight }

    init(left: Scheme, right: Scheme, pairs: [JoinPair], output: Scheme) {
        keyPositions = [pairs.compactMap { left.index(of: $0.left) }, pairs.compactMap { right.index(of: $0.right) }]
        widths = [left.count, right.count]
        sources = output.attributes.map { a in
            if let i = left.index(of: a) { return (0, i) }
            return (1, right.index(of: a) ?? 0)
        }
    }

    private init(_ other: HashJoinKernel) {
        keyPositions = other.keyPositions
        widths = other.widths
        sources = other.sources
    }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        if operand == 0 { rowsReceivedLeft += batch.count } else { rowsReceivedRight += batch.count }
        var out = Batch()
        for piece in batch.pieces {
            switch piece {
            case let .rows(rows): out.append(receive(rows, operand))
            case let .columns(view): receive(view, operand, into: &out)
            }
        }
        return out
    }

    private func receive(_ rows: [Row], _ operand: Int) -> BatchPiece {
        let other = 1 - operand
        let keep = !isComplete(other)
        let keyAt = keyPositions[operand]
        var out: [Row] = []
        let mine = tables.stored(operand, creating: keep)
        let theirs = tables.stored(other, creating: false)
        BatchPiece.rows(rows).forEachKey(keyAt) { k, key in
            let row = rows[k]
            if let mine { mine.insert(mine.keep(row), under: key) { keyAt.map { row.values[$0] } } }
            guard let theirs else { return }
            theirs.forEachMatch(key) { h in
                out.append(Row(sources.map { $0.operand == operand ? row.values[$0.position] : theirs.value(h, $0.position) }))
            }
        }
        return .rows(out)
    }

    private func receive(_ view: ColumnView, _ operand: Int, into out: inout Batch) {
        let other = 1 - operand
        let keep = !isComplete(other)
        let keyAt = keyPositions[operand]
        let mine = tables.stored(operand, creating: keep)
        let theirs = tables.stored(other, creating: false)
        let slot = view.parts.count == 1 ? mine?.slot(for: view) : nil
        // Every match: the probing row's index and the stored row's handle (the kernel's
        // lists, taken while filled so that they are not shared).
        var matchRows = self.matchRows
        var matchHandles = self.matchHandles
        self.matchRows = []
        self.matchHandles = []
        defer {
            // Kept for the next batch unless a large batch grew them.
            if matchRows.capacity <= JoinTable.reuseLimit {
                matchRows.emptyKeepingCapacity()
                matchHandles.emptyKeepingCapacity()
                self.matchRows = matchRows
                self.matchHandles = matchHandles
            }
        }
        var decodedMatches = false
        if keyAt.count == 1, !keep || slot != nil {
            decodedMatches = receiveIntegerKeys(
                view, operand, mine: slot == nil ? nil : mine, theirs: theirs, slot: slot, rows: &matchRows, handles: &matchHandles)
        } else {
            view.withReaders { readers in
                (view.parts.first?.positions ?? []).withUnsafeBufferPointer { firstPositions in
                    BatchPiece.columns(view).forEachKey(keyAt) { k, key in
                        if let mine {
                            let handle = slot.map { JoinTable.handle(slot: $0, position: firstPositions[k]) }
                                ?? mine.keep(view.row(readers, k))
                            mine.insert(handle, under: key) { keyAt.map { view.value(readers, k, $0) } }
                        }
                        theirs?.forEachMatch(key) { h in
                            matchRows.append(k)
                            matchHandles.append(h)
                            if h < 0 { decodedMatches = true }
                        }
                    }
                }
            }
        }
        guard !matchRows.isEmpty, let theirs else { return }
        // Matches with rows stored by position become views (one per store), the others rows.
        let otherStores = theirs.stores.count
        if otherStores == 1 && !decodedMatches {
            // The usual case, without a list per store.
            out.append(.columns(matchView(view, operand, stored: theirs.stores[0], probeIndexes: matchRows,
                                          storedPositions: matchHandles.map { $0 & 0xFFFF_FFFF })))
            return
        }
        var probeIndexes = [[Int]](repeating: [], count: otherStores)
        var storedPositions = [[Int]](repeating: [], count: otherStores)
        var decoded: [Row] = []
        do {
            view.withReaders { readers in
                for (k, h) in zip(matchRows, matchHandles) {
                    if h >= 0 {
                        probeIndexes[h >> 32].append(k)
                        storedPositions[h >> 32].append(h & 0xFFFF_FFFF)
                    } else {
                        decoded.append(Row(sources.map {
                            $0.operand == operand ? view.value(readers, k, $0.position) : theirs.value(h, $0.position)
                        }))
                    }
                }
            }
        }
        for s in 0..<otherStores where !probeIndexes[s].isEmpty {
            out.append(.columns(matchView(view, operand, stored: theirs.stores[s], probeIndexes: probeIndexes[s],
                                          storedPositions: storedPositions[s])))
        }
        out.append(.rows(decoded))
    }

    /// The matches of a probing view's rows (`probeIndexes`) with rows of one stored store
    /// (`storedPositions`), as a view with one more part.
    private func matchView(_ view: ColumnView, _ operand: Int, stored: (store: ColumnStore, columnOf: [Int], distinctColumn: Int?),
                           probeIndexes: [Int], storedPositions: [Int]) -> ColumnView {
        // Reserved for the stored part too: mapped and then appended to, the list was made
        // twice (about 600 instructions a match view).
        var parts: [ColumnView.Part] = []
        parts.reserveCapacity(view.parts.count + 1)
        for part in view.parts {
            parts.append(ColumnView.Part(store: part.store, positions: probeIndexes.map { part.positions[$0] },
                                         distinctColumn: part.distinctColumn))
        }
        parts.append(ColumnView.Part(store: stored.store, positions: storedPositions, distinctColumn: stored.distinctColumn))
        let maps = matchMaps(view, operand, stored: stored)
        return ColumnView(parts: parts, partOf: maps.outPartOf, columnOf: maps.outColumnOf, dependence: maps.dependence)
    }

    /// The match view's column maps and dependence: the last ones for this operand when
    /// made from the same maps, else made now and kept.
    private func matchMaps(_ view: ColumnView, _ operand: Int,
                           stored: (store: ColumnStore, columnOf: [Int], distinctColumn: Int?)) -> MatchMaps {
        let probeDistinct = view.parts.count == 1 ? view.parts[0].distinctColumn : nil
        if let last = operand == 0 ? lastMaps.0 : lastMaps.1, last.probeParts == view.parts.count,
           last.probeDistinct == probeDistinct, last.storedDistinct == stored.distinctColumn,
           last.partOf == view.partOf, last.columnOf == view.columnOf, last.storedColumnOf == stored.columnOf {
            return last
        }
        let storedPart = view.parts.count
        let maps = MatchMaps(
            partOf: view.partOf, columnOf: view.columnOf, storedColumnOf: stored.columnOf, probeParts: view.parts.count,
            probeDistinct: probeDistinct, storedDistinct: stored.distinctColumn,
            outPartOf: sources.map { $0.operand == operand ? view.partOf[$0.position] : storedPart },
            outColumnOf: sources.map { $0.operand == operand ? view.columnOf[$0.position] : stored.columnOf[$0.position] },
            dependence: dependence(probing: view, operand, stored: stored))
        if operand == 0 { lastMaps.0 = maps } else { lastMaps.1 = maps }
        return maps
    }

    /// How the parts of a match view of a single-part probing view (part 0) and a stored
    /// store (part 1) depend on each other: the part whose join key holds its store's
    /// distinct column is the function of the other (`ColumnView.Dependence`).
    private func dependence(probing view: ColumnView, _ operand: Int,
                            stored: (store: ColumnStore, columnOf: [Int], distinctColumn: Int?)) -> ColumnView.Dependence? {
        guard view.parts.count == 1 else { return nil }
        let probeKey = keyPositions[operand].map { view.columnOf[$0] }
        let storedKey = keyPositions[1 - operand].map { stored.columnOf[$0] }
        guard probeKey.count == storedKey.count, !probeKey.isEmpty else { return nil }
        if let d = stored.distinctColumn, storedKey.contains(d) {
            return ColumnView.Dependence(determining: 0, key: probeKey, otherKey: storedKey)
        }
        if let d = view.parts[0].distinctColumn, probeKey.contains(d) {
            return ColumnView.Dependence(determining: 1, key: storedKey, otherKey: probeKey)
        }
        return nil
    }

    /// A view's rows joined on one key column, stored (when kept) by position in `slot`:
    /// rows whose key is stored as an integer go through the tables' integer runs
    /// (`JoinTable.insert(integers:)`, `matches(integers:)`), the others one by one under
    /// their encoding, after them. Appends every match's row index and stored handle;
    /// true when a stored row was decoded.
    private func receiveIntegerKeys(_ view: ColumnView, _ operand: Int, mine: JoinTable?, theirs: JoinTable?, slot: Int?,
                                    rows: inout [Int], handles: inout [Int]) -> Bool {
        let j = keyPositions[operand][0]
        let part = view.partOf[j]
        let column = view.columnOf[j]
        let n = view.count
        var decoded = false
        if view.isSmall {
            // A few rows: keys read from the store one by one, no readers borrowed, when all
            // are stored as integers (else the general way below).
            var keys = smallKeys
            smallKeys = []
            keys.emptyKeepingCapacity()
            for k in 0..<n {
                guard case let .integer(i) = view.storedValue(k, j) else { break }
                keys.append(i)
            }
            if keys.count == n {
                keys.withUnsafeBufferPointer { keys in
                    if let slot, let mine {
                        view.parts[0].positions.withUnsafeBufferPointer { mine.insert(integers: keys, slot: slot, positions: $0) }
                    }
                    decoded = theirs?.matches(integers: keys, rows: &rows, handles: &handles) ?? false
                }
                smallKeys = keys
                return decoded
            }
            smallKeys = keys
        }
        var others: [Int] = []
        rows.reserveCapacity(n)
        handles.reserveCapacity(n)
        view.withReaders { readers in
            view.parts[part].positions.withUnsafeBufferPointer { keyRows in
                view.parts[0].positions.withUnsafeBufferPointer { stored in
                    withUnsafeTemporaryAllocation(of: Int64.self, capacity: n) { keys in
                        readers[part].integers(column: column, rows: keyRows, into: keys, others: &others)
                        if others.isEmpty {
                            if let slot, let mine { mine.insert(integers: UnsafeBufferPointer(keys), slot: slot, positions: stored) }
                            decoded = theirs?.matches(integers: UnsafeBufferPointer(keys), rows: &rows, handles: &handles) ?? false
                            return
                        }
                        // Integer keys compacted to the front, then the rest one by one.
                        var integerRows: [Int] = []
                        integerRows.reserveCapacity(n - others.count)
                        var storedPositions: [Int] = []
                        var m = 0
                        var o = 0
                        for k in 0..<n {
                            if o < others.count && others[o] == k {
                                o += 1
                                continue
                            }
                            keys[m] = keys[k]
                            m += 1
                            integerRows.append(k)
                            storedPositions.append(stored[k])
                        }
                        let integerKeys = UnsafeBufferPointer(rebasing: keys[0..<m])
                        if let slot, let mine {
                            storedPositions.withUnsafeBufferPointer { mine.insert(integers: integerKeys, slot: slot, positions: $0) }
                        }
                        let before = rows.count
                        decoded = theirs?.matches(integers: integerKeys, rows: &rows, handles: &handles) ?? false
                        for i in before..<rows.count { rows[i] = integerRows[rows[i]] }
                    }
                }
                guard !others.isEmpty else { return }
                let encoder = KeyEncoder()
                let reader = readers[part]
                for k in others {
                    encoder.reset()
                    reader.encode(row: keyRows[k], column: column, into: encoder)
                    let key = RowKey(encoder: encoder, integer: 0, isInteger: false)
                    if let slot, let mine {
                        mine.insert(JoinTable.handle(slot: slot, position: view.parts[0].positions[k]), under: key) {
                            [reader.value(row: keyRows[k], column: column)]
                        }
                    }
                    theirs?.forEachMatch(key) { h in
                        rows.append(k)
                        handles.append(h)
                        if h < 0 { decoded = true }
                    }
                }
            }
        }
        return decoded
    }

    func operandCompleted(_ operand: Int) -> Batch {
        if operand == 0 { completeLeft = true } else { completeRight = true }
        tables.free(1 - operand)
        return .empty
    }

    /// Every row an operand has delivered, while the other operand is incomplete (its table
    /// is kept to be probed until then).
    func retainedRows(ofOperand operand: Int) -> [Row]? {
        guard retainedRowCount(ofOperand: operand) != nil else { return nil }
        return tables.stored(operand, creating: false)?.storedRows(width: widths[operand]) ?? []
    }

    func retainedRowCount(ofOperand operand: Int) -> Int? {
        guard !isComplete(1 - operand) else { return nil }
        guard let table = tables.stored(operand, creating: false) else { return rowsReceived(operand) == 0 ? 0 : nil }
        return table.rowCount == rowsReceived(operand) ? table.rowCount : nil
    }

    /// The distinct keys stored for one operand.
    func keys(ofOperand operand: Int) -> Set<Row> { tables.stored(operand, creating: false)?.keySet ?? [] }

    func freshCopy() -> any Kernel { HashJoinKernel(self) }

    func resetForRun() -> Bool {
        tables.free(0)
        tables.free(1)
        rowsReceivedLeft = 0
        rowsReceivedRight = 0
        completeLeft = false
        completeRight = false
        return true
    }
}

/// A join's two tables, each made on first use and freed (nil) once it can no longer be
/// probed. A freed table that stayed small is emptied and kept (`spare`) for the next one
/// made: the kernel is kept across the runs of a prepared query (`Kernel.resetForRun`), so
/// a small query's runs reuse their join tables' storage.
private struct JoinTablePair {
    private var left: JoinTable?
    private var right: JoinTable?
    private var spare: (JoinTable?, JoinTable?)

    /// Operand `operand`'s table; with `creating`, made (or taken from the spares) when missing.
    mutating func stored(_ operand: Int, creating: Bool) -> JoinTable? {
        if operand == 0 {
            if creating && left == nil { left = takeSpare() }
            return left
        }
        if creating && right == nil { right = takeSpare() }
        return right
    }

    mutating func free(_ operand: Int) {
        let table: JoinTable?
        if operand == 0 {
            table = left
            left = nil
        } else {
            table = right
            right = nil
        }
        guard let table, table.removeAllForReuse() else { return }
        if spare.0 == nil { spare.0 = table } else if spare.1 == nil { spare.1 = table }
    }

    private mutating func takeSpare() -> JoinTable {
        if let table = spare.0 {
            spare.0 = nil
            return table
        }
        if let table = spare.1 {
            spare.1 = nil
            return table
        }
        return JoinTable()
    }
}
