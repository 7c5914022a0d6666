/// The seed's "simple query execution": materialize every operand, then compute the
/// operator, with no optimization at all. It is the correctness oracle for the engine and
/// the fuzzer, so it stays small, obviously right and independent of the engine: it shares
/// the operator definition (`Operator` and the scheme it derives) but none of the engine's
/// machinery. Values are compared with `ReferenceOrder` (never `Value`'s `==`, `<` or
/// hashing), predicates are interpreted by `ReferencePredicate` (not `CompiledPredicate`),
/// attribute positions are looked up by name here (not `ColumnMap` or `JoinLayout`), and
/// joins sort and merge instead of hashing.
///
/// Every relation's rows are kept sorted in `ReferenceOrder` with no two equal, so each
/// result is a set by construction and membership is a binary search.
///
/// A relation shared by several parents is computed once per evaluator (memoized by
/// identity; the memo holds the relation too, so a freed relation's address cannot be
/// reused for a stale entry). Results are a snapshot: use a new evaluator after changing
/// a source's rows.
public final class ReferenceEvaluator {
    private var memo: [ObjectIdentifier: (relation: Relation, rows: [Row])] = [:]

    public init() {}

    /// The rows of `relation`, each once, sorted in `ReferenceOrder`.
    public func rows(of relation: Relation) throws -> [Row] {
        let key = ObjectIdentifier(relation)
        if let done = memo[key] { return done.rows }
        let result = ReferenceOrder.sortedDistinct(try compute(relation))
        memo[key] = (relation, result)
        return result
    }

    public static func evaluate(_ relation: Relation) throws -> [Row] {
        try ReferenceEvaluator().rows(of: relation)
    }

    /// The rows of one relation, possibly unsorted or repeated (`rows(of:)` fixes both).
    private func compute(_ relation: Relation) throws -> [Row] {
        switch relation.definition {
        case let .source(source):
            return try source.fetchAll(filter: nil)
        case let .apply(op, operands):
            return try apply(op, operands, scheme: relation.scheme)
        }
    }

    private func apply(_ op: Operator, _ operands: [Relation], scheme: Scheme) throws -> [Row] {
        guard let a = operands.first else {
            throw RelationError.unsupported("reference evaluator: \(op.label) has no operands")
        }
        func second() throws -> Relation {
            guard operands.count == 2 else {
                throw RelationError.unsupported("reference evaluator: \(op.label) needs 2 operands, got \(operands.count)")
            }
            return operands[1]
        }
        switch op {
        case .union:
            return try operands.flatMap { try rows(of: $0) }
        case .intersection:
            let right = try rows(of: second())
            return try rows(of: a).filter { ReferenceOrder.contains(right, $0) }
        case .difference:
            let right = try rows(of: second())
            return try rows(of: a).filter { !ReferenceOrder.contains(right, $0) }
        case let .select(predicate):
            return try rows(of: a).filter { try ReferencePredicate.holds(predicate, $0, a.scheme) }
        case .project:
            let positions = try scheme.attributes.map { try Self.position(of: $0, in: a.scheme) }
            return try rows(of: a).map { Self.pick(positions, from: $0) }
        case let .rename(map):
            var oldName: [String: String] = [:]
            for (old, new) in map { oldName[new.name] = old.name }
            let positions = try scheme.attributes.map { attribute in
                try Self.position(of: Attribute(oldName[attribute.name] ?? attribute.name), in: a.scheme)
            }
            return try rows(of: a).map { Self.pick(positions, from: $0) }
        case let .join(pairs):
            return try join(a, second(), pairs, output: scheme)
        case let .closure(from, to):
            return try closure(of: rows(of: a), from: Self.position(of: from, in: a.scheme),
                               to: Self.position(of: to, in: a.scheme))
        }
    }

    /// The naive fixpoint: extend every known pair (x, y) by every edge (y, z) until a round
    /// adds nothing. Finite because every pair is made of values in the edges. Pairs stay a
    /// sorted list without repeats (`ReferenceOrder`), so nothing here hashes a value.
    private func closure(of edges: [Row], from: Int, to: Int) -> [Row] {
        var pairs = ReferenceOrder.sortedDistinct(edges)
        while true {
            var extended: [Row] = []
            for p in pairs {
                for e in edges where ReferenceOrder.compare(e[from], p[to]) == 0 {
                    var values = p.values
                    values[to] = e[to]
                    let row = Row(values)
                    if !ReferenceOrder.contains(pairs, row) { extended.append(row) }
                }
            }
            if extended.isEmpty { return pairs }
            pairs = ReferenceOrder.sortedDistinct(pairs + extended)
        }
    }

    /// Sort-merge equijoin: both sides sorted by their key, then every pair of rows in
    /// groups with equal keys is combined. Each output attribute comes from the left side
    /// when it has it (a pair of equal names is one attribute), else from the right.
    private func join(_ a: Relation, _ b: Relation, _ pairs: [JoinPair], output: Scheme) throws -> [Row] {
        let leftKey = try pairs.map { try Self.position(of: $0.left, in: a.scheme) }
        let rightKey = try pairs.map { try Self.position(of: $0.right, in: b.scheme) }
        let sources = try output.attributes.map { attribute -> (fromLeft: Bool, position: Int) in
            if let i = a.scheme.attributes.firstIndex(where: { $0.name == attribute.name }) { return (true, i) }
            return (false, try Self.position(of: attribute, in: b.scheme))
        }
        func keyed(_ rows: [Row], _ key: [Int]) -> [(key: Row, row: Row)] {
            rows.map { (Self.pick(key, from: $0), $0) }.sorted { ReferenceOrder.compare($0.key, $1.key) < 0 }
        }
        let left = keyed(try rows(of: a), leftKey)
        let right = keyed(try rows(of: b), rightKey)
        var out: [Row] = []
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            let c = ReferenceOrder.compare(left[i].key, right[j].key)
            if c < 0 { i += 1; continue }
            if c > 0 { j += 1; continue }
            var iEnd = i
            while iEnd < left.count && ReferenceOrder.equal(left[iEnd].key, left[i].key) { iEnd += 1 }
            var jEnd = j
            while jEnd < right.count && ReferenceOrder.equal(right[jEnd].key, right[j].key) { jEnd += 1 }
            for l in left[i..<iEnd] {
                for r in right[j..<jEnd] {
                    out.append(Row(sources.map { $0.fromLeft ? l.row[$0.position] : r.row[$0.position] }))
                }
            }
            i = iEnd
            j = jEnd
        }
        return out
    }

    private static func position(of attribute: Attribute, in scheme: Scheme) throws -> Int {
        guard let i = scheme.attributes.firstIndex(where: { $0.name == attribute.name }) else {
            throw RelationError.unknownAttribute(attribute, scheme: scheme, context: "reference evaluator")
        }
        return i
    }

    private static func pick(_ positions: [Int], from row: Row) -> Row {
        Row(positions.map { row[$0] })
    }
}

extension Relation {
    /// This relation's rows, computed by the reference evaluator.
    public func rows() throws -> [Row] { try ReferenceEvaluator.evaluate(self) }
}
