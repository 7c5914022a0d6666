import PostgresClient
import Relational

/// A table loaded into PostgreSQL, as a source relation: the translator reads it by name,
/// and the testbed's own engine can fetch from it (a SELECT with the filter as WHERE).
public final class PostgresTable: SourceRelation {
    public let sourceName: String
    public let scheme: Scheme
    /// Each attribute's class and nullability, in scheme order, found when the rows were loaded.
    public let kinds: [ColumnKind]
    /// Attributes with an index of their own (or leading the primary key).
    public let indexedAttributes: [Attribute]
    public let rowCount: Int
    unowned let database: PostgresDatabase

    init(database: PostgresDatabase, name: String, scheme: Scheme, kinds: [ColumnKind], indexedAttributes: [Attribute], rowCount: Int) {
        self.database = database
        self.sourceName = name
        self.scheme = scheme
        self.kinds = kinds
        self.indexedAttributes = indexedAttributes
        self.rowCount = rowCount
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        var parameters: [Value] = []
        let columns = scheme.attributes.map { PostgresSQL.quoteIdentifier($0.name) }
        var sql = "SELECT \(columns.joined(separator: ", ")) FROM \(PostgresSQL.quoteIdentifier(sourceName))"
        if let filter {
            sql += " WHERE " + (try PostgresPredicate.translate(filter, parameters: &parameters) { attribute in
                let i = try scheme.requireIndex(of: attribute, context: "filter on \(sourceName)")
                return PostgresPredicate.Operand(sql: columns[i], kind: kinds[i])
            })
        }
        return ArrayCursor(try database.connection.execute(sql, parameters).rows)
    }

    /// Filters naming an indexed attribute can be answered through its index.
    public func canFetchSelectively(_ filter: Predicate) -> Bool {
        !Set(indexedAttributes).isDisjoint(with: filter.attributes)
    }

    public func estimatedCount(filter: Predicate?) -> Int? {
        filter == nil ? rowCount : nil
    }
}
