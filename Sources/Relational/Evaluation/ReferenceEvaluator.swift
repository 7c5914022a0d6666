/// The seed's "simple query execution": materialize every operand, then compute the
/// operator, with hash joins and no optimization at all. It is the correctness oracle for
/// the engine and the fuzzer, so it stays small and obviously right.
///
/// A relation shared by several parents is computed once per evaluator (memoized by
/// identity; the memo holds the relation too, so a freed relation's address cannot be
/// reused for a stale entry). Results are a snapshot: use a new evaluator after changing
/// a source's rows.
public final class ReferenceEvaluator {
    private var memo: [ObjectIdentifier: (relation: Relation, rows: [Row])] = [:]

    public init() {}

    /// The rows of `relation`, each once, in no particular order.
    public func rows(of relation: Relation) throws -> [Row] {
        let key = ObjectIdentifier(relation)
        if let done = memo[key] { return done.rows }
        let result = try compute(relation)
        memo[key] = (relation, result)
        return result
    }

    public static func evaluate(_ relation: Relation) throws -> [Row] {
        try ReferenceEvaluator().rows(of: relation)
    }

    private func compute(_ relation: Relation) throws -> [Row] {
        switch relation.definition {
        case let .source(source):
            return try source.fetchAll(filter: nil)
        case let .apply(op, operands):
            return try apply(op, operands, scheme: relation.scheme)
        }
    }

    private func apply(_ op: Operator, _ operands: [Relation], scheme: Scheme) throws -> [Row] {
        let a = operands[0]
        switch op {
        case .union:
            var seen = Set<Row>()
            var out: [Row] = []
            for operand in operands {
                for row in try rows(of: operand) where seen.insert(row).inserted { out.append(row) }
            }
            return out
        case .intersection:
            let right = Set(try rows(of: operands[1]))
            return try rows(of: a).filter { right.contains($0) }
        case .difference:
            let right = Set(try rows(of: operands[1]))
            return try rows(of: a).filter { !right.contains($0) }
        case let .select(predicate):
            // IN-sets as their OR of equalities: not the engine's hash lookup.
            let test = try CompiledPredicate(predicate.expandingInSets, scheme: a.scheme)
            return try rows(of: a).filter { test.matches($0) }
        case .project:
            let map = ColumnMap.project(from: a.scheme, to: scheme)
            var seen = Set<Row>()
            return try rows(of: a).compactMap { row in
                let projected = map.apply(row)
                return seen.insert(projected).inserted ? projected : nil
            }
        case let .rename(renaming):
            let map = ColumnMap.rename(from: a.scheme, to: scheme, map: renaming)
            return try rows(of: a).map { map.apply($0) }
        case let .join(pairs):
            let b = operands[1]
            let layout = JoinLayout(left: a.scheme, right: b.scheme, pairs: pairs, output: scheme)
            var table: [Row: [Row]] = [:]
            for r in try rows(of: b) { table[layout.rightKey(of: r), default: []].append(r) }
            var out: [Row] = []
            for l in try rows(of: a) {
                for r in table[layout.leftKey(of: l)] ?? [] { out.append(layout.combine(l, r)) }
            }
            return out
        case let .closure(from, to):
            return try closure(of: try rows(of: a), from: a.scheme.requireIndex(of: from, context: "closure"),
                               to: a.scheme.requireIndex(of: to, context: "closure"))
        }
    }

    /// The naive fixpoint: add (x, z) for every known (x, y) and edge (y, z) until a round
    /// adds nothing. Finite because every pair is made of values in the edges.
    private func closure(of edges: [Row], from: Int, to: Int) -> [Row] {
        var successors: [Value: [Value]] = [:]
        for e in edges { successors[e.values[from], default: []].append(e.values[to]) }
        var pairs = Set(edges)
        while true {
            var added = Set<Row>()
            for p in pairs {
                for z in successors[p.values[to]] ?? [] {
                    var values = p.values
                    values[to] = z
                    let row = Row(values)
                    if !pairs.contains(row) { added.insert(row) }
                }
            }
            if added.isEmpty { return Array(pairs) }
            pairs.formUnion(added)
        }
    }
}

extension Relation {
    /// This relation's rows, computed by the reference evaluator.
    public func rows() throws -> [Row] { try ReferenceEvaluator.evaluate(self) }
}
