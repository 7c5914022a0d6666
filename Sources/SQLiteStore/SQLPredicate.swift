import Relational

/// Select expressions as SQL that agrees exactly with `Value.compare`.
///
/// SQLite's own cross-type order is ours (null < numbers < text < blob; integers and reals
/// compare by exact value, checked against SQLite 3.40 in the tests; text by bytes under the
/// default BINARY collation, blobs by bytes), and columns carry no affinity, so no operand is
/// ever converted. What differs is null: SQL comparisons with NULL yield NULL, ours treat null
/// as the smallest value, equal to itself. So:
///
/// - `a == b` → `a IS b`, `a != b` → `a IS NOT b` (never NULL);
/// - `a < b` → `CASE WHEN a IS NULL THEN b IS NOT NULL WHEN b IS NULL THEN 0 ELSE a < b END`,
///   `a <= b` → `CASE WHEN a IS NULL THEN 1 WHEN b IS NULL THEN 0 ELSE a <= b END`, and `>`, `>=`
///   by swapping operands; simpler forms when an operand is a constant, e.g. `a < 5` →
///   `(a IS NULL OR a < ?)`, `a > 5` → `(a IS NOT NULL AND a > ?)`, `a > null` → `a IS NOT NULL`;
/// - an OR of equalities of one attribute with constants → `a IN (?, ...)` (plus `OR a IS NULL`
///   when null is among them), which SQLite answers from an index;
/// - an IN-set over one attribute the same way; over several attributes an OR, per key, of
///   an AND of `a IS ?` (null-safe, and each key an index search on its leading attribute).
///   A set too large for one statement's parameters is split by `SQLiteTable`'s cursor.
///
/// Every translated predicate evaluates to 0 or 1, never NULL, so `NOT` is exact.
/// Constants are always bound parameters (null is written as the keyword NULL).
/// NaN cannot be bound (SQLite would store NULL): binding it throws.
enum SQLPredicate {
    /// `column` maps an attribute to its SQL expression (and throws for unknown attributes).
    static func translate(
        _ predicate: Predicate, parameters: inout [Value], column: (Attribute) throws -> String
    ) throws -> String {
        switch predicate {
        case let .constant(b):
            return b ? "1" : "0"
        case let .comparison(l, op, r):
            return try comparison(l, op, r, &parameters, column)
        case let .and(parts):
            if parts.isEmpty { return "1" }
            let sql = try parts.map { try translate($0, parameters: &parameters, column: column) }
            return SQLNesting.allOf(sql)
        case let .or(parts):
            return try disjunction(parts, &parameters, column)
        case let .not(inner):
            return "(NOT " + (try translate(inner, parameters: &parameters, column: column)) + ")"
        case let .inSet(attributes, keys):
            return try inSet(attributes, keys, &parameters, column)
        }
    }

    private static func inSet(
        _ attributes: [Attribute], _ keys: Set<Row>, _ parameters: inout [Value], _ column: (Attribute) throws -> String
    ) throws -> String {
        if keys.isEmpty { return "0" }
        let names = try attributes.map(column)
        if let bad = keys.first(where: { $0.count != names.count }) {
            throw SQLiteError(.usage, "an IN-set key has \(bad.count) values for \(names.count) attributes")
        }
        if names.count == 1 {
            let pieces = membership(names[0], keys.map { $0.values[0] }, &parameters)
            return SQLNesting.anyOf(pieces)
        }
        // Sorted, so the same set always gives the same statement text (and cached statement).
        var disjuncts: [String] = []
        for key in keys.sorted() {
            var conjuncts: [String] = []
            for (name, value) in zip(names, key.values) {
                if value.isNull {
                    conjuncts.append("\(name) IS NULL")
                } else {
                    conjuncts.append("\(name) IS ?")
                    parameters.append(value)
                }
            }
            disjuncts.append(conjuncts.isEmpty ? "1" : "(" + conjuncts.joined(separator: " AND ") + ")")
        }
        return SQLNesting.anyOf(disjuncts)
    }

    /// `name` equal to one of `values` (null-safe), as one or two OR-ed pieces.
    private static func membership(_ name: String, _ values: [Value], _ parameters: inout [Value]) -> [String] {
        let nonNull = values.filter { !$0.isNull }
        var pieces: [String] = []
        if nonNull.count == 1 {
            pieces.append("\(name) IS ?")
            parameters.append(nonNull[0])
        } else if nonNull.count > 1 {
            // Non-null list, so IN is NULL only when the column is; guard that to keep 0/1.
            pieces.append("(\(name) IS NOT NULL AND \(name) IN (\(placeholders(nonNull.count))))")
            parameters.append(contentsOf: nonNull)
        }
        if nonNull.count != values.count { pieces.append("\(name) IS NULL") }
        return pieces
    }

    /// ORs, with equalities of one attribute to constants gathered into one IN list.
    private static func disjunction(
        _ parts: [Predicate], _ parameters: inout [Value], _ column: (Attribute) throws -> String
    ) throws -> String {
        if parts.isEmpty { return "0" }
        var groups: [Attribute: [Value]] = [:]
        var order: [Attribute] = []
        var others: [Predicate] = []
        for part in parts {
            switch part {
            case let .comparison(.attribute(a), .equal, .value(v)), let .comparison(.value(v), .equal, .attribute(a)):
                if groups[a] == nil { order.append(a) }
                groups[a, default: []].append(v)
            default:
                others.append(part)
            }
        }
        var sql: [String] = []
        for a in order {
            sql.append(contentsOf: membership(try column(a), groups[a] ?? [], &parameters))
        }
        for part in others { sql.append(try translate(part, parameters: &parameters, column: column)) }
        return SQLNesting.anyOf(sql)
    }

    /// How an operand can behave with respect to null.
    private enum Nullness { case null, nonNull, maybe }

    private static func comparison(
        _ l: Term, _ op: ComparisonOperator, _ r: Term,
        _ parameters: inout [Value], _ column: (Attribute) throws -> String
    ) throws -> String {
        if case let .value(a) = l, case let .value(b) = r {
            return op.holds(forComparison: Value.compare(a, b)) ? "1" : "0"
        }
        // Operands in SQL text order; a constant's parameter is appended where its `?` appears.
        // Every template below mentions a constant operand exactly once, so order is kept by
        // appending when the operand's text is produced.
        func operand(_ t: Term) throws -> (String, Nullness, Value?) {
            switch t {
            case let .attribute(a): return (try column(a), .maybe, nil)
            case .value(.null): return ("NULL", .null, nil)
            case let .value(v): return ("?", .nonNull, v)
            }
        }
        // Normalize > and >= to < and <= by swapping.
        var (left, right, op) = (l, r, op)
        if op == .greater || op == .greaterOrEqual {
            (left, right, op) = (r, l, op.swapped)
        }
        let (a, an, av) = try operand(left)
        let (b, bn, bv) = try operand(right)
        let sql: String
        // Which constants the chosen template mentions (left before right in text).
        var usesA = true, usesB = true
        switch op {
        case .equal:
            sql = "\(a) IS \(b)"
        case .notEqual:
            sql = "\(a) IS NOT \(b)"
        case .less:
            switch (an, bn) {
            case (_, .null): sql = "0"; usesA = false; usesB = false
            case (.null, .nonNull): sql = "1"; usesB = false
            case (.null, .maybe): sql = "\(b) IS NOT NULL"
            case (.maybe, .nonNull): sql = "(\(a) IS NULL OR \(a) < \(b))"
            case (.nonNull, .maybe): sql = "(\(b) IS NOT NULL AND \(a) < \(b))"
            case (.nonNull, .nonNull): sql = "\(a) < \(b)"
            case (.maybe, .maybe):
                sql = "(CASE WHEN \(a) IS NULL THEN \(b) IS NOT NULL WHEN \(b) IS NULL THEN 0 ELSE \(a) < \(b) END)"
            }
        case .lessOrEqual:
            switch (an, bn) {
            case (.null, _): sql = "1"; usesA = false; usesB = false
            case (.nonNull, .null): sql = "0"; usesA = false
            case (.maybe, .null): sql = "\(a) IS NULL"
            case (.maybe, .nonNull): sql = "(\(a) IS NULL OR \(a) <= \(b))"
            case (.nonNull, .maybe): sql = "(\(b) IS NOT NULL AND \(a) <= \(b))"
            case (.nonNull, .nonNull): sql = "\(a) <= \(b)"
            case (.maybe, .maybe):
                sql = "(CASE WHEN \(a) IS NULL THEN 1 WHEN \(b) IS NULL THEN 0 ELSE \(a) <= \(b) END)"
            }
        case .greater, .greaterOrEqual:
            preconditionFailure("normalized above")
        }
        if usesA, let av { parameters.append(av) }
        if usesB, let bv { parameters.append(bv) }
        return sql
    }
}
