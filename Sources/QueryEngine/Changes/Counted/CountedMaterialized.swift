import Relational

/// A maintained copy of a node's rows, with a hash index per probed position list: what a
/// parent probes when the node cannot answer probes itself (a join, a closure, a source
/// without an index on the attributes). Its delta is its node's, applied to the copy.
/// Probes of a copy of a source count as source rows read, like probes of the source.
final class CountedMaterialized: CountedNode {
    let core: CountedNodeCore
    let inner: any CountedNode
    private let countsAsSource: Bool
    private var rows: Set<Row>
    private var indexes: [[Int]: [Row: Set<Row>]] = [:]
    /// The keys of `indexes`, iterated while `indexes` changes (iterating `indexes.keys`
    /// would share its storage and make each change copy it).
    private var indexPositions: [[Int]] = []

    init(_ inner: any CountedNode, context: CountedContext) throws {
        self.inner = inner
        if case let .source(s) = inner.relation.definition {
            countsAsSource = true
            rows = Set(try s.fetchAll())
        } else {
            countsAsSource = false
            rows = try context.evaluate(inner.relation)
        }
        core = CountedNodeCore(relation: inner.relation, context: context, sourcesBelow: inner.sourcesBelow)
    }

    /// Rows kept: the copy plus one entry per row per index.
    var keptRows: Int { rows.count * (1 + indexes.count) }

    /// Adds an index on `positions` (at set-up, before any transaction).
    func addIndex(_ positions: [Int]) {
        guard indexes[positions] == nil else { return }
        var index: [Row: Set<Row>] = [:]
        for row in rows { index[row.picking(positions), default: []].insert(row) }
        indexes[positions] = index
        indexPositions.append(positions)
    }

    func computeDelta() throws -> CountedDelta {
        let d = inner.delta
        for row in d.removed {
            rows.remove(row)
            for p in indexPositions {
                let k = row.picking(p)
                indexes[p]?[k]?.remove(row)
                if indexes[p]?[k]?.isEmpty == true { indexes[p]?[k] = nil }
            }
        }
        for row in d.added {
            rows.insert(row)
            for p in indexPositions { indexes[p]?[row.picking(p), default: []].insert(row) }
        }
        return d
    }

    var canContain: Bool { true }
    func canProbe(_ positions: [Int]) -> Bool { indexes[positions] != nil }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        let holds = rows.contains(row)
        if countsAsSource && holds { context.rowsRead += 1 }
        return state == .after ? holds : heldBefore(row, holdsAfter: holds)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        guard let index = indexes[positions] else {
            throw ChangeError("counted propagation: no index on positions \(positions) (a builder bug)")
        }
        let after = Array(index[key] ?? [])
        if countsAsSource { context.rowsRead += after.count }
        return state == .after ? after : matchingBefore(after, positions, key)
    }
}

/// Closure has no counted rule here (a new edge can join paths anywhere, and a removed one
/// needs rederivation): when its operand changes, the closure is re-evaluated by the engine
/// and diffed with the copy it keeps, exactly as the incremental mode's closure rule
/// compares the whole closure after with the whole closure before. Exact, and as costly as
/// a requery of the closure; the engine run's counters join the propagation's.
final class CountedClosureRequery: CountedNode {
    let core: CountedNodeCore
    let operand: any CountedNode
    private var rows: Set<Row>

    init(relation: Relation, operand: any CountedNode, context: CountedContext) throws {
        self.operand = operand
        rows = try context.evaluate(relation)
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: operand.sourcesBelow)
    }

    var keptRows: Int { rows.count }

    func computeDelta() throws -> CountedDelta {
        guard !operand.delta.isEmpty else { return CountedDelta() }
        let run = try context.engine.run([relation])
        context.runs.add(run)
        let now = Set(run.results[0])
        let out = CountedDelta(added: now.subtracting(rows), removed: rows.subtracting(now))
        rows = now
        return out
    }

    var canContain: Bool { true }
    func canProbe(_ positions: [Int]) -> Bool { false }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        let holds = rows.contains(row)
        return state == .after ? holds : heldBefore(row, holdsAfter: holds)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        throw ChangeError("counted propagation: a closure probed by values (a builder bug)")
    }
}
