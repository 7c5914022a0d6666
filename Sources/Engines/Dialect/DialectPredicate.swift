import Relational
import SQLiteStore

/// Select predicates (and join and closure conditions) in a typed dialect, agreeing exactly
/// with `Value.compare`: null is the smallest value and equal to itself, classes are ordered
/// `numbers < text < blob`. Every translated predicate is TRUE or FALSE, never NULL, so
/// `NOT` is exact.
///
/// A comparison has four cases: both operands null, one of them null, neither. The first
/// three are decided by the order; the last is the engine's own comparison when both
/// operands are of one class (text compared by bytes, `SQLDialect.ordered`), and decided by
/// the class order when they are not (a text constant against a number column never reaches
/// the engine, whose casts would fail or differ). Operands that cannot be null (constants)
/// or are always null (null constants, all-null columns) drop the cases that cannot happen.
/// Constants are bound parameters, each appearing once in the text.
struct DialectPredicate {
    let dialect: any SQLDialect
    let emitter: Emitter
    /// An attribute's SQL expression and column type (throws for unknown attributes).
    let column: (Attribute) throws -> (String, ColumnType)

    init(dialect: any SQLDialect, emitter: Emitter, column: @escaping (Attribute) throws -> (String, ColumnType)) {
        self.dialect = dialect
        self.emitter = emitter
        self.column = column
    }

    enum Operand {
        case column(String, ColumnType)
        case constant(Value)

        enum Nullness { case null, nonNull, maybe }

        var nullness: Nullness {
            switch self {
            case let .column(_, type): return type == .null ? .null : .maybe
            case let .constant(value): return value.isNull ? .null : .nonNull
            }
        }

        /// The class rank of its non-null values (nil for an all-null column).
        var rank: Int? {
            switch self {
            case let .column(_, type): return type.rank
            case let .constant(value): return ColumnType.of(value).rank
            }
        }

        var type: ColumnType {
            switch self {
            case let .column(_, type): return type
            case let .constant(value): return .of(value)
            }
        }
    }

    /// A piece of a condition: known, or SQL that is TRUE or FALSE.
    enum Piece: Equatable {
        case known(Bool)
        case sql(String)
    }

    func translate(_ predicate: Predicate, _ params: inout [Value]) throws -> String {
        switch predicate {
        case let .constant(b):
            return b ? dialect.trueLiteral : dialect.falseLiteral
        case let .comparison(l, op, r):
            return text(try compare(try operand(l), op, try operand(r), &params))
        case let .and(parts):
            if parts.isEmpty { return dialect.trueLiteral }
            let sql = try parts.map { try translate($0, &params) }
            return SQLNesting.allOf(sql)
        case let .or(parts):
            if parts.isEmpty { return dialect.falseLiteral }
            let sql = try parts.map { try translate($0, &params) }
            return SQLNesting.anyOf(sql)
        case let .not(inner):
            return "(NOT " + (try translate(inner, &params)) + ")"
        case let .inSet(attributes, keys):
            return try inSet(attributes, keys, &params)
        }
    }

    /// Null-safe equality of two columns (joins, closures).
    func equal(_ a: (String, ColumnType), _ b: (String, ColumnType)) -> String {
        var none: [Value] = []
        // Columns only: nothing is bound, so this cannot throw.
        let piece = (try? compare(.column(a.0, a.1), .equal, .column(b.0, b.1), &none)) ?? .known(false)
        return text(piece)
    }

    private func operand(_ term: Term) throws -> Operand {
        switch term {
        case let .attribute(a):
            let (sql, type) = try column(a)
            return .column(sql, type)
        case let .value(v):
            return .constant(v)
        }
    }

    func text(_ piece: Piece) -> String {
        switch piece {
        case let .known(b): return b ? dialect.trueLiteral : dialect.falseLiteral
        case let .sql(s): return s
        }
    }

    /// `a op b` as a piece.
    func compare(_ a: Operand, _ op: ComparisonOperator, _ b: Operand, _ params: inout [Value]) throws -> Piece {
        if case let .constant(x) = a, case let .constant(y) = b {
            return .known(op.holds(forComparison: Value.compare(x, y)))
        }
        var (a, b, op) = (a, b, op)
        if op == .greater || op == .greaterOrEqual { (a, b, op) = (b, a, op.swapped) }
        // Both maybe null, one class, equality: the dialect's own null-safe forms.
        if a.nullness == .maybe, b.nullness == .maybe, let ra = a.rank, ra == b.rank, op == .equal || op == .notEqual,
           case let .column(x, _) = a, case let .column(y, _) = b {
            return .sql(op == .equal ? dialect.nullSafeEqual(x, y) : dialect.nullSafeNotEqual(x, y))
        }
        var bothPresent: Piece?
        func nullResult(_ aNull: Bool, _ bNull: Bool) -> Bool {
            let c = aNull && bNull ? 0 : (aNull ? -1 : 1)
            return op.holds(forComparison: c)
        }
        // The case where neither is null, built at most once (its constants are bound once).
        func present() throws -> Piece {
            if let bothPresent { return bothPresent }
            let piece: Piece
            if let ra = a.rank, let rb = b.rank, ra == rb {
                let x = try sql(a, &params), y = try sql(b, &params)
                switch op {
                case .equal: piece = .sql("\(x) = \(y)")
                case .notEqual: piece = .sql("\(x) <> \(y)")
                case .less: piece = .sql("\(dialect.ordered(x, a.type)) < \(dialect.ordered(y, b.type))")
                case .lessOrEqual: piece = .sql("\(dialect.ordered(x, a.type)) <= \(dialect.ordered(y, b.type))")
                case .greater, .greaterOrEqual: piece = .known(false)  // normalized above
                }
            } else {
                // Different classes (an all-null column never gets here: it is never present).
                let c = (a.rank ?? 0) < (b.rank ?? 0) ? -1 : 1
                piece = .known(op.holds(forComparison: c))
            }
            bothPresent = piece
            return piece
        }
        // Given whether a is null: the piece over b's cases.
        func overB(_ aNull: Bool) throws -> Piece {
            switch b.nullness {
            case .null: return .known(nullResult(aNull, true))
            case .nonNull: return aNull ? .known(nullResult(true, false)) : try present()
            case .maybe:
                let whenNull = Piece.known(nullResult(aNull, true))
                let otherwise = aNull ? Piece.known(nullResult(true, false)) : try present()
                return choose(isNull(b), whenNull, otherwise)
            }
        }
        switch a.nullness {
        case .null: return try overB(true)
        case .nonNull: return try overB(false)
        case .maybe:
            let whenNull = try overB(true)
            let otherwise = try overB(false)
            return choose(isNull(a), whenNull, otherwise)
        }
    }

    private func isNull(_ operand: Operand) -> (test: String, negated: String) {
        if case let .column(sql, _) = operand { return ("\(sql) IS NULL", "\(sql) IS NOT NULL") }
        return (dialect.falseLiteral, dialect.trueLiteral)  // constants are never "maybe"
    }

    /// `CASE WHEN test THEN p ELSE q END`, simplified; every form is TRUE or FALSE.
    private func choose(_ condition: (test: String, negated: String), _ p: Piece, _ q: Piece) -> Piece {
        switch (p, q) {
        case let (.known(x), .known(y)) where x == y: return p
        case (.known(true), .known(false)): return .sql(condition.test)
        case (.known(false), .known(true)): return .sql(condition.negated)
        case let (.known(true), .sql(y)): return .sql("(\(condition.test) OR \(y))")
        case let (.known(false), .sql(y)): return .sql("(\(condition.negated) AND \(y))")
        case let (.sql(x), .known(true)): return .sql("(\(condition.negated) OR \(x))")
        case let (.sql(x), .known(false)): return .sql("(\(condition.test) AND \(x))")
        case let (.sql(x), .sql(y)): return .sql("(CASE WHEN \(condition.test) THEN \(x) ELSE \(y) END)")
        default: return p  // (known, known) with x != y is handled above; unreachable
        }
    }

    private func sql(_ operand: Operand, _ params: inout [Value]) throws -> String {
        switch operand {
        case let .column(sql, _): return sql
        case let .constant(value): return try emitter.parameter(value, into: &params)
        }
    }

    /// An IN-set: one attribute as `IN (...)` of the keys of its class (plus `IS NULL` for
    /// a null key); several as an OR, per key, of null-safe equalities.
    private func inSet(_ attributes: [Attribute], _ keys: Set<Row>, _ params: inout [Value]) throws -> String {
        if keys.isEmpty { return dialect.falseLiteral }
        let columns = try attributes.map(column)
        if let bad = keys.first(where: { $0.count != columns.count }) {
            throw EngineError.usage("an IN-set key has \(bad.count) values for \(columns.count) attributes")
        }
        let sorted = keys.sorted()
        if columns.count == 1 {
            let (name, type) = columns[0]
            var pieces: [String] = []
            let same = sorted.map { $0.values[0] }.filter { !$0.isNull && type.rank != nil && ColumnType.of($0).rank == type.rank }
            if !same.isEmpty {
                let list = try same.map { try emitter.parameter($0, into: &params) }
                pieces.append("(\(name) IS NOT NULL AND \(name) IN (\(list.joined(separator: ", "))))")
            }
            if sorted.contains(where: { $0.values[0].isNull }) { pieces.append("\(name) IS NULL") }
            if pieces.isEmpty { return dialect.falseLiteral }
            return SQLNesting.anyOf(pieces)
        }
        var disjuncts: [String] = []
        for key in sorted {
            // Decided before binding anything, so no parameter is bound for a key left out.
            let possible = zip(columns, key.values).allSatisfy { column, value in
                value.isNull || (column.1.rank != nil && column.1.rank == ColumnType.of(value).rank)
            }
            if !possible { continue }
            var conjuncts: [String] = []
            for ((name, type), value) in zip(columns, key.values) {
                switch try compare(.column(name, type), .equal, .constant(value), &params) {
                case .known(true): continue
                case .known(false): conjuncts.append(dialect.falseLiteral)
                case let .sql(s): conjuncts.append(s)
                }
            }
            disjuncts.append(conjuncts.isEmpty ? dialect.trueLiteral : "(" + conjuncts.joined(separator: " AND ") + ")")
        }
        if disjuncts.isEmpty { return dialect.falseLiteral }
        return SQLNesting.anyOf(disjuncts)
    }
}
