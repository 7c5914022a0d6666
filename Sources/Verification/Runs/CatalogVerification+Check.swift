import Workloads

extension CatalogVerification {
    /// Refuses, before anything runs, what would make the verification fail part-way or
    /// pass on nothing: no queries, sizes or seeds; a query without a `# shape:` line (its
    /// dataset could not be generated); a query that does not parse against its shape's
    /// tables (the error names file:line:column); a size its shape refuses or that would
    /// not fit in memory.
    public func check() throws {
        guard !queries.isEmpty else { throw VerificationError.usage("no queries to verify") }
        guard !sizes.isEmpty, !seeds.isEmpty else { throw VerificationError.usage("no dataset sizes or seeds to verify on") }
        try QueryCatalog.check(queries)
        // Every size of every shape, and its load into each backend, before any dataset is
        // generated: a size that cannot fit must not run for minutes and exhaust memory first.
        for shape in Shape.allCases where queries.contains(where: { $0.shape == shape }) {
            for size in sizes {
                for parameters in parameterSets(shape) {
                    let fitted = CatalogVerification.fitted(parameters, rows: size)
                    try shape.validate(rows: size, parameters: fitted)
                    for backend in backends {
                        try shape.checkFitsInMemory(rows: size, parameters: fitted, use: .load(backend))
                    }
                }
            }
        }
    }
}
