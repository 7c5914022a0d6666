import Relational

/// The relations a query may name: one shared `Relation` per table, so a table named twice
/// in a query is one node of the graph.
public struct RelationCatalog {
    public private(set) var relations: [String: Relation]

    public init(_ relations: [String: Relation] = [:]) { self.relations = relations }

    /// Wraps sources (memory tables, SQLite tables) by their names.
    public init(sources: [any SourceRelation]) {
        var relations: [String: Relation] = [:]
        for s in sources { relations[s.sourceName] = Relation(source: s) }
        self.relations = relations
    }

    public subscript(name: String) -> Relation? { relations[name] }

    public var names: [String] { relations.keys.sorted() }

    public mutating func add(_ relation: Relation, as name: String) { relations[name] = relation }

    /// The catalog name of `relation` if it is one of the catalog's own objects.
    public func name(of relation: Relation) -> String? {
        for (name, r) in relations where r === relation { return name }
        return nil
    }
}
