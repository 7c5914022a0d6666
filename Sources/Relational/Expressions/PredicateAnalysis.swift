// The analyses the engine needs from a select expression.

extension Predicate {
    /// The parts of an AND, nested ANDs flattened; any other predicate is its one part.
    public var conjuncts: [Predicate] {
        guard case let .and(parts) = self else { return [self] }
        return parts.flatMap(\.conjuncts)
    }

    /// Whether every row passing `self` passes `other`, as far as a syntactic check can tell:
    /// `other` is `self` or one of its conjuncts, or each of `other`'s conjuncts is (not
    /// flattened: the runner builds one level of AND). False means only "not seen".
    public func impliesSyntactically(_ other: Predicate) -> Bool {
        if self == other { return true }
        let held: [Predicate]
        if case let .and(parts) = self { held = parts } else { held = [self] }
        if case let .and(needed) = other { return needed.allSatisfy(held.contains) }
        return held.contains(other)
    }

    /// Every attribute the predicate reads.
    public var attributes: Set<Attribute> {
        var out = Set<Attribute>()
        collectAttributes(into: &out)
        return out
    }

    private func collectAttributes(into out: inout Set<Attribute>) {
        switch self {
        case .constant: break
        case let .comparison(l, _, r):
            if case let .attribute(a) = l { out.insert(a) }
            if case let .attribute(a) = r { out.insert(a) }
        case let .and(parts), let .or(parts):
            for p in parts { p.collectAttributes(into: &out) }
        case let .not(inner):
            inner.collectAttributes(into: &out)
        case let .inSet(attributes, _):
            out.formUnion(attributes)
        }
    }

    /// The same predicate with attributes renamed; attributes missing from `map` stay.
    public func renamingAttributes(_ map: [Attribute: Attribute]) -> Predicate {
        func rename(_ t: Term) -> Term {
            if case let .attribute(a) = t, let b = map[a] { return .attribute(b) }
            return t
        }
        switch self {
        case .constant: return self
        case let .comparison(l, op, r): return .comparison(rename(l), op, rename(r))
        case let .and(parts): return .and(parts.map { $0.renamingAttributes(map) })
        case let .or(parts): return .or(parts.map { $0.renamingAttributes(map) })
        case let .not(inner): return .not(inner.renamingAttributes(map))
        case let .inSet(attributes, keys): return .inSet(attributes: attributes.map { map[$0] ?? $0 }, keys: keys)
        }
    }

    /// For each attribute `a` with a finite set `V` such that the predicate implies
    /// `a ∈ V`: equalities with constants, ORs of them (when every disjunct constrains `a`),
    /// and ANDs (where any conjunct's constraint holds), and IN-sets (each of their
    /// attributes is in the set of its values over the keys, as for the equivalent OR of
    /// ANDs). A source indexed on `a` can fetch the rows with `a ∈ V` and then test the whole
    /// predicate on just those.
    public var impliedValueSets: [Attribute: Set<Value>] {
        switch self {
        case let .inSet(attributes, keys):
            var sets: [Attribute: Set<Value>] = [:]
            for (i, a) in attributes.enumerated() {
                var values = Set<Value>()
                for key in keys where i < key.count { values.insert(key.values[i]) }
                // An attribute named twice is in both positions' sets, as an AND would say.
                sets[a] = sets[a].map { $0.intersection(values) } ?? values
            }
            return sets
        case let .comparison(.attribute(a), .equal, .value(v)),
            let .comparison(.value(v), .equal, .attribute(a)):
            return [a: [v]]
        case let .and(parts):
            var merged: [Attribute: Set<Value>] = [:]
            for part in parts {
                for (a, values) in part.impliedValueSets {
                    merged[a] = merged[a].map { $0.intersection(values) } ?? values
                }
            }
            return merged
        case let .or(parts):
            guard let first = parts.first else { return [:] }
            var common = first.impliedValueSets
            for part in parts.dropFirst() where !common.isEmpty {
                let next = part.impliedValueSets
                var kept: [Attribute: Set<Value>] = [:]
                for (a, values) in common {
                    if let more = next[a] { kept[a] = values.union(more) }
                }
                common = kept
            }
            return common
        default:
            return [:]
        }
    }

    /// `impliedValueSets`, also reading `a <= null` (and `null >= a`) as `a == null`: null is
    /// the least value, so nothing else is at or below it. Kept apart from `impliedValueSets`,
    /// which indexes fetch by: there it would change what the seed's own heuristics read.
    public var pinnedValueSets: [Attribute: Set<Value>] {
        var sets = impliedValueSets
        for part in conjuncts {
            switch part {
            case let .comparison(.attribute(a), .lessOrEqual, .value(.null)),
                let .comparison(.value(.null), .greaterOrEqual, .attribute(a)):
                sets[a] = sets[a].map { $0.intersection([.null]) } ?? [.null]
            default:
                continue
            }
        }
        return sets
    }

    /// `pinnedValueSets`, each set kept to the values that pass every conjunct comparing
    /// that attribute with a constant, in the total value order (null the least): `(d ==
    /// 222.0 or d == null) and 121.0 < d` pins `d` to `{222.0}`. For the later heuristics'
    /// size checks only (`late-subtree-copying`), as `pinnedValuesContradict` is: the
    /// estimates every source gives stay the seed's.
    public var pinsNarrowedByComparisons: [Attribute: Set<Value>] {
        var sets = pinnedValueSets
        guard !sets.isEmpty, case .and = self else { return sets }
        for part in conjuncts {
            guard case let .comparison(left, op, right) = part else { continue }
            switch (left, right) {
            case let (.attribute(a), .value(v)):
                if let values = sets[a] { sets[a] = values.filter { op.holds(forComparison: Value.compare($0, v)) } }
            case let (.value(v), .attribute(a)):
                if let values = sets[a] { sets[a] = values.filter { op.holds(forComparison: Value.compare(v, $0)) } }
            default:
                continue
            }
        }
        return sets
    }

    /// Whether this is `true` (`.constant(true)`): matched in place, where `!= .true` built
    /// the constant (a lazy global) and called the derived equality, on hot hook paths.
    public var isConstantTrue: Bool {
        if case .constant(true) = self { return true }
        return false
    }

    /// True when the predicate can match no row at all (after simplification).
    public var isUnsatisfiable: Bool {
        switch self {
        case .constant(false): return true
        case let .inSet(_, keys): return keys.isEmpty
        case let .or(parts): return parts.allSatisfy(\.isUnsatisfiable)
        case let .and(parts): return parts.contains(where: \.isUnsatisfiable)
        default: return false
        }
    }

    /// Whether a conjunction pins an attribute to a value (`a == v`, or an IN-set of one key
    /// on `a` alone) that another of its comparisons then rejects, in the total value order:
    /// `c == null and c > 5` (null is the least value), `c == 3 and c == 4`, `c == null and
    /// d < c` (nothing is below null, whatever `d` holds); or confines an
    /// attribute to sets of values (equalities, IN-sets, ORs of them) that share no value:
    /// `e in {1, 17} and e in {0.5, 53}`, two join key filters that a runner's narrowing
    /// AND-ed. Nested conjunctions count as one. Such a filter matches no row, but `isUnsatisfiable` does not
    /// look this far: every source's estimate and scan use it, so it would change what the
    /// seed's own heuristics do (hunted, `seed` then read more rows on 94 cases and fewer on
    /// 107). `provably-empty-first` asks it instead.
    /// A NOT over comparisons is read as the opposite comparisons (`not (a < 0)` as `a >= 0`).
    public var pinnedValuesContradict: Bool {
        guard case .and = self else { return false }
        let form = negationsPushed?.flattened ?? self
        guard case .and = form else { return false }
        return Self.pinnedValuesContradict(form.conjuncts) || form.impliedValueSets.values.contains(where: \.isEmpty)
    }

    private static func pinnedValuesContradict(_ parts: [Predicate]) -> Bool {
        let pinned = pins(among: parts)
        var comparisons: [(Term, ComparisonOperator, Term)] = []
        for part in parts {
            if case let .comparison(left, op, right) = part, pin(part) == nil { comparisons.append((left, op, right)) }
        }
        guard !pinned.isEmpty else { return false }
        func value(_ term: Term) -> Value? {
            switch term {
            case let .value(v): return v
            case let .attribute(a): return pinned.first { $0.attribute == a }?.value
            }
        }
        // Two pins of one attribute must agree; each other comparison must hold on the pins.
        for (i, pin) in pinned.enumerated() {
            for other in pinned[(i + 1)...] where other.attribute == pin.attribute && Value.compare(other.value, pin.value) != 0 {
                return true
            }
        }
        for (left, op, right) in comparisons {
            let l = value(left), r = value(right)
            if let l, let r {
                if !op.holds(forComparison: Value.compare(l, r)) { return true }
            } else if (op == .less && r == .null) || (op == .greater && l == .null) {
                return true  // below the least value
            }
        }
        return false
    }

    /// The values `parts` (conjuncts, flattened) pin attributes to: `a == v`, and an IN-set
    /// of one key on `a` alone (a join key filter built from one row).
    private static func pins(among parts: [Predicate]) -> [(attribute: Attribute, value: Value)] {
        parts.compactMap(pin)
    }

    private static func pin(_ part: Predicate) -> (attribute: Attribute, value: Value)? {
        switch part {
        case let .comparison(.attribute(a), .equal, .value(v)), let .comparison(.value(v), .equal, .attribute(a)):
            return (a, v)
        case let .inSet(attributes, keys) where attributes.count == 1 && keys.count == 1:
            guard let key = keys.first, key.values.count == 1 else { return nil }
            return (attributes[0], key.values[0])
        default: return nil
        }
    }

    /// Whether a conjunction compares two attributes (or one with itself) in ways no row can
    /// satisfy together: `b < e and b > e`, `a != a`. The value order is total (null an
    /// ordinary value, `3 == 3.0`), so exactly one of less, equal and greater holds between
    /// any two values, and each comparison allows a subset of the three; an empty
    /// intersection matches nothing. Like `pinnedValuesContradict`, not part of
    /// `isUnsatisfiable`, which every source's estimate uses: the seed's heuristics keep
    /// their estimates, and the later heuristics ask this.
    public var comparedAttributesContradict: Bool {
        guard case .and = self else { return false }
        var allowed: [AttributePair: UInt8] = [:]
        for part in conjuncts {
            guard case let .comparison(.attribute(left), op, .attribute(right)) = part else { continue }
            let pair = left <= right ? AttributePair(first: left, second: right) : AttributePair(first: right, second: left)
            var outcomes = Self.outcomes(left <= right ? op : op.swapped)
            if left == right { outcomes &= Self.equalOutcome }
            let remaining = (allowed[pair] ?? 0b111) & outcomes
            if remaining == 0 { return true }
            allowed[pair] = remaining
        }
        return false
    }

    /// `comparedAttributesContradict` or `pinnedValuesContradict`: a conjunction that
    /// provably matches no row.
    public var conjunctsContradict: Bool { pinnedValuesContradict || comparedAttributesContradict || pinsRuleOutAnOr }

    /// Whether a conjunction pins attributes to values that rule out every part of an OR among
    /// its conjuncts: `d == 40 and (d <= 28 or d == 71)`. Kept apart from
    /// `pinnedValuesContradict`, which `select-pushdown`, one of the seed's heuristics, asks:
    /// there it made `seed` read fewer rows (held-out seed 391 case 1329 at `--rows 300`, 21
    /// rows → 0), and `seed` stays the seed's.
    public var pinsRuleOutAnOr: Bool {
        // Most conjunctions hold no OR: refused before the bindings are collected.
        guard hasAnOrConjunct else { return false }
        let parts = conjuncts
        var bound: [Attribute: Value] = [:]
        for pin in Self.pins(among: parts) where bound[pin.attribute] == nil { bound[pin.attribute] = pin.value }
        let alternatives = parts.filter { if case .or = $0 { return true } else { return false } }
        guard !bound.isEmpty, !alternatives.isEmpty else { return false }
        return alternatives.contains { $0.binding(bound).isUnsatisfiable }
    }

    /// Whether an AND has an OR among its conjuncts (nested ANDs looked into), asked without
    /// allocating.
    private var hasAnOrConjunct: Bool {
        guard case let .and(parts) = self else { return false }
        return parts.contains { part in
            if case .or = part { return true }
            return part.hasAnOrConjunct
        }
    }

    private struct AttributePair: Hashable {
        let first: Attribute
        let second: Attribute
    }

    private static let equalOutcome: UInt8 = 0b010

    /// The outcomes (bit 0 less, bit 1 equal, bit 2 greater, of the left operand against the
    /// right) under which `op` holds.
    private static func outcomes(_ op: ComparisonOperator) -> UInt8 {
        switch op {
        case .less: return 0b001
        case .lessOrEqual: return 0b011
        case .equal: return 0b010
        case .notEqual: return 0b101
        case .greater: return 0b100
        case .greaterOrEqual: return 0b110
        }
    }

    /// Counts comparison leaves: a size measure for limits and reports.
    public var comparisonCount: Int {
        switch self {
        case .constant: return 0
        case .comparison: return 1
        case let .and(parts), let .or(parts): return parts.reduce(0) { $0 + $1.comparisonCount }
        case let .not(inner): return inner.comparisonCount
        case let .inSet(attributes, keys): return attributes.count * keys.count
        }
    }

    /// The same predicate with every IN-set written as its OR (over the keys, in the value
    /// order) of ANDs of equalities: the form the query language can print and parse.
    public var expandingInSets: Predicate {
        switch self {
        case .constant, .comparison: return self
        case let .and(parts): return .and(parts.map(\.expandingInSets))
        case let .or(parts): return .or(parts.map(\.expandingInSets))
        case let .not(inner): return .not(inner.expandingInSets)
        case let .inSet(attributes, keys):
            return .any(keys.sorted().map { key in
                .all(zip(attributes, key.values).map { .comparison(.attribute($0), .equal, .value($1)) })
            })
        }
    }

    /// The same predicate with every NOT pushed onto the comparisons (`not (a != 64.5)` is
    /// `a == 64.5`, `not (x and y)` is `not x or not y`): equivalent because the value order
    /// is total and null an ordinary value, so a negated comparison is the opposite one. A
    /// NOT over an IN-set stays. An index can answer the pushed form where it cannot read the
    /// NOT. Nil when there is no NOT to push (the predicate as it stands is the answer).
    public var negationsPushed: Predicate? {
        containsNegation ? pushingNegations(negated: false) : nil
    }

    private var containsNegation: Bool {
        switch self {
        case .constant, .comparison, .inSet: return false
        case let .and(parts), let .or(parts): return parts.contains { $0.containsNegation }
        case .not: return true
        }
    }

    private func pushingNegations(negated: Bool) -> Predicate {
        switch self {
        case let .constant(holds): return .constant(holds != negated)
        case let .comparison(left, op, right): return .comparison(left, negated ? op.negated : op, right)
        case let .and(parts):
            let pushed = parts.map { $0.pushingNegations(negated: negated) }
            return negated ? .or(pushed) : .and(pushed)
        case let .or(parts):
            let pushed = parts.map { $0.pushingNegations(negated: negated) }
            return negated ? .and(pushed) : .or(pushed)
        case let .not(inner): return inner.pushingNegations(negated: !negated)
        case .inSet: return negated ? .not(self) : self
        }
    }
}
