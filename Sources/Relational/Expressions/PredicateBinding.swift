/// Binding attributes to values: what a predicate still asks of a row once some of its
/// attributes are known (a join's complete operand's row, say).
extension Predicate {
    /// The predicate with each attribute in `bound` replaced by its value, every comparison
    /// of two values and every IN-set over bound attributes only folded to a constant (as a
    /// row would test them: the total value order, `3 == 3.0`, null an ordinary value), and
    /// ANDs, ORs and NOTs of constants folded in turn. An IN-set over some bound attributes
    /// keeps the keys that agree with the bound values, over the other attributes.
    public func binding(_ bound: [Attribute: Value]) -> Predicate {
        switch self {
        case .constant:
            return self
        case let .comparison(left, op, right):
            let l = Self.bind(left, bound), r = Self.bind(right, bound)
            if case let .value(a) = l, case let .value(b) = r { return .constant(op.holds(forComparison: Value.compare(a, b))) }
            return .comparison(l, op, r)
        case let .and(parts):
            return .all(parts.map { $0.binding(bound) })
        case let .or(parts):
            return .any(parts.map { $0.binding(bound) })
        case let .not(inner):
            let b = inner.binding(bound)
            if case let .constant(holds) = b { return .constant(!holds) }
            return .not(b)
        case let .inSet(attributes, keys):
            let pinned = attributes.enumerated().compactMap { i, a in bound[a].map { (position: i, value: $0) } }
            guard !pinned.isEmpty else { return self }
            let free = attributes.indices.filter { bound[attributes[$0]] == nil }
            var kept = Set<Row>()
            for key in keys where key.count == attributes.count
                && pinned.allSatisfy({ Value.compare(key.values[$0.position], $0.value) == 0 }) {
                kept.insert(Row(free.map { key.values[$0] }))
            }
            if kept.isEmpty { return .false }
            if free.isEmpty { return .true }
            return .inSet(attributes: free.map { attributes[$0] }, keys: kept)
        }
    }

    private static func bind(_ term: Term, _ bound: [Attribute: Value]) -> Term {
        if case let .attribute(a) = term, let v = bound[a] { return .value(v) }
        return term
    }
}
