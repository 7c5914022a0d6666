import PostgresClient
import Relational

/// Select expressions as PostgreSQL conditions that agree exactly with `Value.compare`.
///
/// Negations are pushed down to the comparisons first (`not (a < b)` is `a >= b` in a total
/// order; De Morgan for and/or), so the condition has no NOT. Every comparison is then
/// translated to SQL that is TRUE exactly when it holds, and FALSE or NULL otherwise: under
/// AND and OR, and in WHERE, NULL then behaves as false, so no NULL ever changes a result.
///
/// A comparison is decided case by case on whether each operand is null (null equals null
/// and is below everything): when both are non-null and of comparable classes (the same
/// class, or integer and real) PostgreSQL's operator compares them; across classes the
/// testbed's class order decides without looking at the values. So `name < 3` on a text
/// column is `name IS NULL`, `a == b` on two nullable integer columns is
/// `(a = b OR (a IS NULL AND b IS NULL))`, and `id == 3` is `id = $1`, which an index serves.
/// An integer column compared with a real constant gets an integer bound that is exact
/// (`id < 2.5` is `id < 3`), since PostgreSQL would compare through doubles.
enum PostgresPredicate {
    /// An operand as SQL with its kind.
    struct Operand {
        let sql: String
        let kind: ColumnKind
    }

    /// `column` maps an attribute to its SQL and kind (throwing for unknown attributes).
    static func translate(
        _ predicate: Predicate, negated: Bool = false, parameters: inout [Value],
        column: (Attribute) throws -> Operand
    ) throws -> String {
        switch predicate {
        case let .constant(b):
            return b != negated ? "TRUE" : "FALSE"
        case let .comparison(l, op, r):
            return try comparison(l, negated ? op.negated : op, r, &parameters, column)
        case let .and(parts):
            return try junction(parts, negated ? "OR" : "AND", negated: negated, &parameters, column)
        case let .or(parts):
            return try junction(parts, negated ? "AND" : "OR", negated: negated, &parameters, column)
        case let .not(inner):
            return try translate(inner, negated: !negated, parameters: &parameters, column: column)
        case let .inSet(attributes, keys):
            if let bad = keys.first(where: { $0.count != attributes.count }) {
                throw PostgresError(.usage, "an IN-set key has \(bad.count) values for \(attributes.count) attributes")
            }
            if attributes.count == 1 {
                return try membership(attributes[0], keys.map { $0.values[0] }, negated: negated, &parameters, column)
            }
            // Sorted, so one set always gives one statement text.
            let perKey: [Predicate] = keys.sorted().map { key in
                .and(zip(attributes, key.values).map { .comparison(.attribute($0), .equal, .value($1)) })
            }
            return try translate(.or(perKey), negated: negated, parameters: &parameters, column: column)
        }
    }

    private static func junction(
        _ parts: [Predicate], _ word: String, negated: Bool, _ parameters: inout [Value],
        _ column: (Attribute) throws -> Operand
    ) throws -> String {
        if parts.isEmpty { return word == "AND" ? "TRUE" : "FALSE" }
        let sql = try parts.map { try translate($0, negated: negated, parameters: &parameters, column: column) }
        return sql.count == 1 ? sql[0] : "(" + sql.joined(separator: " \(word) ") + ")"
    }

    /// `attribute` equal (or, negated, unequal) to one of `values`: an IN list of the values
    /// of the column's class, plus the null case.
    private static func membership(
        _ attribute: Attribute, _ values: [Value], negated: Bool, _ parameters: inout [Value],
        _ column: (Attribute) throws -> Operand
    ) throws -> String {
        let a = try column(attribute)
        var hasNull = false
        var matching: [Value] = []
        for value in values {
            if value.isNull { hasNull = true; continue }
            // A value of another class never equals the column's values.
            guard ColumnKind.Class.of(value).comparable(with: a.kind.type) else { continue }
            guard let bound = try bind(value, against: a.kind.type) else { continue }
            matching.append(bound)
        }
        let first = parameters.count + 1
        parameters.append(contentsOf: matching)
        let list = (first..<(first + matching.count)).map { "$\($0)" }.joined(separator: ", ")
        let nullCase = a.kind.nullable ? (hasNull != negated ? "\(a.sql) IS NULL" : "\(a.sql) IS NOT NULL") : nil
        var pieces: [String] = []
        if negated {
            // Non-null and in none of them, or null when null is not among them.
            if !matching.isEmpty {
                pieces.append(matching.count == 1 ? "\(a.sql) <> $\(first)" : "\(a.sql) NOT IN (\(list))")
            } else if a.kind.type != .nullOnly {
                pieces.append("\(a.sql) IS NOT NULL")
            }
            if !hasNull && a.kind.nullable { pieces.append("\(a.sql) IS NULL") }
            return disjunction(pieces)
        }
        if !matching.isEmpty { pieces.append(matching.count == 1 ? "\(a.sql) = $\(first)" : "\(a.sql) IN (\(list))") }
        if hasNull, let nullCase { pieces.append(nullCase) }
        return disjunction(pieces)
    }

    private static func disjunction(_ pieces: [String]) -> String {
        if pieces.isEmpty { return "FALSE" }
        return pieces.count == 1 ? pieces[0] : "(" + pieces.joined(separator: " OR ") + ")"
    }

    /// The value to bind when comparing it with a column of `type` by equality: integral
    /// reals against integer columns become integers; nil when no value of the column can
    /// equal it (a fractional real against integers).
    private static func bind(_ value: Value, against type: ColumnKind.Class) throws -> Value? {
        switch (value, type) {
        case let (.real(d), .integer):
            return Int64(exactly: d).map(Value.integer)
        case let (.integer(i), .real):
            return .real(try exactDouble(i))
        default:
            return value
        }
    }

    private static func exactDouble(_ i: Int64) throws -> Double {
        guard let d = Double(exactly: i) else {
            throw PostgresError(.unsupportedValue,
                "the integer \(i) cannot be compared exactly with a real column in PostgreSQL (beyond 2^53 it compares through a double)")
        }
        return d
    }

    // MARK: comparisons

    private enum Side { case known(Value), column(Operand) }

    private static func comparison(
        _ l: Term, _ op: ComparisonOperator, _ r: Term, _ parameters: inout [Value],
        _ column: (Attribute) throws -> Operand
    ) throws -> String {
        func side(_ t: Term) throws -> Side {
            switch t {
            case let .attribute(a): return .column(try column(a))
            case let .value(v): return .known(v)
            }
        }
        switch (try side(l), try side(r)) {
        case let (.known(a), .known(b)):
            return op.holds(forComparison: Value.compare(a, b)) ? "TRUE" : "FALSE"
        case let (.column(a), .known(b)):
            return try columnWithConstant(a, op, b, &parameters)
        case let (.known(a), .column(b)):
            return try columnWithConstant(b, op.swapped, a, &parameters)
        case let (.column(a), .column(b)):
            if let reason = ColumnKind.inexactMeeting(a.kind, b.kind) {
                throw PostgresError(.unsupportedValue, "cannot translate to PostgreSQL: \(l) \(op.rawValue) \(r): \(reason)")
            }
            return columns(a, op, b)
        }
    }

    /// Column against column: one disjunct per possible (null, null) combination that holds.
    private static func columns(_ a: Operand, _ op: ComparisonOperator, _ b: Operand) -> String {
        var pieces: [String] = []
        if a.kind.nullable && b.kind.nullable && op.holds(forComparison: 0) {
            pieces.append("(\(a.sql) IS NULL AND \(b.sql) IS NULL)")
        }
        if a.kind.nullable && b.kind.type != .nullOnly && op.holds(forComparison: -1) {
            pieces.append("(\(a.sql) IS NULL AND \(b.sql) IS NOT NULL)")
        }
        if a.kind.type != .nullOnly && b.kind.nullable && op.holds(forComparison: 1) {
            pieces.append("(\(a.sql) IS NOT NULL AND \(b.sql) IS NULL)")
        }
        if a.kind.type != .nullOnly && b.kind.type != .nullOnly {
            if a.kind.type.comparable(with: b.kind.type) {
                pieces.append("\(a.sql) \(op.sql) \(b.sql)")
            } else if op.holds(forComparison: a.kind.type.rank < b.kind.type.rank ? -1 : 1) {
                pieces.append("(\(a.sql) IS NOT NULL AND \(b.sql) IS NOT NULL)")
            }
        }
        return disjunction(pieces)
    }

    /// Column `a` against a constant `b`.
    private static func columnWithConstant(
        _ a: Operand, _ op: ComparisonOperator, _ b: Value, _ parameters: inout [Value]
    ) throws -> String {
        var pieces: [String] = []
        if b.isNull {
            // null is below everything and equal to itself.
            let whenNull = op.holds(forComparison: 0), whenNot = op.holds(forComparison: 1)
            switch (whenNull, whenNot) {
            case (true, true): return "TRUE"
            case (false, false): return "FALSE"
            case (true, false): return a.kind.nullable ? "\(a.sql) IS NULL" : "FALSE"
            case (false, true): return a.kind.type == .nullOnly ? "FALSE" : "\(a.sql) IS NOT NULL"
            }
        }
        if a.kind.nullable && op.holds(forComparison: -1) { pieces.append("\(a.sql) IS NULL") }
        let valueClass = ColumnKind.Class.of(b)
        if a.kind.type != .nullOnly {
            if a.kind.type.comparable(with: valueClass) {
                if let native = try native(a, op, b, &parameters) { pieces.append(native) }
            } else if op.holds(forComparison: a.kind.type.rank < valueClass.rank ? -1 : 1) {
                pieces.append("\(a.sql) IS NOT NULL")
            }
        }
        if pieces.contains(where: { $0 == "TRUE" }) { return "TRUE" }
        return disjunction(pieces.filter { $0 != "FALSE" })
    }

    /// `a op b` for a non-null `b` of a class comparable with the column, TRUE exactly for
    /// the non-null values of `a` for which it holds (nil: for none).
    private static func native(_ a: Operand, _ op: ComparisonOperator, _ b: Value, _ parameters: inout [Value]) throws -> String? {
        var op = op
        var bound = b
        if a.kind.type == .integer, case let .real(d) = b {
            // Integers against a real: an exact integer bound instead.
            if d.isNaN {
                // NaN is below every number in the testbed's order.
                return op.holds(forComparison: 1) ? "\(a.sql) IS NOT NULL" : nil
            }
            if let i = Int64(exactly: d) {
                bound = .integer(i)
            } else {
                switch op {
                case .equal: return nil
                case .notEqual: return "\(a.sql) IS NOT NULL"
                case .less, .lessOrEqual:
                    // x < d and x <= d (d not an integer) are x <= floor(d).
                    guard d > -9_223_372_036_854_775_808.0 else { return nil }
                    guard d < 9_223_372_036_854_775_808.0 else { return "\(a.sql) IS NOT NULL" }
                    bound = .integer(Int64(d.rounded(.down)))
                    op = .lessOrEqual
                case .greater, .greaterOrEqual:
                    // x > d and x >= d are x >= ceil(d).
                    guard d < 9_223_372_036_854_775_808.0 else { return nil }
                    guard d > -9_223_372_036_854_775_808.0 else { return "\(a.sql) IS NOT NULL" }
                    bound = .integer(Int64(d.rounded(.up)))
                    op = .greaterOrEqual
                }
            }
        } else if a.kind.type == .real, case let .integer(i) = b {
            bound = .real(try exactDouble(i))
        } else if case let .real(d) = b, d.isNaN {
            return op.holds(forComparison: 1) ? "\(a.sql) IS NOT NULL" : nil
        }
        parameters.append(bound)
        return "\(a.sql) \(op.sql) $\(parameters.count)"
    }
}

extension ComparisonOperator {
    var sql: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "<>"
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        }
    }
}
