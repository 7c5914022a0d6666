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
/// scheme order. Sources are `SQLiteTable`s of one database, or `MemoryTable` literals inlined
/// as `VALUES (?, ?), ...`. select → WHERE (see `SQLPredicate` for null-safe comparisons),
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
        let emitter = Emitter()
        let root = try emitter.name(of: relation)
        let columns = columnList(relation.scheme.count)
        let sql = "WITH " + emitter.expressions.joined(separator: ",\n") + "\nSELECT \(columns) FROM \(root)"
        return SQLTranslation(sql: sql, parameters: emitter.parameters, scheme: relation.scheme, database: emitter.database)
    }

    /// `c0, c1, ...` for a width (one dummy column for width 0).
    static func columnList(_ width: Int, prefix: String = "") -> String {
        (0..<max(width, 1)).map { "\(prefix)c\($0)" }.joined(separator: ", ")
    }

    private final class Emitter {
        var expressions: [String] = []
        var parameters: [Value] = []
        var names: [ObjectIdentifier: String] = [:]
        var database: SQLiteDatabase?

        /// The CTE name of `relation`, emitting it (after its operands) the first time.
        func name(of relation: Relation) throws -> String {
            let key = ObjectIdentifier(relation)
            if let known = names[key] { return known }
            var local: [Value] = []
            let body = try self.body(of: relation, &local)
            let name = "r\(expressions.count)"
            expressions.append("\(name)(\(columnList(relation.scheme.count))) AS (\(body))")
            parameters.append(contentsOf: local)
            names[key] = name
            return name
        }

        private func body(of relation: Relation, _ params: inout [Value]) throws -> String {
            let width = relation.scheme.count
            let all = columnList(width)
            switch relation.operation {
            case let .source(source):
                return try sourceBody(source, relation.scheme, &params)
            case let .union(a, b):
                return "SELECT \(all) FROM \(try name(of: a)) UNION SELECT \(all) FROM \(try name(of: b))"
            case let .intersection(a, b):
                return "SELECT \(all) FROM \(try name(of: a)) INTERSECT SELECT \(all) FROM \(try name(of: b))"
            case let .difference(a, b):
                return "SELECT \(all) FROM \(try name(of: a)) EXCEPT SELECT \(all) FROM \(try name(of: b))"
            case let .select(a, predicate):
                let input = try name(of: a)
                let condition = try SQLPredicate.translate(predicate, parameters: &params) { attribute in
                    "c\(try a.scheme.requireIndex(of: attribute, context: "select (\(predicate))"))"
                }
                return "SELECT \(all) FROM \(input) WHERE \(condition)"
            case let .project(a):
                let input = try name(of: a)
                let picks = try relation.scheme.attributes.map {
                    "c\(try a.scheme.requireIndex(of: $0, context: "project"))"
                }
                return "SELECT DISTINCT \(picks.isEmpty ? "0" : picks.joined(separator: ", ")) FROM \(input)"
            case let .rename(a, map):
                let input = try name(of: a)
                var oldName: [Attribute: Attribute] = [:]
                for (old, new) in map { oldName[new] = old }
                let picks = try relation.scheme.attributes.map {
                    "c\(try a.scheme.requireIndex(of: oldName[$0] ?? $0, context: "rename"))"
                }
                return "SELECT \(picks.isEmpty ? "0" : picks.joined(separator: ", ")) FROM \(input)"
            case let .join(a, b, pairs):
                let left = try name(of: a)
                let right = try name(of: b)
                let picks = try relation.scheme.attributes.map { attribute -> String in
                    if let i = a.scheme.index(of: attribute) { return "l.c\(i)" }
                    return "r.c\(try b.scheme.requireIndex(of: attribute, context: "join"))"
                }
                let conditions = try pairs.map { pair in
                    "l.c\(try a.scheme.requireIndex(of: pair.left, context: "join")) IS "
                        + "r.c\(try b.scheme.requireIndex(of: pair.right, context: "join"))"
                }
                let on = conditions.isEmpty ? "" : " ON " + conditions.joined(separator: " AND ")
                return "SELECT \(picks.isEmpty ? "0" : picks.joined(separator: ", ")) FROM \(left) AS l JOIN \(right) AS r\(on)"
            }
        }

        private func sourceBody(_ source: any SourceRelation, _ scheme: Scheme, _ params: inout [Value]) throws -> String {
            if let table = source as? SQLiteTable {
                if let database, database !== table.database {
                    throw SQLiteError(.translation,
                        "cannot translate to one SQL statement: table '\(table.sourceName)' is in '\(table.database.path)' "
                        + "but other tables are in '\(database.path)'")
                }
                database = table.database
                return "SELECT \(table.selectList) FROM \(table.quotedName)"
            }
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
