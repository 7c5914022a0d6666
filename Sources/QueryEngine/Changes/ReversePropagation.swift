import Relational

/// One write a change on a derived relation comes down to: these rows of this source are
/// updated (`set`) or deleted (`set == nil`).
struct SourceWrite {
    let source: any MutableSource
    let rows: Set<Row>
    let set: [Attribute: Value]?
}

/// Traces rows of a derived relation back to the source rows they come from, for updates
/// and deletes applied to the derived relation (seed 001's step 6). One exhaustive switch
/// over `Operator`: each operator either maps the rows to its operands' rows or refuses,
/// naming itself and why, when the source rows are not determined.
struct ReversePropagation {
    /// The rows of a relation, evaluated by the database's engine.
    let evaluate: (Relation) throws -> Set<Row>

    /// `target`: the name the statement gave the relation written (a `let` name has no
    /// `Relation.name`), for refusals met below it.
    func writes(_ relation: Relation, rows: Set<Row>, set: [Attribute: Value]?, target: String? = nil) throws -> [SourceWrite] {
        if rows.isEmpty { return [] }
        let verb = set == nil ? "delete" : "update"
        switch relation.definition {
        case let .source(source):
            guard let mutable = source as? any MutableSource else {
                throw ChangeError("cannot \(verb) \(source.sourceName): the source is read-only")
            }
            return [SourceWrite(source: mutable, rows: rows, set: set)]
        case let .apply(op, operands):
            return try through(op, operands, relation, rows: rows, set: set, verb: verb, target: target)
        }
    }

    private func through(
        _ op: Operator, _ operands: [Relation], _ relation: Relation, rows: Set<Row>, set: [Attribute: Value]?,
        verb: String, target: String?
    ) throws -> [SourceWrite] {
        func refuse(_ why: String) -> ChangeError {
            let name = (relation.name ?? target).map { "'\($0)'" } ?? "the relation"
            return ChangeError("cannot \(verb) \(name) through \(relation.name == nil && target != nil ? "its " : "")\(op.label): \(why)")
        }
        switch op {
        case .select, .difference:
            // A selected row is the operand's row; a difference's rows are its left operand's
            // (the right operand is never written).
            return try writes(operands[0], rows: rows, set: set, target: target)
        case .intersection:
            guard set != nil else {
                throw refuse("the row is in both operands, and removing it from either would do")
            }
            return try writes(operands[0], rows: rows, set: set, target: target) + writes(operands[1], rows: rows, set: set, target: target)
        case .union:
            throw refuse("a row may come from either operand (or both), so its source rows are not determined")
        case .closure:
            throw refuse("a pair stands for a path of one or more edges, so which edge rows to change is not determined")
        case let .rename(map):
            let operand = operands[0]
            var oldName: [Attribute: Attribute] = [:]
            for (old, new) in map { oldName[new] = old }
            let positions = try Self.positions(operand.scheme.attributes.map { map[$0] ?? $0 }, in: relation)
            let renamedSet = set.map { s in
                Dictionary(uniqueKeysWithValues: s.map { (oldName[$0.key] ?? $0.key, $0.value) })
            }
            return try writes(operand, rows: Set(rows.map { $0.picking(positions) }), set: renamedSet, target: target)
        case .project:
            let operand = operands[0]
            let kept = relation.scheme.attributes
            let preimages = try evaluate(try operand.select(.matchingValues(rows.map(\.values), on: kept)))
            if set != nil {
                let map = ColumnMap.project(from: operand.scheme, to: relation.scheme)
                var count: [Row: Int] = [:]
                for p in preimages { count[map.apply(p), default: 0] += 1 }
                if let (row, n) = count.first(where: { $0.value > 1 }) {
                    let dropped = operand.scheme.attributes.filter { !relation.scheme.contains($0) }
                    throw refuse("the row \(RowChange.render(row, scheme: relation.scheme)) comes from \(n) rows "
                        + "that differ in the dropped attribute(s) \(dropped.map(\.name).joined(separator: ", ")), "
                        + "so which to update is ambiguous")
                }
            }
            return try writes(operand, rows: preimages, set: set, target: target)
        case let .join(pairs):
            guard let set else {
                throw refuse("removing a joined row could remove either operand's row")
            }
            let matched = Set(pairs.flatMap { [$0.left, $0.right] })
            if let a = set.keys.sorted().first(where: { matched.contains($0) }) {
                throw refuse("'\(a)' is a join attribute; changing it would change which rows match")
            }
            var out: [SourceWrite] = []
            for operand in operands {
                let own = set.filter { operand.scheme.contains($0.key) }
                if own.isEmpty { continue }
                let positions = try Self.positions(operand.scheme.attributes, in: relation)
                out += try writes(operand, rows: Set(rows.map { $0.picking(positions) }), set: own, target: target)
            }
            return out
        }
    }

    /// Where each attribute sits in `relation`'s rows (scheme derivation guarantees all do).
    private static func positions(_ attributes: [Attribute], in relation: Relation) throws -> [Int] {
        try attributes.map { try relation.scheme.requireIndex(of: $0, context: "propagating a change back") }
    }
}
