import Relational

/// Applies checked writes to mutable sources and remembers how to undo them.
///
/// Every write is checked in full before the source is touched: rows must fit the scheme,
/// rows to remove must be present, an update may not merge rows (with each other or with
/// a row it does not touch), and neither a declared key nor the source's own primary key
/// may repeat. A refused write changes nothing. Adding a row that is already there is no
/// change (relations are sets); adding one whose key another row holds is a clash.
final class SourceWriter {
    private struct Undo {
        let source: any MutableSource
        let removed: [Row]
        let inserted: [Row]
    }

    /// Declared keys per source (by identity): each an attribute list that no two rows share.
    var keys: [ObjectIdentifier: [[Attribute]]] = [:]
    private(set) var deltas: [ObjectIdentifier: SourceDelta] = [:]
    private var undoLog: [Undo] = []

    var changedSources: [SourceDelta] { deltas.values.filter { !$0.isEmpty }.sorted { $0.source.sourceName < $1.source.sourceName } }

    /// Adds rows (values in scheme order); rows already present are left as they are.
    func insert(_ rows: [Row], into source: any MutableSource) throws {
        for row in rows where row.count != source.scheme.count {
            throw ChangeError("add to \(source.sourceName): the row has \(row.count) value(s) but the scheme "
                + "\(source.scheme) has \(source.scheme.count)")
        }
        try write(source, remove: [], add: Set(rows), isUpdate: false)
    }

    func delete(_ rows: Set<Row>, from source: any MutableSource) throws {
        try write(source, remove: rows, add: [], isUpdate: false)
    }

    /// Sets `values` on exactly `rows` (which must be present).
    func update(_ rows: Set<Row>, of source: any MutableSource, set values: [Attribute: Value]) throws {
        var assignments: [(Int, Value)] = []
        for (a, v) in values.sorted(by: { $0.key < $1.key }) {
            guard let i = source.scheme.index(of: a) else {
                throw ChangeError("update of \(source.sourceName): unknown attribute '\(a)'; the relation has \(source.scheme)")
            }
            assignments.append((i, v))
        }
        var newRows = Set<Row>()
        for row in rows {
            var values = row.values
            for (i, v) in assignments { values[i] = v }
            if !newRows.insert(Row(values)).inserted {
                throw ChangeError("update of \(source.sourceName) would merge several rows into "
                    + RowChange.render(Row(values), scheme: source.scheme))
            }
        }
        try write(source, remove: rows, add: newRows, isUpdate: true)
    }

    /// Applies the writes an update or delete of a derived relation was traced back to. Writes
    /// that reach the same source (an intersection's two operands, a self-join's two sides) are
    /// merged into one write per source, each row taking every assignment that reaches it, so a
    /// row is never written twice; a row asked to take two different values for one attribute
    /// is refused.
    func apply(_ writes: [SourceWrite]) throws {
        var order: [ObjectIdentifier] = []
        var sources: [ObjectIdentifier: any MutableSource] = [:]
        var deletes: [ObjectIdentifier: Set<Row>] = [:]
        var updates: [ObjectIdentifier: [Row: [Attribute: Value]]] = [:]
        for w in writes {
            let id = ObjectIdentifier(w.source)
            if sources.updateValue(w.source, forKey: id) == nil { order.append(id) }
            guard let set = w.set else {
                deletes[id, default: []].formUnion(w.rows)
                continue
            }
            for row in w.rows.sorted() {
                var merged = updates[id]?[row] ?? [:]
                for (a, v) in set.sorted(by: { $0.key < $1.key }) {
                    if let other = merged.updateValue(v, forKey: a), other != v {
                        throw ChangeError("update of \(w.source.sourceName) would set '\(a.name)' of the row "
                            + "\(RowChange.render(row, scheme: w.source.scheme)) to both \(other) and \(v) "
                            + "(the row is reached through more than one operand)")
                    }
                }
                updates[id, default: [:]][row] = merged
            }
        }
        for id in order {
            guard let source = sources[id] else { continue }
            if let rows = deletes[id] { try delete(rows, from: source) }
            if let assignments = updates[id] { try update(assignments, of: source) }
        }
    }

    /// Sets each row's own assignments (the rows must be present).
    private func update(_ assignments: [Row: [Attribute: Value]], of source: any MutableSource) throws {
        var newRows = Set<Row>()
        for (row, set) in assignments {
            var values = row.values
            for (a, v) in set {
                guard let i = source.scheme.index(of: a) else {
                    throw ChangeError("update of \(source.sourceName): unknown attribute '\(a)'; the relation has \(source.scheme)")
                }
                values[i] = v
            }
            if !newRows.insert(Row(values)).inserted {
                throw ChangeError("update of \(source.sourceName) would merge several rows into "
                    + RowChange.render(Row(values), scheme: source.scheme))
            }
        }
        try write(source, remove: Set(assignments.keys), add: newRows, isUpdate: true)
    }

    private func write(_ source: any MutableSource, remove: Set<Row>, add: Set<Row>, isUpdate: Bool) throws {
        let netRemove = remove.subtracting(add)
        let netAdd = add.subtracting(remove)
        let name = source.sourceName
        let missing = netRemove.subtracting(try present(netRemove, in: source))
        if let row = missing.first {
            throw ChangeError("change to \(name): the row \(RowChange.render(row, scheme: source.scheme)) is not there "
                + "(it may have been changed earlier in the same statement)")
        }
        let already = try present(netAdd, in: source)
        if isUpdate, let row = already.sorted().first {
            throw ChangeError("update of \(name) would merge a row into the existing row "
                + RowChange.render(row, scheme: source.scheme))
        }
        let inserted = netAdd.subtracting(already)
        try checkKeys(source, remaining: netRemove, adding: inserted)
        let removedRows = netRemove.sorted()
        let insertedRows = inserted.sorted()
        try source.removeRows(removedRows)
        try source.insertRows(insertedRows)
        undoLog.append(Undo(source: source, removed: removedRows, inserted: insertedRows))
        var delta = deltas[ObjectIdentifier(source)] ?? SourceDelta(source: source)
        for row in removedRows { delta.recordRemove(row) }
        for row in insertedRows { delta.recordInsert(row) }
        deltas[ObjectIdentifier(source)] = delta
    }

    /// No two rows left after the write may share a declared key or the source's primary key.
    private func checkKeys(_ source: any MutableSource, remaining removed: Set<Row>, adding rows: Set<Row>) throws {
        guard !rows.isEmpty else { return }
        for key in checkedKeys(source) {
            let positions = key.compactMap { source.scheme.index(of: $0) }
            var seen: [Row: Row] = [:]
            for row in rows.sorted() {
                if let other = seen.updateValue(row, forKey: row.picking(positions)) {
                    throw keyClash(source, key, other, row)
                }
            }
            for chunk in Self.chunks(Array(seen.keys)) {
                let filter = Predicate.matchingValues(chunk.map(\.values), on: key)
                for existing in try source.fetchAll(filter: filter) where !removed.contains(existing) {
                    if let new = seen[existing.picking(positions)], new != existing {
                        throw keyClash(source, key, existing, new)
                    }
                }
            }
        }
    }

    /// The declared keys and the storage's primary key (unless it is the whole row, which
    /// set semantics already keeps distinct), each once.
    private func checkedKeys(_ source: any MutableSource) -> [[Attribute]] {
        var out = keys[ObjectIdentifier(source)] ?? []
        let own = source.primaryKey
        if !own.isEmpty, Set(own) != Set(source.scheme.attributes), !out.contains(where: { Set($0) == Set(own) }) {
            out.append(own)
        }
        return out
    }

    private func keyClash(_ source: any MutableSource, _ key: [Attribute], _ a: Row, _ b: Row) -> ChangeError {
        let value = key.compactMap { k in source.scheme.index(of: k).map { "\(k.name) = \(a.values[$0].displayText)" } }
        return ChangeError("change to \(source.sourceName) would give two rows the same key [\(key.map(\.name).joined(separator: ", "))] "
            + "(\(value.joined(separator: ", "))): \(RowChange.render(a, scheme: source.scheme)) and \(RowChange.render(b, scheme: source.scheme))")
    }

    /// Which of `rows` the source holds (one filtered fetch per chunk, so an index answers it).
    private func present(_ rows: Set<Row>, in source: any MutableSource) throws -> Set<Row> {
        var out = Set<Row>()
        for chunk in Self.chunks(Array(rows)) {
            for row in try source.fetchAll(filter: .matchingRows(chunk, scheme: source.scheme)) where rows.contains(row) {
                out.insert(row)
            }
        }
        return out
    }

    /// Small enough that a filter's constants stay far below SQLite's parameter limit.
    private static func chunks<T>(_ items: [T]) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: 200).map { items[$0..<min($0 + 200, items.count)] }
    }

    /// Undoes every write since the last `finish`, newest first.
    func rollback() throws {
        for undo in undoLog.reversed() {
            try undo.source.removeRows(undo.inserted)
            try undo.source.insertRows(undo.removed)
        }
        finish()
    }

    /// Forgets the undo log and the deltas (after a commit has propagated them).
    func finish() {
        undoLog = []
        deltas = [:]
    }
}
