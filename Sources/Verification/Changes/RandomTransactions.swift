import Relational

/// One statement of a random transaction, on a case table by name (so the reducer may drop
/// and renumber tables; a statement on a table the case no longer has is skipped), or on a
/// derived node of the case, propagated back to its sources (skipped when the node is gone
/// or no longer has the attributes the statement names).
public enum RandomStatement: Hashable, Sendable, CustomStringConvertible {
    case add(table: String, rows: [Row])
    case delete(table: String, where: Predicate)
    case update(table: String, where: Predicate, set: [Attribute: Value])
    case deleteNode(node: Int, where: Predicate)
    case updateNode(node: Int, where: Predicate, set: [Attribute: Value])

    public var table: String? {
        switch self {
        case let .add(t, _), let .delete(t, _), let .update(t, _, _): return t
        case .deleteNode, .updateNode: return nil
        }
    }

    public var description: String {
        switch self {
        case let .add(t, rows): return "add \(t) \(rows.map(\.values))"
        case let .delete(t, p): return "delete \(t) where (\(p))"
        case let .update(t, p, set): return "update \(t) set \(Self.assignments(set)) where (\(p))"
        case let .deleteNode(n, p): return "delete node \(n) where (\(p))"
        case let .updateNode(n, p, set): return "update node \(n) set \(Self.assignments(set)) where (\(p))"
        }
    }

    static func assignments(_ set: [Attribute: Value]) -> String {
        "[" + set.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + "]"
    }
}

/// Draws random transactions for a case's tables: 1–4 statements each, adds of fresh and
/// existing rows, deletes and updates through random predicates (often an equality on one
/// value, so they touch a row or two), and now and then the same row changed twice.
public enum RandomTransactions {
    /// Transactions for a case: statements on its tables, and about one in six on one of its
    /// derived nodes (an update or delete to be propagated back, or refused).
    public static func make(for graph: CaseGraph, count: Int, _ random: inout VerificationRandom) -> [[RandomStatement]] {
        var out = make(for: graph.tables, count: count, &random)
        let probe = graph.tables.map { Relation(source: EmptySource(scheme: $0.scheme)) }
        let derived = graph.reachableNodes.filter { if case .apply = graph.nodes[$0] { return true } else { return false } }
        let probeGraph = CaseGraph(tables: graph.tables, nodes: graph.nodes, outputs: derived)
        guard !derived.isEmpty, let relations = try? probeGraph.relations(over: probe) else { return out }
        for t in out.indices where random.chance(0.3) {
            let pick = random.int(0...(derived.count - 1))
            let scheme = relations[pick].scheme
            guard !scheme.attributes.isEmpty else { continue }
            let predicate = RandomPredicate.comparison(scheme.attributes, &random)
            let statement: RandomStatement
            if random.chance(0.3) {
                statement = .deleteNode(node: derived[pick], where: predicate)
            } else {
                let a = random.element(of: scheme.attributes) ?? scheme.attributes[0]
                statement = .updateNode(node: derived[pick], where: predicate, set: [a: RandomValues.value(for: .smallIntegers, &random)])
            }
            out[t].insert(statement, at: random.int(0...out[t].count))
        }
        return out
    }

    public static func make(for tables: [CaseTable], count: Int, _ random: inout VerificationRandom) -> [[RandomStatement]] {
        guard !tables.isEmpty else { return [] }
        return (0..<count).map { _ in
            var statements: [RandomStatement] = []
            for _ in 0..<random.int(1...4) {
                let t = random.int(0...(tables.count - 1))
                let scheme = tables[t].scheme
                let predicate = random.chance(0.6)
                    ? RandomPredicate.comparison(scheme.attributes, &random)
                    : RandomPredicate.make(over: scheme, depth: 1, &random)
                switch random.weighted([4, 3, 3]) {
                case 0:
                    let rows = (0..<random.int(1...3)).map { _ in
                        Row(scheme.attributes.map { _ in RandomValues.value(for: .smallIntegers, &random) })
                    }
                    statements.append(.add(table: tables[t].name, rows: rows))
                case 1:
                    statements.append(.delete(table: tables[t].name, where: predicate))
                default:
                    let attributes = random.subset(of: scheme.attributes, sizes: 1...max(1, scheme.count))
                    var set: [Attribute: Value] = [:]
                    for a in attributes { set[a] = RandomValues.value(for: .smallIntegers, &random) }
                    statements.append(.update(table: tables[t].name, where: predicate, set: set))
                }
            }
            if random.chance(0.2), let again = statements.last { statements.append(again) }
            return statements
        }
    }
}
