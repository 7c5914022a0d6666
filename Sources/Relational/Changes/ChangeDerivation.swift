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
public final class ChangeDerivation {
    private struct Parts {
        let added: Relation?
        let removed: Relation?
        let before: Relation
    }

    /// Per changed source (by identity): relations of its added and removed rows.
    private let deltas: [ObjectIdentifier: (added: Relation?, removed: Relation?)]
    private var memo: [ObjectIdentifier: (relation: Relation, parts: Parts)] = [:]

    public init(deltas: [SourceDelta]) throws {
        var tables: [ObjectIdentifier: (added: Relation?, removed: Relation?)] = [:]
        for d in deltas where !d.isEmpty {
            func table(_ rows: Set<Row>, _ suffix: String) throws -> Relation? {
                guard !rows.isEmpty else { return nil }
                let t = try MemoryTable(
                    name: "\(d.source.sourceName)\(suffix)", scheme: d.source.scheme,
                    indexedAttributes: d.source.scheme.attributes)
                try t.add(contentsOf: rows.sorted())
                return Relation(source: t)
            }
            tables[ObjectIdentifier(d.source)] = (try table(d.added, "+"), try table(d.removed, "-"))
        }
        self.deltas = tables
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
                result = try Self.derive(op, operands, children, relation)
            }
        }
        memo[key] = (relation, result)
        return result
    }

    private func sourceParts(_ relation: Relation, _ source: any SourceRelation) throws -> Parts {
        guard let d = deltas[ObjectIdentifier(source)] else {
            return Parts(added: nil, removed: nil, before: relation)
        }
        var before = relation
        if let a = d.added { before = try before.difference(a) }
        if let r = d.removed { before = try before.union(r) }
        return Parts(added: d.added, removed: d.removed, before: before)
    }

    /// The derivative rules, one per operator. Each is exact for sets: `A⁺`/`A⁻` are an
    /// operand's added/removed rows, `A` its state after and `A₀` its state before.
    private static func derive(_ op: Operator, _ operands: [Relation], _ c: [Parts], _ relation: Relation) throws -> Parts {
        let after = operands
        let before = c.map(\.before)
        let rebuilt = try before.elementsEqual(after, by: ===) ? relation : Relation(applying: op, to: before)
        switch op {
        case .union:
            // New rows are operand additions absent from every operand before; lost rows are
            // operand removals present in no operand after.
            let added = try subtractAll(unionAll(c.map(\.added)), before)
            let removed = try subtractAll(unionAll(c.map(\.removed)), after)
            return Parts(added: added, removed: removed, before: rebuilt)
        case .intersection:
            // (A⁺ ∩ B) ∪ (A ∩ B⁺) and (A⁻ ∩ B₀) ∪ (A₀ ∩ B⁻).
            let added = try unionAll([
                c[0].added.map { try $0.intersection(after[1]) },
                c[1].added.map { try after[0].intersection($0) },
            ])
            let removed = try unionAll([
                c[0].removed.map { try $0.intersection(before[1]) },
                c[1].removed.map { try before[0].intersection($0) },
            ])
            return Parts(added: added, removed: removed, before: rebuilt)
        case .difference:
            // Gained: (A⁺ − B) ∪ (B⁻ ∩ A). Lost: (A⁻ − B₀) ∪ (B⁺ ∩ A₀).
            let added = try unionAll([
                c[0].added.map { try $0.difference(after[1]) },
                c[1].removed.map { try $0.intersection(after[0]) },
            ])
            let removed = try unionAll([
                c[0].removed.map { try $0.difference(before[1]) },
                c[1].added.map { try $0.intersection(before[0]) },
            ])
            return Parts(added: added, removed: removed, before: rebuilt)
        case .select, .rename:
            // Row by row: the operator maps an operand's changes to its own.
            return Parts(
                added: try c[0].added.map { try Relation(applying: op, to: [$0]) },
                removed: try c[0].removed.map { try Relation(applying: op, to: [$0]) },
                before: rebuilt)
        case .project:
            // A projected row is gained only if no row projected to it before, and lost only
            // if none projects to it after.
            let added = try c[0].added.map { try Relation(applying: op, to: [$0]).difference(rebuilt) }
            let removed = try c[0].removed.map { try Relation(applying: op, to: [$0]).difference(relation) }
            return Parts(added: added, removed: removed, before: rebuilt)
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
        }
    }

    private static func unionAll(_ parts: [Relation?]) throws -> Relation? {
        let present = parts.compactMap { $0 }
        guard var out = present.first else { return nil }
        for p in present.dropFirst() { out = try out.union(p) }
        return out
    }

    private static func subtractAll(_ relation: Relation?, _ others: [Relation]) throws -> Relation? {
        guard var out = relation else { return nil }
        for o in others { out = try out.difference(o) }
        return out
    }
}
