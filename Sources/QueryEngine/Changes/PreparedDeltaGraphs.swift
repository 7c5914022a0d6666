import Relational

/// The derivative graphs a `TransactionalDatabase` has prepared, so that a transaction of a
/// shape seen before pays engine runs, not planning, optimizer passes and kernel compilation
/// (in requery mode, the observed relations themselves, prepared as one query).
///
/// `derivation` makes a repeated shape derive the same relation objects, with delta-table
/// leaves rebound to the transaction's rows (see `DerivationCache`); a `PreparedQuery` is
/// kept per list of output relations, by identity. A prepared plan depends on the graph and
/// the flags, never on the delta tables' contents: the just-in-time runner estimates sources,
/// chooses initiators and builds filters at run time, and `refreshSourceCounts` gives it the
/// rebound tables' counts before each run, so a reused plan runs exactly as a fresh one would
/// (the tests compare counters). Everything here belongs to one database's observed relations
/// under its engine's flags, which are fixed for the database's life; `removeAll` when the
/// observations change.
final class PreparedDeltaGraphs {
    let derivation = DerivationCache()
    private var queries: [[ObjectIdentifier]: PreparedQuery] = [:]
    /// Queries prepared since the database was made (deterministic: one per new shape).
    private(set) var preparedCount = 0
    /// The observed relations no other observed one is built on (`TransactionalDatabase`).
    var topmost: Set<ObjectIdentifier>?

    /// Runs `outputs`, prepared on first sight; the run's timings include the preparation
    /// when it happened now.
    func run(_ outputs: [Relation], engine: QueryEngine) throws -> QueryRun {
        let key = outputs.map(ObjectIdentifier.init)
        if let prepared = queries[key] {
            prepared.refreshSourceCounts()
            return try prepared.run()
        }
        let prepared = try engine.prepare(outputs)
        queries[key] = prepared
        preparedCount += 1
        return try prepared.run(capture: false, timings: prepared.preparation)
    }

    func removeAll() {
        derivation.removeAll()
        queries = [:]
        topmost = nil
    }
}
