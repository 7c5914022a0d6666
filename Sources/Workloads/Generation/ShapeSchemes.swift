import Relational

extension Shape {
    /// The shape's tables as empty source relations: the names and schemes queries are
    /// parsed against, without generating a dataset of the size asked for (a config
    /// validator must not spend minutes or gigabytes on a 100-million-row size just to
    /// check query text). Every shape's tables and schemes are the same at every size and
    /// parameter setting, so the one-row dataset of the defaults gives them.
    public func emptyRelations() throws -> RelationCatalog {
        let sample = try generator(rows: 1, seed: 0, parameters: ShapeParameters()).generate()
        var relations: [String: Relation] = [:]
        for table in sample.tables {
            let empty = try MemoryTable(name: table.name, scheme: table.scheme, indexedAttributes: table.indexedAttributes)
            relations[table.name] = Relation(source: empty)
        }
        return RelationCatalog(relations)
    }
}
