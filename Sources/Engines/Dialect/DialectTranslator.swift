import Relational

/// Translates a relation graph into ONE SQL statement in a typed dialect (DuckDB,
/// PostgreSQL), with the testbed's value semantics (see `SQLDialect`). The SQLite engine
/// keeps SQLite's own translator (`SQLTranslator`); this one follows its plan:
///
/// Every distinct node (by identity) becomes one common table expression `rN(c0, c1, ...)`
/// in scheme order; `EngineTable` sources are read by quoted name; memory tables are
/// inlined as `VALUES` of typed, bound parameters. select → WHERE (`DialectPredicate`),
/// project → SELECT DISTINCT, rename → column reordering, union/intersection/difference →
/// UNION/INTERSECT/EXCEPT, join → a join ON null-safe equalities (ON TRUE with no pairs),
/// closure → a recursive expression with UNION. A relation with no attributes is carried as
/// one dummy column holding 0.
///
/// Each node's columns are typed (`ColumnType`): from the engine's tables, from literal
/// values, and through the operators. A union, intersection or difference whose operands'
/// column types cannot share one column (text with numbers, say) is refused with a reason;
/// comparisons across classes are decided here from the types, never by the engine's casts.
public struct DialectTranslator {
    public let dialect: any SQLDialect
    /// The engine's label, for messages.
    public let engine: String

    public init(dialect: any SQLDialect, engine: String) {
        self.dialect = dialect
        self.engine = engine
    }

    public func translate(_ relation: Relation) throws -> SQLStatement {
        let emitter = Emitter(dialect: dialect, engine: engine)
        let root = try emitter.reference(relation)
        let select = "SELECT \(root.list()) FROM \(root.from)"
        let sql = emitter.expressions.isEmpty
            ? select
            : (emitter.recursive ? "WITH RECURSIVE " : "WITH ") + emitter.expressions.joined(separator: ",\n") + "\n" + select
        return SQLStatement(sql: sql, parameters: emitter.parameters, scheme: relation.scheme)
    }

    /// The column types of `relation`'s result, in scheme order (or why they cannot be held).
    public func columnTypes(of relation: Relation) throws -> [ColumnType] {
        try Emitter(dialect: dialect, engine: engine).types(of: relation)
    }
}

/// How a node is read: the FROM item, the SQL column and the type for each scheme position.
struct DialectReference {
    let from: String
    let columns: [String]
    let types: [ColumnType]

    func list(_ alias: String? = nil) -> String {
        if columns.isEmpty { return alias.map { "\($0).c0" } ?? "c0" }
        return columns.map { c in alias.map { "\($0).\(c)" } ?? c }.joined(separator: ", ")
    }

    func column(_ i: Int, _ alias: String? = nil) -> String {
        alias.map { "\($0).\(columns[i])" } ?? columns[i]
    }
}

final class Emitter {
    let dialect: any SQLDialect
    let engine: String
    var expressions: [String] = []
    var parameters: [Value] = []
    var references: [ObjectIdentifier: DialectReference] = [:]
    var typeMemo: [ObjectIdentifier: [ColumnType]] = [:]
    var inexactMemo: [ObjectIdentifier: [Bool]] = [:]
    var recursive = false

    init(dialect: any SQLDialect, engine: String) {
        self.dialect = dialect
        self.engine = engine
    }

    func refuse(_ text: String) -> EngineError { .unsupported(engine: engine, text) }

    /// A bound parameter for `value`, cast to its type so every dialect knows it.
    func parameter(_ value: Value, into params: inout [Value]) throws -> String {
        if case let .real(d) = value, d.isNaN {
            throw refuse("NaN cannot be bound: \(dialect.name) orders NaN above every number, the testbed below")
        }
        let type = ColumnType.of(value)
        params.append(value)
        let placeholder = dialect.parameter(parameters.count + params.count)
        guard let name = dialect.columnTypeName(type), !name.isEmpty else { return placeholder }
        return "CAST(\(placeholder) AS \(name))"
    }

    // MARK: Types

    func types(of relation: Relation) throws -> [ColumnType] {
        let key = ObjectIdentifier(relation)
        if let known = typeMemo[key] { return known }
        let out: [ColumnType]
        switch relation.definition {
        case let .source(source):
            if let table = source as? EngineTable {
                out = table.columnTypes
            } else if let memory = source as? MemoryTable {
                let rows = memory.allRows
                out = (0..<memory.scheme.count).map { i in ColumnType.of(rows.lazy.map { $0.values[i] }) }
            } else {
                throw refuse("cannot translate source '\(source.sourceName)' (\(type(of: source))) to \(dialect.name) SQL: "
                    + "only the engine's tables and memory-table literals are supported")
            }
        case let .apply(op, operands):
            out = try applyTypes(op, operands, relation.scheme)
        }
        for (attribute, type) in zip(relation.scheme.attributes, out) {
            if case .mixed = type { throw refuse(type.refusal(column: attribute.name, dialect: dialect.name)) }
        }
        typeMemo[key] = out
        return out
    }

    private func applyTypes(_ op: Operator, _ operands: [Relation], _ scheme: Scheme) throws -> [ColumnType] {
        let a = operands[0]
        switch op {
        case .union, .intersection, .difference:
            var merged = try types(of: a)
            var inexact = try inexactColumns(of: a)
            for operand in operands.dropFirst() {
                let types = try types(of: operand)
                let other = try inexactColumns(of: operand)
                for i in merged.indices {
                    try checkExact((merged[i], inexact[i]), (types[i], other[i]), "attribute '\(scheme.attributes[i].name)' of \(op.kind)")
                }
                merged = zip(merged, types).map { $0.merged(with: $1) }
                inexact = zip(inexact, other).map { $0 || $1 }
            }
            return merged
        case let .closure(from, to):
            let types = try types(of: a)
            let inexact = try inexactColumns(of: a)
            let f = try a.scheme.requireIndex(of: from, context: "closure")
            let t = try a.scheme.requireIndex(of: to, context: "closure")
            try checkExact((types[f], inexact[f]), (types[t], inexact[t]), "closure [\(from) -> \(to)]")
            return types
        case let .select(predicate):
            let types = try types(of: a)
            let inexact = try inexactColumns(of: a)
            for (l, r) in Self.attributePairs(predicate) {
                let i = try a.scheme.requireIndex(of: l, context: "select (\(predicate))")
                let j = try a.scheme.requireIndex(of: r, context: "select (\(predicate))")
                try checkExact((types[i], inexact[i]), (types[j], inexact[j]), "select (\(predicate)) comparing \(l) with \(r)")
            }
            return types
        case let .join(pairs):
            let left = try types(of: a), right = try types(of: operands[1])
            let leftInexact = try inexactColumns(of: a), rightInexact = try inexactColumns(of: operands[1])
            for pair in pairs {
                let i = try a.scheme.requireIndex(of: pair.left, context: "join")
                let j = try operands[1].scheme.requireIndex(of: pair.right, context: "join")
                try checkExact((left[i], leftInexact[i]), (right[j], rightInexact[j]), "join on \(pair.left) = \(pair.right)")
            }
            return try op.columnSources(of: operands.map(\.scheme), result: scheme).map { [left, right][$0.operand][$0.position] }
        case .project, .rename:
            let inputs = try operands.map { try types(of: $0) }
            return try op.columnSources(of: operands.map(\.scheme), result: scheme).map { inputs[$0.operand][$0.position] }
        }
    }

    /// Whether `value` is an integer a double cannot hold exactly (beyond 2^53).
    static func inexactAsReal(_ value: Value) -> Bool {
        if case let .integer(i) = value { return Double(exactly: i) == nil }
        return false
    }

    /// Per column of `relation`, whether it may hold an integer beyond 2^53: such a column
    /// cannot share a column with reals or be compared with a real column, as the engine
    /// would convert it to a double (`9007199254740993` would equal `9007199254740992.0`).
    func inexactColumns(of relation: Relation) throws -> [Bool] {
        let key = ObjectIdentifier(relation)
        if let known = inexactMemo[key] { return known }
        let out: [Bool]
        switch relation.definition {
        case let .source(source):
            if let table = source as? EngineTable {
                out = table.inexactAsReal
            } else if let memory = source as? MemoryTable {
                let rows = memory.allRows
                out = (0..<memory.scheme.count).map { i in rows.contains { Emitter.inexactAsReal($0.values[i]) } }
            } else {
                out = Array(repeating: false, count: relation.scheme.count)
            }
        case let .apply(op, operands):
            let inputs = try operands.map { try inexactColumns(of: $0) }
            switch op {
            case .union, .intersection, .difference:
                out = inputs.dropFirst().reduce(inputs[0]) { zip($0, $1).map { $0 || $1 } }
            case .select, .closure:
                out = inputs[0]
            case .project, .rename, .join:
                out = try op.columnSources(of: operands.map(\.scheme), result: relation.scheme).map { inputs[$0.operand][$0.position] }
            }
        }
        inexactMemo[key] = out
        return out
    }

    /// Refuses an integer column holding integers beyond 2^53 meeting a real column.
    private func checkExact(_ a: (ColumnType, Bool), _ b: (ColumnType, Bool), _ where_: @autoclosure () -> String) throws {
        func meets(_ i: (ColumnType, Bool), _ r: (ColumnType, Bool)) -> Bool { i.0 == .integer && i.1 && r.0 == .real }
        guard meets(a, b) || meets(b, a) else { return }
        throw refuse("\(where_()): an integer column holding integers beyond 2^53 meets a real column; "
            + "\(dialect.name) would compare them as doubles, which cannot hold those integers exactly")
    }

    /// The attribute pairs a predicate compares with each other.
    static func attributePairs(_ predicate: Predicate) -> [(Attribute, Attribute)] {
        switch predicate {
        case let .comparison(.attribute(l), _, .attribute(r)): return [(l, r)]
        case .comparison, .constant, .inSet: return []
        case let .and(parts), let .or(parts): return parts.flatMap(attributePairs)
        case let .not(inner): return attributePairs(inner)
        }
    }

    // MARK: Expressions

    func reference(_ relation: Relation) throws -> DialectReference {
        let key = ObjectIdentifier(relation)
        if let known = references[key] { return known }
        let types = try self.types(of: relation)
        if let table = relation.source as? EngineTable {
            let reference = DialectReference(
                from: dialect.quoteIdentifier(table.sourceName),
                columns: table.scheme.attributes.map { dialect.quoteIdentifier($0.name) }, types: types)
            references[key] = reference
            return reference
        }
        var local: [Value] = []
        let body = try self.body(of: relation, types, &local)
        let name = "r\(expressions.count)"
        expressions.append("\(name)(\(Emitter.columnList(relation.scheme.count))) AS (\(body))")
        parameters.append(contentsOf: local)
        let reference = DialectReference(from: name, columns: (0..<relation.scheme.count).map { "c\($0)" }, types: types)
        references[key] = reference
        return reference
    }

    static func columnList(_ width: Int) -> String {
        (0..<max(width, 1)).map { "c\($0)" }.joined(separator: ", ")
    }

    private func body(of relation: Relation, _ types: [ColumnType], _ params: inout [Value]) throws -> String {
        switch relation.definition {
        case let .source(source):
            guard let memory = source as? MemoryTable else {
                throw refuse("cannot translate source '\(source.sourceName)' to \(dialect.name) SQL")
            }
            return try literal(memory, types, &params)
        case let .apply(op, operands):
            return try apply(op, operands, relation.scheme, types, &params)
        }
    }

    private func apply(
        _ op: Operator, _ operands: [Relation], _ scheme: Scheme, _ types: [ColumnType], _ params: inout [Value]
    ) throws -> String {
        func picks(_ list: [String]) -> String { list.isEmpty ? "0" : list.joined(separator: ", ") }
        let a = operands[0]
        switch op {
        case .union:
            return try compound(operands, "UNION", types)
        case .intersection:
            return try compound(operands, "INTERSECT", types)
        case .difference:
            return try compound(operands, "EXCEPT", types)
        case let .select(predicate):
            let input = try reference(a)
            let translator = DialectPredicate(dialect: dialect, emitter: self) { attribute in
                let i = try a.scheme.requireIndex(of: attribute, context: "select (\(predicate))")
                return (input.column(i), input.types[i])
            }
            let condition = try translator.translate(predicate, &params)
            return "SELECT \(input.list()) FROM \(input.from) WHERE \(condition)"
        case .project, .rename:
            let input = try reference(a)
            let list = try op.columnSources(of: [a.scheme], result: scheme).map { input.column($0.position) }
            return "SELECT \(op.kind == .project ? "DISTINCT " : "")\(picks(list)) FROM \(input.from)"
        case let .join(pairs):
            let b = operands[1]
            let left = try reference(a)
            let right = try reference(b)
            let list = try op.columnSources(of: [a.scheme, b.scheme], result: scheme).map {
                $0.operand == 0 ? left.column($0.position, "l") : right.column($0.position, "r")
            }
            let translator = DialectPredicate(dialect: dialect, emitter: self) { _ in ("", .null) }
            let conditions = try pairs.map { pair -> String in
                let i = try a.scheme.requireIndex(of: pair.left, context: "join")
                let j = try b.scheme.requireIndex(of: pair.right, context: "join")
                return translator.equal((left.column(i, "l"), left.types[i]), (right.column(j, "r"), right.types[j]))
            }
            let on = conditions.isEmpty ? dialect.trueLiteral : conditions.joined(separator: " AND ")
            return "SELECT \(picks(list)) FROM \(left.from) AS l JOIN \(right.from) AS r ON \(on)"
        case let .closure(from, to):
            let input = try reference(a)
            let f = try a.scheme.requireIndex(of: from, context: "closure")
            let t = try a.scheme.requireIndex(of: to, context: "closure")
            let this = "r\(expressions.count)"
            recursive = true
            var step = ["", ""]
            step[f] = "p.c\(f)"
            step[t] = input.column(t, "e")
            let translator = DialectPredicate(dialect: dialect, emitter: self) { _ in ("", .null) }
            let on = translator.equal(("p.c\(t)", input.types[t]), (input.column(f, "e"), input.types[f]))
            return "SELECT \(input.list()) FROM \(input.from) UNION SELECT \(step.joined(separator: ", ")) "
                + "FROM \(this) AS p JOIN \(input.from) AS e ON \(on)"
        }
    }

    /// Each operand's columns are cast to the result's type where theirs differs (an
    /// integer column beside a real one): left to the engine, the type of a set operation
    /// inside a recursive expression came out as the first operand's in DuckDB 2.0, turning
    /// 2.25 into 2.
    private func compound(_ operands: [Relation], _ op: String, _ types: [ColumnType]) throws -> String {
        try operands.map { operand in
            let r = try reference(operand)
            guard !r.columns.isEmpty else { return "SELECT \(r.list()) FROM \(r.from)" }
            let list = r.columns.indices.map { i -> String in
                guard r.types[i] != types[i], types[i] != .null, let name = dialect.columnTypeName(types[i]), !name.isEmpty else {
                    return r.columns[i]
                }
                return "CAST(\(r.columns[i]) AS \(name))"
            }
            return "SELECT \(list.joined(separator: ", ")) FROM \(r.from)"
        }.joined(separator: " \(op) ")
    }

    /// A memory table as `VALUES` of typed parameters (typed NULLs where a column is all null).
    private func literal(_ memory: MemoryTable, _ types: [ColumnType], _ params: inout [Value]) throws -> String {
        let width = memory.scheme.count
        let rows = memory.allRows
        if rows.isEmpty {
            let nulls = width == 0 ? ["0"] : types.map { dialect.typedNull($0) }
            return "SELECT " + nulls.joined(separator: ", ") + " WHERE " + dialect.falseLiteral
        }
        if width == 0 { return "SELECT 0" }
        var tuples: [String] = []
        for row in rows {
            var items: [String] = []
            for (value, type) in zip(row.values, types) {
                if value.isNull {
                    items.append(dialect.typedNull(type))
                } else {
                    // A number column mixing integers and reals is held as reals.
                    let held: Value
                    if type == .real, case let .integer(i) = value {
                        guard let d = Double(exactly: i) else {
                            throw refuse("the integer \(i) shares a column with reals in a literal relation "
                                + "and cannot be held exactly as a \(dialect.name) DOUBLE")
                        }
                        held = .real(d)
                    } else {
                        held = value
                    }
                    items.append(try parameter(held, into: &params))
                }
            }
            tuples.append("(" + items.joined(separator: ", ") + ")")
        }
        return "SELECT * FROM (VALUES " + tuples.joined(separator: ", ") + ") AS v"
    }
}
