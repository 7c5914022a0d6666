import Relational

/// One SQL statement computing a relation, with its bound parameters.
public struct SQLTranslation {
    public let sql: String
    public let parameters: [Value]
    /// The relation's scheme: result columns come in this order.
    public let scheme: Scheme
    /// The database whose tables the statement reads (nil when it reads only literals).
    public let database: SQLiteDatabase?
}

/// Translates a relation graph into ONE SQL statement with set semantics.
///
/// Every distinct node (by identity, so a shared subexpression appears once) becomes one
/// common table expression `rN(c0, c1, ...)` whose columns are the node's attributes in
/// scheme order. Sources are `SQLiteTable`s of one database, read directly by name (so their
/// indexes serve lookups even when shared), or `MemoryTable` literals inlined as
/// `VALUES (?, ?), ...`. select → WHERE (see `SQLPredicate` for null-safe comparisons),
/// project → SELECT DISTINCT, rename → column reordering, union/intersect/minus →
/// UNION/INTERSECT/EXCEPT, join → a join ON `l.x IS r.y` (a cross join with no pairs).
///
/// Joins need no DISTINCT: operands are sets and an output row holds every left attribute
/// and every right attribute not merged with an equal left one, so it determines its pair.
/// Tables are assumed to be sets (true of tables this module writes; a foreign table with
/// duplicate rows would show them). A relation with no attributes is carried as one dummy
/// column holding 0: one row means {()}, none means {}.
public enum SQLTranslator {
    /// Literal tables larger than this many values are refused (SQLite's parameter limit).
    public static let literalValueLimit = 30_000

    public static func translate(_ relation: Relation) throws -> SQLTranslation {
        try checkExpansion(relation)
        let emitter = Emitter()
        let root = try emitter.reference(relation)
        let select = "SELECT \(root.list()) FROM \(root.from)"
        let sql = emitter.expressions.isEmpty
            ? select
            : (emitter.recursive ? "WITH RECURSIVE " : "WITH ") + emitter.expressions.joined(separator: ",\n") + "\n" + select
        return SQLTranslation(sql: sql, parameters: emitter.parameters, scheme: relation.scheme, database: emitter.database)
    }

    /// SQLite expands every use of a common table expression into a copy of its body, even
    /// when it then materializes it, so a node shared through k levels (`b2 = b1 join b1`,
    /// ...) costs 2^k table references when the statement is prepared: 14 levels took 0.4 s,
    /// each level doubling, and 16 exceed SQLite's 65,535 references to one table. Queries
    /// whose expansion would pass this many table references are refused up front.
    public static let expandedReferenceLimit = 4096

    /// Table references of the statement once SQLite has expanded every CTE use, counted with
    /// one visit per node (saturating at `Int.max`), or an error past the limit.
    public static func checkExpansion(_ root: Relation) throws {
        var size: [ObjectIdentifier: Int] = [:]
        // Post-order without recursion: operands before the node that uses them.
        var pending: [(relation: Relation, operandsDone: Bool)] = [(root, false)]
        while let (relation, operandsDone) = pending.popLast() {
            let key = ObjectIdentifier(relation)
            if size[key] != nil { continue }
            if relation.operands.isEmpty {
                size[key] = 1
            } else if operandsDone {
                size[key] = relation.operands.reduce(0) { total, operand in
                    let (sum, overflow) = total.addingReportingOverflow(size[ObjectIdentifier(operand)] ?? 1)
                    return overflow ? Int.max : sum
                }
            } else {
                pending.append((relation, true))
                for operand in relation.operands where size[ObjectIdentifier(operand)] == nil {
                    pending.append((operand, false))
                }
            }
        }
        let references = size[ObjectIdentifier(root)] ?? 1
        guard references <= expandedReferenceLimit else {
            throw SQLiteError(.translation,
                "cannot translate to one SQL statement: the query shares subexpressions so deeply that SQLite "
                + "would expand it to \(references == Int.max ? "more than \(Int.max)" : String(references)) table references "
                + "(limit \(expandedReferenceLimit)); SQLite copies a shared part into every place that uses it")
        }
    }

    /// `c0, c1, ...` for a width (one dummy column for width 0).
    static func columnList(_ width: Int, prefix: String = "") -> String {
        (0..<max(width, 1)).map { "\(prefix)c\($0)" }.joined(separator: ", ")
    }

    /// How a node is read: the FROM item and the SQL column for each scheme position.
    private struct Reference {
        let from: String
        let columns: [String]

        /// The select list of all columns, optionally qualified by an alias (dummy `0` for width 0).
        func list(_ alias: String? = nil) -> String {
            if columns.isEmpty { return alias.map { "\($0).c0" } ?? "c0" }
            return columns.map { c in alias.map { "\($0).\(c)" } ?? c }.joined(separator: ", ")
        }

        func column(_ i: Int, _ alias: String? = nil) -> String {
            alias.map { "\($0).\(columns[i])" } ?? columns[i]
        }
    }

    private final class Emitter {
        var expressions: [String] = []
        var parameters: [Value] = []
        var references: [ObjectIdentifier: Reference] = [:]
        var database: SQLiteDatabase?
        /// Whether some expression refers to itself (a closure), so the statement needs
        /// `WITH RECURSIVE`.
        var recursive = false

        /// The name of `relation`'s CTE (emitting it the first time) or, for an SQLite table,
        /// the table itself: reading the table directly keeps its indexes usable even when
        /// the node is shared (a shared CTE would be materialized by a full scan).
        func reference(_ relation: Relation) throws -> Reference {
            let key = ObjectIdentifier(relation)
            if let known = references[key] { return known }
            if let table = relation.source as? SQLiteTable {
                try adopt(table)
                let reference = Reference(from: table.quotedName, columns: table.scheme.attributes.map(\.quotedSQL))
                references[key] = reference
                return reference
            }
            var local: [Value] = []
            let body = try self.body(of: relation, &local)
            let name = "r\(expressions.count)"
            expressions.append("\(name)(\(columnList(relation.scheme.count))) AS (\(body))")
            parameters.append(contentsOf: local)
            let reference = Reference(from: name, columns: (0..<relation.scheme.count).map { "c\($0)" })
            references[key] = reference
            return reference
        }

        func name(of relation: Relation) throws -> String { try reference(relation).from }

        private func adopt(_ table: SQLiteTable) throws {
            if let database, database !== table.database {
                throw SQLiteError(.translation,
                    "cannot translate to one SQL statement: table '\(table.sourceName)' is in '\(table.database.path)' "
                    + "but other tables are in '\(database.path)'")
            }
            database = table.database
        }

        private func body(of relation: Relation, _ params: inout [Value]) throws -> String {
            switch relation.definition {
            case let .source(source):
                return try sourceBody(source, &params)
            case let .apply(op, operands):
                return try apply(op, operands, relation.scheme, &params)
            }
        }

        /// The SELECT computing one operator over its operands' references.
        private func apply(_ op: Operator, _ operands: [Relation], _ scheme: Scheme, _ params: inout [Value]) throws -> String {
            func picks(_ list: [String]) -> String { list.isEmpty ? "0" : list.joined(separator: ", ") }
            let a = operands[0]
            switch op {
            case .union:
                return try compound(operands, "UNION")
            case .intersection:
                return try compound(operands, "INTERSECT")
            case .difference:
                return try compound(operands, "EXCEPT")
            case let .select(predicate):
                let input = try reference(a)
                let condition = try SQLPredicate.translate(predicate, parameters: &params) { attribute in
                    input.column(try a.scheme.requireIndex(of: attribute, context: "select (\(predicate))"))
                }
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
                let conditions = try pairs.map { pair in
                    left.column(try a.scheme.requireIndex(of: pair.left, context: "join"), "l") + " IS "
                        + right.column(try b.scheme.requireIndex(of: pair.right, context: "join"), "r")
                }
                let on = conditions.isEmpty ? "" : " ON " + conditions.joined(separator: " AND ")
                return "SELECT \(picks(list)) FROM \(left.from) AS l JOIN \(right.from) AS r\(on)"
            case let .closure(from, to):
                return try closure(a, from, to)
            }
        }

        /// The closure as a recursive expression: the edges, UNION (a set, which is also what
        /// ends cycles) every known pair extended by one edge, matched with `IS` so null ends
        /// join like any value. The expression's own name is the next one `reference` hands
        /// out, since its operand has been emitted first.
        private func closure(_ edges: Relation, _ from: Attribute, _ to: Attribute) throws -> String {
            let input = try reference(edges)
            let f = try edges.scheme.requireIndex(of: from, context: "closure")
            let t = try edges.scheme.requireIndex(of: to, context: "closure")
            let this = "r\(expressions.count)"
            recursive = true
            var step = ["", ""]
            step[f] = "p.c\(f)"
            step[t] = input.column(t, "e")
            return "SELECT \(input.list()) FROM \(input.from) UNION SELECT \(step.joined(separator: ", ")) FROM \(this) AS p JOIN \(input.from) AS e ON p.c\(t) IS \(input.column(f, "e"))"
        }

        /// `SELECT ... FROM a UNION SELECT ... FROM b ...` over every operand.
        private func compound(_ operands: [Relation], _ op: String) throws -> String {
            try operands.map { operand in
                let r = try reference(operand)
                return "SELECT \(r.list()) FROM \(r.from)"
            }.joined(separator: " \(op) ")
        }

        private func sourceBody(_ source: any SourceRelation, _ params: inout [Value]) throws -> String {
            if let memory = source as? MemoryTable {
                return try literalBody(memory, &params)
            }
            throw SQLiteError(.translation,
                "cannot translate source '\(source.sourceName)' (\(type(of: source))) to SQL: "
                + "only SQLite tables and memory-table literals are supported")
        }

        private func literalBody(_ memory: MemoryTable, _ params: inout [Value]) throws -> String {
            let width = memory.scheme.count
            let rows = memory.allRows
            guard rows.count * max(width, 1) <= literalValueLimit else {
                throw SQLiteError(.translation,
                    "memory table '\(memory.sourceName)' has \(rows.count) rows × \(width) attributes, "
                    + "too many to inline as a SQL literal (limit \(literalValueLimit) values); store it in SQLite")
            }
            if rows.isEmpty {
                return "SELECT " + Array(repeating: "NULL", count: max(width, 1)).joined(separator: ", ") + " WHERE 0"
            }
            if width == 0 { return "SELECT 0" }
            let tuple = "(" + placeholders(width) + ")"
            for row in rows { params.append(contentsOf: row.values) }
            return "VALUES " + Array(repeating: tuple, count: rows.count).joined(separator: ", ")
        }
    }
}
