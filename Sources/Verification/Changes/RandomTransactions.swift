import Relational

/// One statement of a random transaction, on a case table by name (so the reducer may drop
/// and renumber tables; a statement on a table the case no longer has is skipped).
public enum RandomStatement: Hashable, Sendable, CustomStringConvertible {
    case add(table: String, rows: [Row])
    case delete(table: String, where: Predicate)
    case update(table: String, where: Predicate, set: [Attribute: Value])

    public var table: String {
        switch self {
        case let .add(t, _), let .delete(t, _), let .update(t, _, _): return t
        }
    }

    public var description: String {
        switch self {
        case let .add(t, rows): return "add \(t) \(rows.map(\.values))"
        case let .delete(t, p): return "delete \(t) where (\(p))"
        case let .update(t, p, set):
            let pairs = set.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }
            return "update \(t) set [\(pairs.joined(separator: ", "))] where (\(p))"
        }
    }
}

/// Draws random transactions for a case's tables: 1–4 statements each, adds of fresh and
/// existing rows, deletes and updates through random predicates (often an equality on one
/// value, so they touch a row or two), and now and then the same row changed twice.
public enum RandomTransactions {
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
