/// Turns a transaction's source deltas into ordinary relation graphs, one per changed
/// relation: `added(r)` holds exactly the rows `r` gained, `removed(r)` exactly the rows it
/// lost. The graphs read the sources in their state *after* the transaction plus two small
/// memory tables per changed source (its added and removed rows); a relation's state before
/// is rebuilt as `(after minus added) union removed`. Any engine can run them, so the
/// optimizer's heuristics apply to change propagation as to any query.
///
/// `nil` stands for "no rows": a relation with no changed source below it gets no graph at
/// all. Results are memoized by relation identity, so a subexpression shared in the query
/// is shared in the derived graphs too.
///
/// With a `materialize` function, each operator's added and removed graphs are handed to it
/// as soon as they are built, bottom-up, and replaced by what it returns: concrete small
/// tables, or nil when empty (which prunes every rule above that needs them). Then a parent's
/// rules join small concrete deltas with the operands' states, and no delta waits on a
/// state that in turn waits on it. Only rules that read a changed source's state before the
/// transaction are materialized, and not those of a `topmost` relation; any other rule
/// (select, rename, a join of a delta with states after, a projection) is read through by its
/// parent's rules, one engine run fewer.
///
/// With `keys` (attribute lists declared unique per source, by the source's identity, and
/// holding in every state), a projection that keeps a key of its operand needs no state
/// at all: see `derive`.
///
/// With a `DerivationCache` kept from one transaction to the next, the delta tables are
/// slots rebound to each transaction's rows and the rules are looked up rather than rebuilt,
/// so a transaction of the same shape gets the same graph objects (see `DerivationCache`).
public final class ChangeDerivation {
    private typealias Parts = DerivedParts

    /// Per changed source (by identity): relations of its added and removed rows.
    private let deltas: [ObjectIdentifier: (added: Relation?, removed: Relation?)]
    private var memo: [ObjectIdentifier: (relation: Relation, parts: Parts)] = [:]
    private let materialize: (([Relation]) throws -> [Relation?])?
    private let cache: DerivationCache
    private let keys: RelationKeys
    /// Relations whose rules are never materialized: nothing above them reads their deltas.
    private let topmost: Set<ObjectIdentifier>

    /// `cache`: what earlier transactions derived (a fresh one when nil: nothing is reused).
    /// `keys`: declared keys per source (by identity); each must hold before and after.
    /// `topmost`: relations (by identity) no other relation asked of this derivation is built
    /// on, such as observed relations under no other observed one; their rules are left to
    /// the caller's run even when they read a state before, since no parent rule waits on
    /// them (materializing would only copy the rows through a table).
    public init(
        deltas: [SourceDelta], cache: DerivationCache? = nil, keys: [ObjectIdentifier: [[Attribute]]] = [:],
        topmost: Set<ObjectIdentifier> = [], materialize: (([Relation]) throws -> [Relation?])? = nil
    ) throws {
        self.materialize = materialize
        self.topmost = topmost
        self.keys = RelationKeys(declared: keys)
        let cache = cache ?? DerivationCache()
        self.cache = cache
        var tables: [ObjectIdentifier: (added: Relation?, removed: Relation?)] = [:]
        for d in deltas where !d.isEmpty {
            let name = d.source.sourceName
            let id = ObjectIdentifier(d.source)
            tables[id] = (
                try cache.bind(.sourceAdded(id), name: name + "+", scheme: d.source.scheme, rows: d.added.sorted(), owner: d.source),
                try cache.bind(.sourceRemoved(id), name: name + "-", scheme: d.source.scheme, rows: d.removed.sorted(), owner: d.source))
        }
        self.deltas = tables
    }

    /// The tables of the sources' added and removed rows.
    public var sourceDeltaTables: [any SourceRelation] {
        deltas.values.flatMap { [$0.added?.source, $0.removed?.source].compactMap { $0 } }
    }

    /// Rows `relation` gains in the transaction; nil when none can be gained.
    public func added(_ relation: Relation) throws -> Relation? { try parts(relation).added }

    /// Rows `relation` loses in the transaction; nil when none can be lost.
    public func removed(_ relation: Relation) throws -> Relation? { try parts(relation).removed }

    /// `relation` as it was before the transaction (the relation itself when unchanged).
    public func before(_ relation: Relation) throws -> Relation { try parts(relation).before }

    private func parts(_ relation: Relation) throws -> Parts {
        let key = ObjectIdentifier(relation)
        if let done = memo[key] { return done.parts }
        let result: Parts
        switch relation.definition {
        case let .source(source):
            result = try sourceParts(relation, source)
        case let .apply(op, operands):
            let children = try operands.map(parts)
            if children.allSatisfy({ $0.added == nil && $0.removed == nil }) {
                result = Parts(added: nil, removed: nil, before: relation)
            } else {
                let shape = DerivationCache.Key(relation: key, operands: children.flatMap(\.identities))
                let derived: Parts
                if let known = cache.entry(shape) {
                    derived = known
                } else {
                    var keyKept = false
                    if case let .project(kept) = op { keyKept = keys.hasKey(operands[0], within: kept) }
                    let rule = try Self.derive(op, operands, children, relation, keyKept: keyKept)
                    derived = rule.markingBeforeReads(cache.readsBeforeState)
                    cache.store(derived, for: relation, key: shape)
                }
                // Only a rule that reads a changed source's state before the transaction is
                // run alone: a parent whose state reads that source would wait on it (the
                // delta needs the source read in full before the change). Any other rule is
                // small delta rows, or delta rows matched with states after, which the
                // parent's run reads through by the same join filters, one run fewer.
                result = derived.readsBeforeState && !topmost.contains(key) ? try concrete(derived) : derived
            }
        }
        memo[key] = (relation, result)
        return result
    }

    /// `parts` with its added and removed graphs materialized, when there is a materializer.
    private func concrete(_ parts: Parts) throws -> Parts {
        guard let materialize else { return parts }
        let graphs = [parts.added, parts.removed].compactMap { $0 }
        guard !graphs.isEmpty else { return parts }
        var results = try materialize(graphs)[...]
        func next(_ r: Relation?) -> Relation? { r == nil ? nil : results.popFirst() ?? nil }
        let added = next(parts.added)
        let removed = next(parts.removed)
        return Parts(added: added, removed: removed, before: parts.before, readsBeforeState: false)
    }

    private func sourceParts(_ relation: Relation, _ source: any SourceRelation) throws -> Parts {
        guard let d = deltas[ObjectIdentifier(source)] else {
            return Parts(added: nil, removed: nil, before: relation)
        }
        let shape = DerivationCache.Key(
            relation: ObjectIdentifier(relation), operands: [d.added, d.removed].map { $0.map(ObjectIdentifier.init) })
        if let known = cache.entry(shape) { return known }
        var before = relation
        if let a = d.added { before = try before.difference(a) }
        if let r = d.removed { before = try before.union(r) }
        if before !== relation { cache.noteBeforeState(before) }
        let result = Parts(added: d.added, removed: d.removed, before: before)
        cache.store(result, for: relation, key: shape)
        return result
    }

    /// The derivative rules, one per operator. Each is exact for sets: `A⁺`/`A⁻` are an
    /// operand's added/removed rows, `A` its state after and `A₀` its state before.
    ///
    /// Wherever a small delta meets a whole operand state, the rule asks only for the
    /// state's rows that match the delta: `semi(D, A)` (D joined with A on every attribute of
    /// D) instead of `D ∩ A`, and `D − semi(D, A)` instead of `D − A`. A join with a small
    /// complete operand is what the join-filter heuristic turns into a lookup, so the
    /// engine reads the matching rows of A rather than all of it; without that heuristic the
    /// result is the same.
    private static func derive(
        _ op: Operator, _ operands: [Relation], _ c: [Parts], _ relation: Relation, keyKept: Bool
    ) throws -> Parts {
        let after = operands
        let before = c.map(\.before)
        let rebuilt = try before.elementsEqual(after, by: ===) ? relation : Relation(applying: op, to: before)
        switch op {
        case .union:
            // New rows are operand additions absent from every operand before; lost rows are
            // operand removals present in no operand after.
            let added = try unionAll(c.map(\.added)).map { try without($0, before) }
            let removed = try unionAll(c.map(\.removed)).map { try without($0, after) }
            return Parts(added: added, removed: removed, before: rebuilt)
        case .intersection:
            // (A⁺ ∩ B) ∪ (A ∩ B⁺) and (A⁻ ∩ B₀) ∪ (A₀ ∩ B⁻).
            let added = try unionAll([
                c[0].added.map { try semi($0, after[1]) },
                c[1].added.map { try semi($0, after[0]) },
            ])
            let removed = try unionAll([
                c[0].removed.map { try semi($0, before[1]) },
                c[1].removed.map { try semi($0, before[0]) },
            ])
            return Parts(added: added, removed: removed, before: rebuilt)
        case .difference:
            // Gained: (A⁺ − B) ∪ (B⁻ ∩ A). Lost: (A⁻ − B₀) ∪ (B⁺ ∩ A₀).
            let added = try unionAll([
                c[0].added.map { try without($0, [after[1]]) },
                c[1].removed.map { try semi($0, after[0]) },
            ])
            let removed = try unionAll([
                c[0].removed.map { try without($0, [before[1]]) },
                c[1].added.map { try semi($0, before[0]) },
            ])
            return Parts(added: added, removed: removed, before: rebuilt)
        case .select, .rename:
            // Row by row: the operator maps an operand's changes to its own.
            return Parts(
                added: try c[0].added.map { try Relation(applying: op, to: [$0]) },
                removed: try c[0].removed.map { try Relation(applying: op, to: [$0]) },
                before: rebuilt)
        case .project where keyKept:
            // The projection keeps a key of its operand, so in each state a projected row
            // comes from exactly one operand row, the one with its key. A row projected from
            // A⁺ was there before exactly when the row it replaces (same key, same projected
            // values, so in A⁻) projects to it: gained project(A⁺) − project(A⁻), lost
            // project(A⁻) − project(A⁺), and no state is read.
            let gained = try c[0].added.map { try Relation(applying: op, to: [$0]) }
            let lost = try c[0].removed.map { try Relation(applying: op, to: [$0]) }
            return Parts(
                added: try gained.map { g in try lost.map { try g.difference($0) } ?? g },
                removed: try lost.map { l in try gained.map { try l.difference($0) } ?? l },
                before: rebuilt)
        case .project:
            // A projected row is gained only if no operand row projected to it before, and
            // lost only if none projects to it after: project(A⁺) − project(A₀), asked as
            // X − project(A₀ ⋈ X) for X = project(A⁺), and likewise for removals. The state
            // before is never read: A₀ = (A − A⁺) ∪ A⁻ and X's attributes are A's, so
            // A₀ ⋈ X = ((A ⋈ X) − A⁺) ∪ (A⁻ ⋈ X), the after state and the deltas. The rule
            // then reads no changed source's state before the transaction and is read through
            // by its parent's run instead of being run alone (one engine run fewer).
            func matching(_ state: Relation, _ x: Relation) throws -> Relation {
                try Relation(applying: .join(Self.pairs(x.scheme)), to: [state, x])
            }
            func gained(_ delta: Relation) throws -> Relation {
                let x = try Relation(applying: op, to: [delta])
                var before = try matching(after[0], x).difference(delta)
                if let lost = c[0].removed { before = try before.union(matching(lost, x)) }
                return try x.difference(Relation(applying: op, to: [before]))
            }
            func lost(_ delta: Relation) throws -> Relation {
                let x = try Relation(applying: op, to: [delta])
                return try x.difference(Relation(applying: op, to: [matching(after[0], x)]))
            }
            return Parts(
                added: try c[0].added.map(gained),
                removed: try c[0].removed.map(lost),
                before: rebuilt)
        case .join:
            // A joined row holds both its operand rows, so it is new exactly when one of them
            // is: (A⁺ ⋈ B) ∪ (A ⋈ B⁺), and lost: (A⁻ ⋈ B₀) ∪ (A₀ ⋈ B⁻).
            let added = try unionAll([
                c[0].added.map { try Relation(applying: op, to: [$0, after[1]]) },
                c[1].added.map { try Relation(applying: op, to: [after[0], $0]) },
            ])
            let removed = try unionAll([
                c[0].removed.map { try Relation(applying: op, to: [$0, before[1]]) },
                c[1].removed.map { try Relation(applying: op, to: [before[0], $0]) },
            ])
            return Parts(added: added, removed: removed, before: rebuilt)
        case .closure:
            // Not incremental yet: a new edge can join paths anywhere, so the rule compares the
            // whole closure after with the whole closure before. Exact, and as costly as a requery.
            return Parts(added: try relation.difference(rebuilt), removed: try rebuilt.difference(relation), before: rebuilt)
        }
    }

    /// Every attribute of `scheme` matched with itself.
    private static func pairs(_ scheme: Scheme) -> [JoinPair] {
        scheme.attributes.map { JoinPair($0, $0) }
    }

    /// The rows of `delta` that `state` (same scheme) also holds: `delta ∩ state`, as a join.
    private static func semi(_ delta: Relation, _ state: Relation) throws -> Relation {
        try Relation(applying: .join(pairs(delta.scheme)), to: [delta, state])
    }

    /// The rows of `delta` that none of `states` holds.
    private static func without(_ delta: Relation, _ states: [Relation]) throws -> Relation {
        var out = delta
        for s in states { out = try out.difference(semi(delta, s)) }
        return out
    }

    private static func unionAll(_ parts: [Relation?]) throws -> Relation? {
        let present = parts.compactMap { $0 }
        guard var out = present.first else { return nil }
        for p in present.dropFirst() { out = try out.union(p) }
        return out
    }
}
