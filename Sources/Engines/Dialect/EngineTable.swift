import Relational

/// A table loaded into an engine, as a query source: its name, scheme and column types.
/// Queries for an engine are parsed against these; the translator reads them by name. The
/// testbed never reads rows from one (the engine does).
public final class EngineTable: SourceRelation {
    public let scheme: Scheme
    public let sourceName: String
    /// One type per attribute, in scheme order.
    public let columnTypes: [ColumnType]
    public let rowCount: Int
    /// The engine's label, for messages.
    public let engine: String
    /// Per attribute, whether the column holds an integer beyond 2^53, which a double cannot
    /// hold exactly (see `Emitter.inexactAsReal`).
    public let inexactAsReal: [Bool]

    public init(name: String, scheme: Scheme, columnTypes: [ColumnType], rowCount: Int, engine: String, inexactAsReal: [Bool]? = nil) {
        self.sourceName = name
        self.scheme = scheme
        self.columnTypes = columnTypes
        self.inexactAsReal = inexactAsReal ?? Array(repeating: false, count: scheme.count)
        self.rowCount = rowCount
        self.engine = engine
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        throw RelationError.unsupported(
            "table '\(sourceName)' lives in engine \(engine); run the query there (the testbed does not read it)")
    }

    public func canFetchSelectively(_ filter: Predicate) -> Bool { false }

    public func estimatedCount(filter: Predicate?) -> Int? { rowCount }
}
