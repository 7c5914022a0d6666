/// An operand of a comparison: an attribute of the row or a constant.
public enum Term: Hashable, Sendable, CustomStringConvertible {
    case attribute(Attribute)
    case value(Value)

    public var description: String {
        switch self {
        case let .attribute(a): return a.name
        case let .value(v): return v.description
        }
    }
}

public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Applies the operator to a three-way comparison result in the value order.
    @inline(__always)
    public func holds(forComparison c: Int) -> Bool {
        switch self {
        case .equal: return c == 0
        case .notEqual: return c != 0
        case .less: return c < 0
        case .lessOrEqual: return c <= 0
        case .greater: return c > 0
        case .greaterOrEqual: return c >= 0
        }
    }

    /// The operator with its operands swapped (`a < b` is `b > a`).
    public var swapped: ComparisonOperator {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        }
    }
}

/// A select expression. Comparisons use the total value order, so `null == null` holds
/// and `null < 0` holds; there is no three-valued logic.
public indirect enum Predicate: Hashable, Sendable {
    case constant(Bool)
    case comparison(Term, ComparisonOperator, Term)
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)
    /// Membership of the row's values at `attributes` (in that order) in `keys`: the rows
    /// whose key is one of the rows of `keys`. Values compare as everywhere else (null is an
    /// ordinary value, `3 == 3.0`, text by bytes), so it means exactly the OR, over the keys,
    /// of the AND of `attribute == value`, but is tested with one hash lookup per row. The
    /// engine builds it (a join's key filter); the query language has no syntax for it.
    case inSet(attributes: [Attribute], keys: Set<Row>)

    public static let `true` = Predicate.constant(true)
    public static let `false` = Predicate.constant(false)

    /// Conjunction that drops `true`, short-circuits on `false` and flattens nested ands.
    public static func all(_ parts: [Predicate]) -> Predicate {
        var flat: [Predicate] = []
        for part in parts {
            switch part {
            case .constant(true): continue
            case .constant(false): return .false
            case let .and(inner): flat.append(contentsOf: inner)
            default: flat.append(part)
            }
        }
        if flat.isEmpty { return .true }
        return flat.count == 1 ? flat[0] : .and(flat)
    }

    /// Disjunction that drops `false`, short-circuits on `true` and flattens nested ors.
    public static func any(_ parts: [Predicate]) -> Predicate {
        var flat: [Predicate] = []
        for part in parts {
            switch part {
            case .constant(false): continue
            case .constant(true): return .true
            case let .or(inner): flat.append(contentsOf: inner)
            default: flat.append(part)
            }
        }
        if flat.isEmpty { return .false }
        return flat.count == 1 ? flat[0] : .or(flat)
    }

    /// The predicate as the query language builds it: every `and`/`or`, at any depth,
    /// rebuilt with `all`/`any` (constants folded, nested chains flattened). Parsing a
    /// predicate's printed text gives this form, so a plan built from relations made in
    /// Swift (the fuzzer's and the hunt's random cases) equals the plan of its printed query.
    public var flattened: Predicate {
        switch self {
        case let .and(parts): return .all(parts.map(\.flattened))
        case let .or(parts): return .any(parts.map(\.flattened))
        case let .not(inner): return .not(inner.flattened)
        case .constant, .comparison, .inSet: return self
        }
    }
}

// Building predicates in Swift, in the spirit of PLRelational's `*==` operators.
infix operator *== : ComparisonPrecedence
infix operator *!= : ComparisonPrecedence
infix operator *< : ComparisonPrecedence
infix operator *<= : ComparisonPrecedence
infix operator *> : ComparisonPrecedence
infix operator *>= : ComparisonPrecedence
infix operator *&& : LogicalConjunctionPrecedence
infix operator *|| : LogicalDisjunctionPrecedence

extension Attribute {
    public static func *== (a: Attribute, v: Value) -> Predicate { .comparison(.attribute(a), .equal, .value(v)) }
    public static func *!= (a: Attribute, v: Value) -> Predicate { .comparison(.attribute(a), .notEqual, .value(v)) }
    public static func *< (a: Attribute, v: Value) -> Predicate { .comparison(.attribute(a), .less, .value(v)) }
    public static func *<= (a: Attribute, v: Value) -> Predicate { .comparison(.attribute(a), .lessOrEqual, .value(v)) }
    public static func *> (a: Attribute, v: Value) -> Predicate { .comparison(.attribute(a), .greater, .value(v)) }
    public static func *>= (a: Attribute, v: Value) -> Predicate { .comparison(.attribute(a), .greaterOrEqual, .value(v)) }
    /// Disfavored so `Attribute("animal") *== "cat"` (the seed's spelling) compares with the
    /// text value rather than an attribute named `cat`; write `*== Attribute("x")` for that.
    @_disfavoredOverload
    public static func *== (a: Attribute, b: Attribute) -> Predicate { .comparison(.attribute(a), .equal, .attribute(b)) }
}

extension Predicate {
    public static func *&& (a: Predicate, b: Predicate) -> Predicate { .all([a, b]) }
    public static func *|| (a: Predicate, b: Predicate) -> Predicate { .any([a, b]) }
    public static prefix func ! (a: Predicate) -> Predicate { .not(a) }
}
