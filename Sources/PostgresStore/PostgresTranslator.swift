import PostgresClient
import Relational

/// One PostgreSQL statement computing a relation, with its bound parameters.
public struct PostgresTranslation: Sendable {
    public let sql: String
    public let parameters: [Value]
    /// Result columns come in this scheme's order.
    public let scheme: Scheme
}

/// Translates a relation graph into ONE PostgreSQL statement with set semantics, keeping the
/// testbed's value semantics (see `ColumnKind` and `PostgresPredicate`).
///
/// As for SQLite, every distinct node becomes one common table expression `rN(c0, ...)`,
/// tables are read by name (so their indexes serve), and memory-table literals are inlined
/// as `VALUES` of bound parameters. select → WHERE, project → SELECT DISTINCT, rename →
/// column order, union/intersect/minus → UNION/INTERSECT/EXCEPT (columns of a class that
/// widens, integers to reals or a null-only column to its partner's type, are cast), join →
/// JOIN ON, closure → WITH RECURSIVE ... UNION. Joins compare null-safely: `l.a = r.b` when
/// one side cannot be null, else `COALESCE(l.a, 0) = COALESCE(r.b, 0) AND (l.a IS NULL) =
/// (r.b IS NULL)`, which (unlike `IS NOT DISTINCT FROM`) PostgreSQL can hash or merge.
/// Relations whose columns would mix classes PostgreSQL cannot hold in one column (text
/// and numbers, say) are refused with the attribute and the classes named.
public enum PostgresTranslator {
    public static func translate(_ relation: Relation) throws -> PostgresTranslation {
        let emitter = Emitter()
        let root = try emitter.reference(relation)
        let select = "SELECT \(root.list()) FROM \(root.from)"
        let sql = emitter.expressions.isEmpty
            ? select
            : (emitter.recursive ? "WITH RECURSIVE " : "WITH ") + emitter.expressions.joined(separator: ",\n") + "\n" + select
        return PostgresTranslation(sql: sql, parameters: emitter.parameters, scheme: relation.scheme)
    }

    /// The kind of every attribute of `relation`, in scheme order, or the reason it has none.
    public static func kinds(of relation: Relation) throws -> [ColumnKind] {
        try Emitter().reference(relation).kinds
    }

    private struct Reference {
        let from: String
        let columns: [String]
        let kinds: [ColumnKind]

        func list(_ alias: String? = nil) -> String {
            if columns.isEmpty { return "0" }
            return columns.indices.map { column($0, alias) }.joined(separator: ", ")
        }

        func column(_ i: Int, _ alias: String? = nil) -> String {
            alias.map { "\($0).\(columns[i])" } ?? columns[i]
        }

        /// Column `i` as `kind`'s type (a cast when its own type differs).
        func column(_ i: Int, as kind: ColumnKind, _ alias: String? = nil) -> String {
            let plain = column(i, alias)
            if kinds[i].postgresType == kind.postgresType { return plain }
            // A column of nulls only (carried as bigint) has nothing to convert.
            if kinds[i].type == .nullOnly { return "NULL::\(kind.postgresType.sqlName)" }
            return "CAST(\(plain) AS \(kind.postgresType.sqlName))"
        }
    }

    private final class Emitter {
        var expressions: [String] = []
        var parameters: [Value] = []
        var references: [ObjectIdentifier: Reference] = [:]
        var recursive = false

        func reference(_ relation: Relation) throws -> Reference {
            let key = ObjectIdentifier(relation)
            if let known = references[key] { return known }
            if let table = relation.source as? PostgresTable {
                let reference = Reference(
                    from: PostgresSQL.quoteIdentifier(table.sourceName),
                    columns: table.scheme.attributes.map { PostgresSQL.quoteIdentifier($0.name) }, kinds: table.kinds)
                references[key] = reference
                return reference
            }
            // Operands are emitted while the body is built, so the name is taken after (a
            // closure's body, which names itself, takes the same one).
            let (body, kinds) = try self.body(of: relation)
            let name = "r\(expressions.count)"
            expressions.append("\(name)(\(Self.columnList(relation.scheme.count))) AS (\(body))")
            let reference = Reference(from: name, columns: (0..<relation.scheme.count).map { "c\($0)" }, kinds: kinds)
            references[key] = reference
            return reference
        }

        static func columnList(_ width: Int) -> String {
            (0..<max(width, 1)).map { "c\($0)" }.joined(separator: ", ")
        }

        /// The body's SQL and its columns' kinds. Parameters are numbered (`$n`) as they are
        /// bound, so their order in the text does not matter.
        private func body(of relation: Relation) throws -> (String, [ColumnKind]) {
            switch relation.definition {
            case let .source(source):
                guard let memory = source as? MemoryTable else {
                    throw PostgresError(.usage,
                        "cannot translate source '\(source.sourceName)' (\(type(of: source))) to PostgreSQL: "
                        + "only tables loaded into PostgreSQL and memory-table literals are supported")
                }
                return try literal(memory)
            case let .apply(op, operands):
                return try apply(op, operands, relation.scheme)
            }
        }

        private func apply(_ op: Operator, _ operands: [Relation], _ scheme: Scheme) throws -> (String, [ColumnKind]) {
            func picks(_ list: [String]) -> String { list.isEmpty ? "0" : list.joined(separator: ", ") }
            let a = operands[0]
            switch op {
            case .union:
                return try compound(operands, "UNION", scheme)
            case .intersection:
                return try compound(operands, "INTERSECT", scheme)
            case .difference:
                return try compound(operands, "EXCEPT", scheme)
            case let .select(predicate):
                let input = try reference(a)
                let condition = try PostgresPredicate.translate(predicate, parameters: &parameters) { attribute in
                    let i = try a.scheme.requireIndex(of: attribute, context: "select (\(predicate))")
                    return PostgresPredicate.Operand(sql: input.column(i), kind: input.kinds[i])
                }
                return ("SELECT \(input.list()) FROM \(input.from) WHERE \(condition)", input.kinds)
            case .project, .rename:
                let input = try reference(a)
                let positions = try op.columnSources(of: [a.scheme], result: scheme).map(\.position)
                return ("SELECT \(op.kind == .project ? "DISTINCT " : "")\(picks(positions.map { input.column($0) })) FROM \(input.from)",
                        positions.map { input.kinds[$0] })
            case let .join(pairs):
                let b = operands[1]
                let sides = [(try reference(a), "l"), (try reference(b), "r")]
                let (left, right) = (sides[0].0, sides[1].0)
                let sources = try op.columnSources(of: [a.scheme, b.scheme], result: scheme)
                let list = sources.map { sides[$0.operand].0.column($0.position, sides[$0.operand].1) }
                let kinds = sources.map { sides[$0.operand].0.kinds[$0.position] }
                let conditions = try pairs.map { pair in
                    let i = try a.scheme.requireIndex(of: pair.left, context: "join")
                    let j = try b.scheme.requireIndex(of: pair.right, context: "join")
                    if let reason = ColumnKind.inexactMeeting(left.kinds[i], right.kinds[j]) {
                        throw inexact("join on \(pair.left) = \(pair.right)", reason)
                    }
                    return Self.equal(left.column(i, "l"), left.kinds[i], right.column(j, "r"), right.kinds[j])
                }
                let on = conditions.isEmpty ? " ON TRUE" : " ON " + conditions.joined(separator: " AND ")
                return ("SELECT \(picks(list)) FROM \(left.from) AS l JOIN \(right.from) AS r\(on)", kinds)
            case let .closure(from, to):
                return try closure(a, from, to)
            }
        }

        /// Null-safe equality of two columns that PostgreSQL can still hash or merge on.
        static func equal(_ a: String, _ ka: ColumnKind, _ b: String, _ kb: ColumnKind) -> String {
            guard ka.type.comparable(with: kb.type) else {
                // Across classes (or against a column of nulls) only null equals null.
                return ka.nullable && kb.nullable ? "(\(a) IS NULL AND \(b) IS NULL)" : "FALSE"
            }
            if !ka.nullable || !kb.nullable { return "\(a) = \(b)" }
            let sentinel: String
            switch ka.type {
            case .integer, .real, .nullOnly: sentinel = "0"
            case .text: sentinel = "''"
            case .blob: sentinel = "'\\x'::bytea"
            }
            return "COALESCE(\(a), \(sentinel)) = COALESCE(\(b), \(sentinel)) AND (\(a) IS NULL) = (\(b) IS NULL)"
        }

        /// The closure as a recursive expression: the edges, UNION every known pair extended
        /// by one edge (a set, which also ends cycles). Its own name is the next one
        /// `reference` hands out, since the operand has been emitted already.
        private func closure(_ edges: Relation, _ from: Attribute, _ to: Attribute) throws -> (String, [ColumnKind]) {
            let input = try reference(edges)
            let f = try edges.scheme.requireIndex(of: from, context: "closure")
            let t = try edges.scheme.requireIndex(of: to, context: "closure")
            let this = "r\(expressions.count)"
            recursive = true
            // Both ends hold values of both columns: they must be of one class.
            guard let merged = ColumnKind.merge(input.kinds[f], input.kinds[t]) else {
                throw mixed(from.name, input.kinds[f].type, input.kinds[t].type, "closure [\(from) -> \(to)]")
            }
            if let reason = ColumnKind.inexactMeeting(input.kinds[f], input.kinds[t]) {
                throw inexact("closure [\(from) -> \(to)]", reason)
            }
            var kinds = input.kinds
            kinds[f] = merged
            kinds[t] = merged
            var base = ["", ""]
            base[f] = input.column(f, as: merged)
            base[t] = input.column(t, as: merged)
            var step = ["", ""]
            step[f] = "p.c\(f)"
            step[t] = input.column(t, as: merged, "e")
            let on = Self.equal("p.c\(t)", merged, input.column(f, as: merged, "e"), merged)
            return ("SELECT \(base.joined(separator: ", ")) FROM \(input.from) UNION "
                    + "SELECT \(step.joined(separator: ", ")) FROM \(this) AS p JOIN \(input.from) AS e ON \(on)", kinds)
        }

        /// `SELECT ... FROM a UNION SELECT ... FROM b ...`, columns cast to the merged kinds.
        private func compound(_ operands: [Relation], _ op: String, _ scheme: Scheme) throws -> (String, [ColumnKind]) {
            let inputs = try operands.map { try reference($0) }
            var kinds = inputs[0].kinds
            for input in inputs.dropFirst() {
                for i in kinds.indices {
                    guard let merged = ColumnKind.merge(kinds[i], input.kinds[i]) else {
                        throw mixed(scheme.attributes[i].name, kinds[i].type, input.kinds[i].type, op.lowercased())
                    }
                    if let reason = ColumnKind.inexactMeeting(kinds[i], input.kinds[i]) {
                        throw inexact("attribute '\(scheme.attributes[i].name)' of \(op.lowercased())", reason)
                    }
                    kinds[i] = merged
                }
            }
            if op == "INTERSECT" {
                // A row in every operand: null only where every operand may hold it.
                for i in kinds.indices { kinds[i].nullable = inputs.allSatisfy { $0.kinds[i].nullable } }
            } else if op == "EXCEPT" {
                for i in kinds.indices { kinds[i].nullable = inputs[0].kinds[i].nullable || kinds[i].type == .nullOnly }
            }
            let sql = inputs.map { input in
                let list = input.columns.isEmpty ? "0" : input.columns.indices.map { input.column($0, as: kinds[$0]) }.joined(separator: ", ")
                return "SELECT \(list) FROM \(input.from)"
            }.joined(separator: " \(op) ")
            return (sql, kinds)
        }

        private func inexact(_ where_: String, _ reason: String) -> PostgresError {
            PostgresError(.unsupportedValue, "cannot translate to PostgreSQL: \(where_): \(reason)")
        }

        private func mixed(_ attribute: String, _ a: ColumnKind.Class, _ b: ColumnKind.Class, _ where_: String) -> PostgresError {
            PostgresError(.unsupportedValue,
                "cannot translate to PostgreSQL: attribute '\(attribute)' of \(where_) would hold both \(a.name) and \(b.name) "
                + "values; a PostgreSQL column has one type, and the testbed's order across types cannot be kept in it")
        }

        /// A literal: `VALUES ($1, $2), ...` with every column of one class (cast explicitly,
        /// so that nulls and the first row do not decide the types).
        private func literal(_ memory: MemoryTable) throws -> (String, [ColumnKind]) {
            let width = memory.scheme.count
            let rows = memory.allRows
            var kinds: [ColumnKind] = []
            for i in 0..<width {
                switch ColumnKind.of(rows.lazy.map { $0.values[i] }) {
                case let .success(kind): kinds.append(kind)
                case let .failure(mixed):
                    throw self.mixed(memory.scheme.attributes[i].name, mixed.first, mixed.second, "literal '\(memory.sourceName)'")
                }
            }
            if rows.isEmpty {
                let nulls = kinds.isEmpty ? "0" : kinds.map { "NULL::\($0.postgresType.sqlName)" }.joined(separator: ", ")
                return ("SELECT \(nulls) WHERE FALSE", kinds)
            }
            if width == 0 { return ("SELECT 0", kinds) }
            var tuples: [String] = []
            tuples.reserveCapacity(rows.count)
            for row in rows {
                var cells: [String] = []
                for (value, kind) in zip(row.values, kinds) {
                    if value.isNull {
                        cells.append("NULL::\(kind.postgresType.sqlName)")
                    } else {
                        // Integers in a real column are bound as reals (exactly, or refused).
                        parameters.append(try Self.converted(value, to: kind.type))
                        cells.append("$\(parameters.count)::\(kind.postgresType.sqlName)")
                    }
                }
                tuples.append("(" + cells.joined(separator: ", ") + ")")
            }
            return ("VALUES " + tuples.joined(separator: ", "), kinds)
        }

        static func converted(_ value: Value, to type: ColumnKind.Class) throws -> Value {
            if type == .real, case let .integer(i) = value {
                guard let d = Double(exactly: i) else {
                    throw PostgresError(.unsupportedValue,
                        "the integer \(i) shares a column with reals and cannot be held exactly as a PostgreSQL double")
                }
                return .real(d)
            }
            return value
        }
    }
}
