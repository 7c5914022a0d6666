import Workloads

extension CatalogVerification {
    /// Refuses, before anything runs, what would make the verification fail part-way or
    /// pass on nothing: no queries, sizes or seeds; a query without a `# shape:` line (its
    /// dataset could not be generated); a size its shape refuses; a query that does not
    /// parse against its shape's tables (the error names file:line:column).
    public func check() throws {
        guard !queries.isEmpty else { throw VerificationError.usage("no queries to verify") }
        guard !sizes.isEmpty, !seeds.isEmpty else { throw VerificationError.usage("no dataset sizes or seeds to verify on") }
        var probes: [Shape: RelationCatalog] = [:]
        for query in queries {
            guard let shape = query.shape else {
                throw QueryError(file: query.path, position: SourcePosition(line: 1, column: 1),
                                 message: "no `# shape:` line; verify needs one to generate the query's dataset")
            }
            if probes[shape] == nil {
                for size in sizes {
                    for parameters in parameterSets(shape) {
                        try shape.validate(rows: size, parameters: CatalogVerification.fitted(parameters, rows: size))
                    }
                }
                // One row has every table and column of the shape, which is all parsing needs.
                probes[shape] = try shape.generate(rows: 1, seed: seeds[0]).memoryRelations()
            }
            if let relations = probes[shape] { _ = try query.parse(catalog: relations) }
        }
    }
}
