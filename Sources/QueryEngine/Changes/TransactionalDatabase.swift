import Relational

/// Seed 001's `TransactionalDatabase`: changes to mutable sources are grouped into
/// transactions, and each committed transaction is propagated once, as a whole, to every
/// observed relation (source or derived).
///
///     let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
///     db.observe(selectedFruits) { change in print(change.rendered(scheme: selectedFruits.scheme)) }
///     try db.transaction {
///         try db.add([["id": 1, "name": "Apple"]], to: fruits)
///         try db.update(selectedFruitIDs, set: ["fruit_id": 1])
///     }
///
/// A statement outside `begin`/`commit` (or `transaction { }`) is its own transaction. A
/// statement that fails rolls back its whole transaction: every source is left as it was
/// before `begin`, observers hear nothing, and the error is rethrown.
///
/// Observers are called only with non-empty changes; `PropagationReport.changes` has
/// every observation's change, empty ones included.
public final class TransactionalDatabase {
    public enum Mode: String, CaseIterable, Sendable {
        /// Derivative graphs of the transaction's deltas, run by the engine bottom-up: an
        /// operator whose rules read a changed source's state before the change is run
        /// alone and its added and removed rows become small tables before its parent's
        /// rules use them; any other operator's rules, and an observed relation's that no
        /// other observed relation is built on, are read through by one last run.
        case incremental
        /// The same derivative rules as one graph per observation, all run as one query
        /// (PLRelational's route): fewer runs, but a delta that depends on a state that
        /// depends on the delta makes the engine read that state whole.
        case incrementalSingle = "incremental-single"
        /// Every observed relation re-evaluated by the engine and diffed with its last contents.
        /// The observed relations are prepared as one query on the first transaction after the
        /// observations last changed and rerun after (as an application reruns a prepared
        /// statement): a run of a prepared query decides, reads and counts exactly as a
        /// one-shot `QueryEngine.run`, without planning, optimizing and compiling again.
        case requery
        /// Counted state maintained per operator (`CountedDataflow`): built at observe time,
        /// then each transaction's deltas go through the operators' counted rules by hash
        /// probes, with no engine run (closure excepted: it is re-evaluated when it changes).
        case counted
    }

    public struct ObservationID: Hashable, Sendable {
        let value: Int
    }

    private final class Observation {
        let id: ObservationID
        let relation: Relation
        let observer: (RowChange) -> Void
        /// Last contents, kept only in requery mode.
        var contents: Set<Row>?

        init(id: ObservationID, relation: Relation, observer: @escaping (RowChange) -> Void) {
            self.id = id
            self.relation = relation
            self.observer = observer
        }
    }

    public let engine: QueryEngine
    public let mode: Mode
    private let writer = SourceWriter()
    private var observations: [Observation] = []
    private var nextObservation = 0
    /// Derivative graphs prepared for the shapes of change seen so far (incremental modes),
    /// or the observed relations prepared as one query (requery).
    private let prepared = PreparedDeltaGraphs()
    public private(set) var inTransaction = false
    /// The counted mode's maintained state; nil in other modes, and after a propagation that
    /// failed part-way or an observer was removed: then `begin` rebuilds it from the sources,
    /// before the transaction changes them (built from a state after, it would count the
    /// transaction's changes twice).
    private var counted: CountedDataflow?

    public init(engine: QueryEngine, mode: Mode = .incremental) {
        self.engine = engine
        self.mode = mode
    }

    // MARK: Keys and observers

    /// Declares that no two rows of `relation` (a mutable source) share `attributes`;
    /// changes that would break it are refused. Refused when the rows already break it, or
    /// in a transaction: incremental propagation relies on the key holding in every state.
    public func declareKey(_ attributes: [Attribute], of relation: Relation) throws {
        guard !inTransaction else { throw ChangeError("declareKey: a transaction is open; declare keys before begin or after commit") }
        let source = try mutableSource(relation, "declare a key on")
        for a in attributes where !source.scheme.contains(a) {
            throw ChangeError("key of \(source.sourceName): unknown attribute '\(a)'; the relation has \(source.scheme.listed())")
        }
        let positions = attributes.compactMap { source.scheme.index(of: $0) }
        var seen: [Row: Row] = [:]
        for row in try source.fetchAll() {
            if let other = seen.updateValue(row, forKey: row.picking(positions)) {
                throw ChangeError("key of \(source.sourceName): [\(attributes.map(\.name).joined(separator: ", "))] is not a key; "
                    + "\(RowChange.render(other, scheme: source.scheme)) and \(RowChange.render(row, scheme: source.scheme)) share it")
            }
        }
        writer.keys[ObjectIdentifier(source), default: []].append(attributes)
        prepared.removeAll()
        try rebuildCounted()
    }

    /// Calls `observer` after each committed transaction that changed `relation`.
    @discardableResult
    public func observe(_ relation: Relation, _ observer: @escaping (RowChange) -> Void) throws -> ObservationID {
        guard !inTransaction else { throw ChangeError("observe: a transaction is open; observe before begin or after commit") }
        let observation = Observation(id: ObservationID(value: nextObservation), relation: relation, observer: observer)
        nextObservation += 1
        if mode == .requery { observation.contents = try evaluate(relation) }
        if mode == .counted { try countedDataflow().node(for: relation) }
        observations.append(observation)
        prepared.removeAll()
        return observation.id
    }

    public func removeObserver(_ id: ObservationID) {
        observations.removeAll { $0.id == id }
        prepared.removeAll()
        // Nodes no observation reaches would still be maintained; the next `begin` rebuilds.
        if mode == .counted { counted = nil }
    }

    /// Rows the counted mode's state holds (project counts, maintained copies one entry per
    /// row per index, closures' copies); 0 in other modes.
    public var countedStateRows: Int { counted?.stateRows ?? 0 }

    /// The counted dataflow over every observed relation, built when missing.
    private func countedDataflow() throws -> CountedDataflow {
        if let counted { return counted }
        let made = CountedDataflow(engine: engine, keys: writer.keys)
        for o in observations { try made.node(for: o.relation) }
        counted = made
        return made
    }

    fileprivate func dropCounted() { counted = nil }

    /// Rebuilds the counted state (keys changed: a projection's rule may change).
    private func rebuildCounted() throws {
        guard mode == .counted else { return }
        counted = nil
        if !observations.isEmpty { _ = try countedDataflow() }
    }

    /// Engine queries this database has prepared for propagation: one per new shape of
    /// change (observed relation, changed sources and signs, empty rules), none when a
    /// transaction's shape was seen before; forgotten (not reset) when observations change.
    /// In requery mode, one for the observed relations until they change.
    public var queriesPrepared: Int { prepared.preparedCount }

    /// The observed relations, in the order they were observed.
    public var observedRelations: [Relation] { observations.map(\.relation) }

    // MARK: Transactions

    public func begin() throws {
        guard !inTransaction else { throw ChangeError("begin: a transaction is already open") }
        if mode == .counted && !observations.isEmpty { _ = try countedDataflow() }
        inTransaction = true
    }

    /// Ends the transaction and propagates its changes to every observer.
    @discardableResult
    public func commit() throws -> PropagationReport {
        guard inTransaction else { throw ChangeError("commit: no transaction is open") }
        inTransaction = false
        let deltas = writer.changedSources
        writer.finish()
        return try propagate(deltas)
    }

    /// Ends the transaction and puts every source back as it was at `begin`.
    public func rollback() throws {
        guard inTransaction else { throw ChangeError("rollback: no transaction is open") }
        inTransaction = false
        try writer.rollback()
    }

    /// Runs `body` as one transaction: committed if it returns, rolled back if it throws.
    @discardableResult
    public func transaction(_ body: () throws -> Void) throws -> PropagationReport {
        try begin()
        do {
            try body()
        } catch {
            if inTransaction { try rollback() }
            throw error
        }
        return try commit()
    }

    /// The report of the last transaction committed by a statement outside `begin`/`commit`.
    public private(set) var lastReport: PropagationReport?

    // MARK: Statements

    /// Adds rows given by attribute name; each must name exactly the relation's attributes.
    public func add(_ rows: [[Attribute: Value]], to relation: Relation) throws {
        let scheme = relation.scheme
        var ordered: [Row] = []
        for row in rows {
            guard Set(row.keys) == Set(scheme.attributes) else {
                let given = "[" + row.keys.sorted().map(\.name).joined(separator: ", ") + "]"
                throw ChangeError("add to \(relation.name ?? "relation"): the row has attributes \(given) "
                    + "but the relation has \(scheme.listed())")
            }
            ordered.append(Row(scheme.attributes.map { row[$0] ?? .null }))
        }
        try add(rows: ordered, to: relation)
    }

    /// Adds rows with values in scheme order (attributes sorted by name).
    public func add(rows: [Row], to relation: Relation) throws {
        try statement {
            try writer.insert(rows, into: try mutableSource(relation, "add to"))
        }
    }

    /// The rows of source relation `relation` matching `predicate`, through the source's own
    /// filtered fetch rather than an engine run; the predicate is first checked against the
    /// scheme as a select checks it, so an unknown attribute is refused the same way.
    private func sourceRows(of relation: Relation, _ source: any SourceRelation, matching predicate: Predicate) throws -> Set<Row> {
        _ = try relation.select(predicate)
        return Set(try source.fetchAll(filter: predicate))
    }

    /// Deletes the rows of `relation` matching `predicate`. On a derived relation the delete
    /// is propagated back to the source rows, or refused when that is ambiguous.
    /// `named`: what the caller calls the relation (a change script's target), for messages.
    public func delete(from relation: Relation, where predicate: Predicate = .true, named: String? = nil) throws {
        try statement {
            if let source = relation.source {
                let target = try mutableSource(relation, "delete from")
                try writer.delete(try sourceRows(of: relation, source, matching: predicate), from: target)
                return
            }
            let rows = try evaluate(try relation.select(predicate))
            try writer.apply(try reverse.writes(relation, rows: rows, set: nil, target: named))
        }
    }

    /// Sets `values` on the rows of `relation` matching `predicate`. On a derived relation
    /// the update is propagated back to the source rows, or refused when that is ambiguous.
    public func update(_ relation: Relation, where predicate: Predicate = .true, set values: [Attribute: Value], named: String? = nil) throws {
        try statement {
            for a in values.keys.sorted() where !relation.scheme.contains(a) {
                throw ChangeError("update of \(relation.name ?? named ?? "relation"): unknown attribute '\(a)'; "
                    + "the relation has \(relation.scheme.listed())")
            }
            if let source = relation.source {
                let target = try mutableSource(relation, "update")
                try writer.update(try sourceRows(of: relation, source, matching: predicate), of: target, set: values)
                return
            }
            let rows = try evaluate(try relation.select(predicate))
            try writer.apply(try reverse.writes(relation, rows: rows, set: values, target: named))
        }
    }

    // MARK: Internals

    private var reverse: ReversePropagation {
        ReversePropagation(evaluate: { [engine] relation in Set(try engine.run([relation]).results[0]) })
    }

    private func evaluate(_ relation: Relation) throws -> Set<Row> {
        Set(try engine.run([relation]).results[0])
    }

    /// Runs one statement: inside an open transaction, or as its own transaction. A failure
    /// rolls back the whole transaction before the error is rethrown.
    private func statement(_ body: () throws -> Void) throws {
        let own = !inTransaction
        if own { try begin() }
        do {
            try body()
        } catch {
            try rollback()
            throw error
        }
        if own { lastReport = try commit() }
    }

    private func mutableSource(_ relation: Relation, _ verb: String) throws -> any MutableSource {
        guard let source = relation.source else {
            throw ChangeError("cannot \(verb) \(relation.name ?? relation.label): rows can only be added to a source table")
        }
        guard let mutable = source as? any MutableSource else {
            throw ChangeError("cannot \(verb) \(source.sourceName): the source is read-only")
        }
        return mutable
    }

    /// Observed relations that no other observed relation is built on (by identity): their
    /// rules join the read-through graphs' last run instead of running alone. Worked out once
    /// per set of observations.
    private var topmostObservations: Set<ObjectIdentifier> {
        if let known = prepared.topmost { return known }
        var inner: Set<ObjectIdentifier> = []
        var seen: Set<ObjectIdentifier> = []
        func visit(_ relation: Relation) {
            guard seen.insert(ObjectIdentifier(relation)).inserted else { return }
            guard case let .apply(_, operands) = relation.definition else { return }
            for operand in operands {
                inner.insert(ObjectIdentifier(operand))
                visit(operand)
            }
        }
        for o in observations { visit(o.relation) }
        let topmost = Set(observations.map { ObjectIdentifier($0.relation) }).subtracting(inner)
        prepared.topmost = topmost
        return topmost
    }

    private func propagate(_ deltas: [SourceDelta]) throws -> PropagationReport {
        let clock = ContinuousClock()
        let start = clock.now
        var report = PropagationReport(mode: mode, observations: observations.count)
        report.sourceRowsChanged = deltas.reduce(0) { $0 + $1.added.count + $1.removed.count }
        guard !deltas.isEmpty, !observations.isEmpty else { return report }
        let preparedBefore = prepared.preparedCount
        switch mode {
        case .incremental:
            // Each operator's delta graphs run as soon as they are built (bottom-up) and
            // become small tables its parents' rules join with the big states.
            let runs = RunLog()
            var deltaTables: [any SourceRelation] = []
            let derivation = try ChangeDerivation(
                deltas: deltas, cache: prepared.derivation, keys: writer.keys, topmost: topmostObservations,
                materialize: { [engine, prepared] graphs in
                    let run = try prepared.run(graphs, engine: engine)
                    runs.add(run)
                    return try zip(graphs, run.results).map { graph, rows in
                        let table = try prepared.derivation.resultTable(for: graph, rows: rows)
                        if let source = table?.source { deltaTables.append(source) }
                        return table
                    }
                })
            deltaTables += derivation.sourceDeltaTables
            // An observed relation's delta is a table, or (under a rename, which is read
            // through rather than run alone) a graph over tables; those graphs run together.
            var pending: [Relation] = []
            var slots: [(added: Int?, removed: Int?)] = []
            var changes = Array(repeating: RowChange.empty, count: observations.count)
            for (i, o) in observations.enumerated() {
                var sides: [Set<Row>] = []
                var slot: [Int?] = []
                for delta in [try derivation.added(o.relation), try derivation.removed(o.relation)] {
                    if let delta, delta.source == nil {
                        pending.append(delta)
                        slot.append(pending.count - 1)
                        sides.append([])
                    } else {
                        slot.append(nil)
                        sides.append(Set(try delta?.source?.fetchAll() ?? []))
                    }
                }
                slots.append((slot[0], slot[1]))
                changes[i] = RowChange(added: sides[0], removed: sides[1])
            }
            if !pending.isEmpty {
                let run = try prepared.run(pending, engine: engine)
                runs.add(run)
                let results = run.results  // decodes every output; once, not per slot
                for (i, s) in slots.enumerated() {
                    changes[i] = RowChange(
                        added: s.added.map { Set(results[$0]) } ?? changes[i].added,
                        removed: s.removed.map { Set(results[$0]) } ?? changes[i].removed)
                }
            }
            report.changes = changes
            report.deltaRowsRead = deltaTables.reduce(0) { $0 + (runs.counters.rowsReadBySource[ObjectIdentifier($1)] ?? 0) }
            report.counters = runs.counters
            report.timings = runs.timings
            report.engineRuns = runs.count
        case .incrementalSingle:
            let derivation = try ChangeDerivation(deltas: deltas, cache: prepared.derivation, keys: writer.keys)
            var outputs: [Relation] = []
            var slots: [(added: Int?, removed: Int?)] = []
            for o in observations {
                func slot(_ r: Relation?) -> Int? {
                    guard let r else { return nil }
                    outputs.append(r)
                    return outputs.count - 1
                }
                let added = slot(try derivation.added(o.relation))
                let removed = slot(try derivation.removed(o.relation))
                slots.append((added, removed))
            }
            if !outputs.isEmpty {
                let run = try prepared.run(outputs, engine: engine)
                report.record(run)
                let results = run.results
                for (i, s) in slots.enumerated() {
                    report.changes[i] = RowChange(
                        added: s.added.map { Set(results[$0]) } ?? [],
                        removed: s.removed.map { Set(results[$0]) } ?? [])
                }
            }
        case .counted:
            guard let flow = counted else {
                throw ChangeError("counted propagation: no state to update (it is built at observe and begin)")
            }
            let deltas = try propagateCounted(flow, deltas)
            report.changes = deltas.map { RowChange(added: $0.added, removed: $0.removed) }
            let runs = flow.context.runs
            report.counters = runs.counters
            report.counters.sourceRowsRead += flow.context.rowsRead
            report.timings = runs.timings
            report.engineRuns = runs.count
        case .requery:
            let run = try prepared.run(observations.map(\.relation), engine: engine)
            report.record(run)
            for (i, o) in observations.enumerated() {
                let now = Set(run.results[i])
                report.changes[i] = RowChange.between(before: o.contents ?? [], after: now)
                o.contents = now
            }
        }
        report.queriesPrepared = prepared.preparedCount - preparedBefore
        report.totalMicroseconds = (clock.now - start).microseconds
        for (o, change) in zip(observations, report.changes) where !change.isEmpty { o.observer(change) }
        return report
    }
}

extension TransactionalDatabase {
    /// One transaction through the counted dataflow; a failure part-way drops the state (the
    /// next `begin` rebuilds it from the sources) rather than leave some nodes updated.
    fileprivate func propagateCounted(_ flow: CountedDataflow, _ deltas: [SourceDelta]) throws -> [CountedDelta] {
        do {
            return try flow.propagate(deltas, observed: observedRelations)
        } catch {
            dropCounted()
            throw error
        }
    }
}

/// What one transaction's propagation did: each observation's change, in observation
/// order, and the engine's counters and phase times for the graphs it ran.
public struct PropagationReport: Sendable {
    public let mode: TransactionalDatabase.Mode
    public var changes: [RowChange]
    /// Source rows added plus source rows removed by the transaction (net).
    public var sourceRowsChanged = 0
    public var counters = RunCounters()
    public var timings = PhaseTimings()
    /// Of `counters.sourceRowsRead`, the rows read from the propagation's own small tables
    /// (the sources' added and removed rows, and each operator's materialized changes);
    /// the rest were read from the sources themselves. Zero outside incremental mode.
    public var deltaRowsRead = 0
    /// Wall-clock time of the whole propagation: building the graphs and running them.
    public var totalMicroseconds: Double = 0
    /// Engine runs the propagation took (incremental: one per changed operator under an
    /// observed one whose rules read a changed source's state before the change, plus one
    /// for the observed relations' read-through rules; requery: 1; counted: one per closure
    /// whose operand changed, else 0).
    public var engineRuns = 0
    /// Engine queries prepared (planned, optimized, compiled) for this propagation: one per
    /// derivative graph list of a shape of change not seen before, 0 when every graph was
    /// prepared by an earlier transaction and only ran.
    public var queriesPrepared = 0

    init(mode: TransactionalDatabase.Mode, observations: Int) {
        self.mode = mode
        self.changes = Array(repeating: .empty, count: observations)
    }

    mutating func record(_ run: QueryRun) {
        counters = run.counters
        timings = run.timings
        engineRuns = 1
    }
}

/// Counters and phase times summed over a propagation's engine runs.
final class RunLog {
    private(set) var counters = RunCounters()
    private(set) var timings = PhaseTimings()
    private(set) var count = 0

    func add(_ run: QueryRun) {
        count += 1
        let c = run.counters
        // One run (the usual case): its counters as they are, without merging per-node
        // lists and per-source dictionaries into empty ones.
        guard count > 1 else {
            counters = c
            timings = run.timings
            return
        }
        counters.sourceRowsRead += c.sourceRowsRead
        counters.filtersProvided += c.filtersProvided
        counters.filtersActivated += c.filtersActivated
        counters.filtersNarrowed += c.filtersNarrowed
        counters.filteredFetches += c.filteredFetches
        counters.joinFiltersBuilt += c.joinFiltersBuilt
        counters.subtreesCopied += c.subtreesCopied
        counters.nodesCopied += c.nodesCopied
        counters.growthBudget += c.growthBudget
        counters.copiesRefused += c.copiesRefused
        counters.nodesPlanned += c.nodesPlanned
        counters.nodesAfterOptimization += c.nodesAfterOptimization
        counters.initiatorOrder += c.initiatorOrder
        counters.perNode += c.perNode
        counters.rowsReadBySource.merge(c.rowsReadBySource, uniquingKeysWith: +)
        timings.planMicroseconds += run.timings.planMicroseconds
        timings.optimizeMicroseconds += run.timings.optimizeMicroseconds
        timings.runMicroseconds += run.timings.runMicroseconds
    }
}
