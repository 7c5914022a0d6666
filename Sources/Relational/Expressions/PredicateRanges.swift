/// The least and the greatest value a column holds, in the total value order (a zone map
/// of one column).
public struct ValueRange: Hashable, Sendable {
    public let lowest: Value
    public let highest: Value
    /// The least value that is not null (nil: every value is null). Null sorts first, so
    /// when `lowest` is null this tells `c < 0` (only the nulls) from a range of numbers
    /// below 0.
    public let lowestNonNull: Value?

    public init(lowest: Value, highest: Value, lowestNonNull: Value? = nil) {
        self.lowest = lowest
        self.highest = highest
        self.lowestNonNull = lowest.isNull ? lowestNonNull : lowest
    }

    func contains(_ value: Value) -> Bool {
        Value.compare(lowest, value) <= 0 && Value.compare(value, highest) <= 0
    }

    /// Whether some value lies in both ranges: disjoint ranges share no value, so no row of
    /// one equals a row of the other on these columns (`null == null` included: null is the
    /// lowest value).
    public func overlaps(_ other: ValueRange) -> Bool {
        Value.compare(lowest, other.highest) <= 0 && Value.compare(other.lowest, highest) <= 0
    }

    /// The range widened to hold `value` too.
    public func widened(with value: Value) -> ValueRange {
        if value.isNull {
            return lowest.isNull ? self : ValueRange(lowest: .null, highest: highest, lowestNonNull: lowestNonNull)
        }
        let low = lowestNonNull.map { Value.compare(value, $0) < 0 ? value : $0 } ?? value
        let high = highest.isNull || Value.compare(highest, value) < 0 ? value : highest
        return ValueRange(lowest: lowest.isNull ? .null : low, highest: high, lowestNonNull: low)
    }
}

extension Predicate {
    /// False only when no row whose value at each attribute lies within `range(attribute)`
    /// (nil: any value) can satisfy this predicate; true when that cannot be ruled out.
    /// Comparisons use the total value order, as evaluation does, so `e >= "x"` is ruled
    /// out on a column of numbers and `c < 0` on one whose lowest value is 0. An AND is
    /// ruled out when a part is, an OR when every part is, so ruling out is monotone: a
    /// predicate ruled out stays ruled out under any AND, and an OR ruled out rules out each
    /// of its parts. NOT is pushed into its operand (`not (a < 1)` is `a >= 1`); the
    /// negation of an IN-set is never ruled out.
    public func mayMatch(within range: (Attribute) -> ValueRange?) -> Bool {
        mayMatch(negated: false, within: range)
    }

    private func mayMatch(negated: Bool, within range: (Attribute) -> ValueRange?) -> Bool {
        switch self {
        case let .constant(holds):
            return holds != negated
        case let .comparison(left, op, right):
            return Self.comparisonMayHold(left, negated ? op.negated : op, right, within: range)
        case let .and(parts):
            // not (p and q) is (not p) or (not q).
            if negated { return parts.contains { $0.mayMatch(negated: true, within: range) } }
            return Self.conjunctsMayMatch(parts, within: range)
        case let .or(parts):
            return negated
                ? parts.allSatisfy { $0.mayMatch(negated: true, within: range) }
                : parts.contains { $0.mayMatch(negated: false, within: range) }
        case let .not(inner):
            return inner.mayMatch(negated: !negated, within: range)
        case let .inSet(attributes, keys):
            if negated { return true }
            let ranges = attributes.map(range)
            return keys.contains { key in
                zip(ranges, key.values).allSatisfy { r, v in r?.contains(v) ?? true }
            }
        }
    }

    /// An AND: the comparisons of an attribute with a constant first narrow what each
    /// attribute may hold (`c < 0` on a column of nulls and numbers from 0 leaves only null),
    /// then every conjunct is asked within the narrowed ranges (`e < c` then needs a value
    /// below null: none). Sound because a row satisfying the AND satisfies each conjunct.
    private static func conjunctsMayMatch(_ parts: [Predicate], within range: (Attribute) -> ValueRange?) -> Bool {
        let conjuncts = parts.flatMap(\.conjuncts)
        var allowed: [Attribute: AllowedValues] = [:]
        for conjunct in conjuncts {
            guard case let .comparison(left, op, right) = conjunct else { continue }
            let attribute: Attribute, constant: Value, normalized: ComparisonOperator
            switch (left, right) {
            case let (.attribute(a), .value(v)): (attribute, constant, normalized) = (a, v, op)
            case let (.value(v), .attribute(a)): (attribute, constant, normalized) = (a, v, op.swapped)
            default: continue
            }
            guard var values = allowed[attribute] ?? range(attribute).map(AllowedValues.init) else { continue }
            values.constrain(normalized, constant)
            if values.isEmpty { return false }
            allowed[attribute] = values
        }
        func narrowed(_ attribute: Attribute) -> ValueRange? { allowed[attribute]?.range ?? range(attribute) }
        return conjuncts.allSatisfy { $0.mayMatch(negated: false, within: narrowed) }
    }

    private static func comparisonMayHold(
        _ left: Term, _ op: ComparisonOperator, _ right: Term, within range: (Attribute) -> ValueRange?
    ) -> Bool {
        switch (left, right) {
        case let (.value(a), .value(b)):
            return op.holds(forComparison: Value.compare(a, b))
        case let (.attribute(a), .value(v)):
            return range(a).map { attributeMayHold($0, op, v) } ?? true
        case let (.value(v), .attribute(a)):
            return range(a).map { attributeMayHold($0, op.swapped, v) } ?? true
        case let (.attribute(a), .attribute(b)):
            if a == b { return op.holds(forComparison: 0) }
            guard let ra = range(a), let rb = range(b) else { return true }
            switch op {
            case .equal:
                return Value.compare(ra.lowest, rb.highest) <= 0 && Value.compare(rb.lowest, ra.highest) <= 0
            case .notEqual:
                return !(ra.lowest == ra.highest && rb.lowest == rb.highest && ra.lowest == rb.lowest)
            case .less: return Value.compare(ra.lowest, rb.highest) < 0
            case .lessOrEqual: return Value.compare(ra.lowest, rb.highest) <= 0
            case .greater: return Value.compare(ra.highest, rb.lowest) > 0
            case .greaterOrEqual: return Value.compare(ra.highest, rb.lowest) >= 0
            }
        }
    }

    /// Whether `x op v` holds for some x in `r`.
    private static func attributeMayHold(_ r: ValueRange, _ op: ComparisonOperator, _ v: Value) -> Bool {
        switch op {
        case .equal: return r.contains(v)
        case .notEqual: return !(r.lowest == v && r.highest == v)
        case .less: return Value.compare(r.lowest, v) < 0
        case .lessOrEqual: return Value.compare(r.lowest, v) <= 0
        case .greater: return Value.compare(r.highest, v) > 0
        case .greaterOrEqual: return Value.compare(r.highest, v) >= 0
        }
    }
}

extension ComparisonOperator {
    /// The operator that holds exactly when this one does not (the value order is total).
    public var negated: ComparisonOperator {
        switch self {
        case .equal: return .notEqual
        case .notEqual: return .equal
        case .less: return .greaterOrEqual
        case .lessOrEqual: return .greater
        case .greater: return .lessOrEqual
        case .greaterOrEqual: return .less
        }
    }
}

/// The values an AND leaves an attribute: null or not, and the non-null values within an
/// interval whose ends may be open.
private struct AllowedValues {
    var null: Bool
    /// nil: no non-null value.
    var interval: (lower: Value, lowerOpen: Bool, upper: Value, upperOpen: Bool)?

    init(_ range: ValueRange) {
        null = range.lowest.isNull
        interval = range.lowestNonNull.map { ($0, false, range.highest, false) }
    }

    var isEmpty: Bool { !null && interval == nil }

    /// Closed ends: a range for comparisons (open ends only make it wider).
    var range: ValueRange? {
        guard let interval else { return null ? ValueRange(lowest: .null, highest: .null) : nil }
        return ValueRange(lowest: null ? .null : interval.lower, highest: interval.upper, lowestNonNull: interval.lower)
    }

    /// Keeps the values `x` with `x op v`.
    mutating func constrain(_ op: ComparisonOperator, _ v: Value) {
        if v.isNull {
            switch op {
            case .less: null = false; interval = nil
            case .equal, .lessOrEqual: interval = nil
            case .notEqual, .greater: null = false
            case .greaterOrEqual: break
            }
            return
        }
        // Null sorts before every non-null value.
        switch op {
        case .equal: null = false; below(v, open: false); above(v, open: false)
        case .notEqual: break
        case .less: below(v, open: true)
        case .lessOrEqual: below(v, open: false)
        case .greater: null = false; above(v, open: true)
        case .greaterOrEqual: null = false; above(v, open: false)
        }
    }

    private mutating func below(_ v: Value, open: Bool) {
        guard var i = interval else { return }
        let c = Value.compare(v, i.upper)
        if c < 0 { (i.upper, i.upperOpen) = (v, open) } else if c == 0 { i.upperOpen = i.upperOpen || open }
        interval = Self.nonEmpty(i)
    }

    private mutating func above(_ v: Value, open: Bool) {
        guard var i = interval else { return }
        let c = Value.compare(v, i.lower)
        if c > 0 { (i.lower, i.lowerOpen) = (v, open) } else if c == 0 { i.lowerOpen = i.lowerOpen || open }
        interval = Self.nonEmpty(i)
    }

    private static func nonEmpty(
        _ i: (lower: Value, lowerOpen: Bool, upper: Value, upperOpen: Bool)
    ) -> (lower: Value, lowerOpen: Bool, upper: Value, upperOpen: Bool)? {
        let c = Value.compare(i.lower, i.upper)
        return c < 0 || (c == 0 && !i.lowerOpen && !i.upperOpen) ? i : nil
    }
}
