import QueryEngine
import Relational
import Workloads

/// Mode `ordered`: the outputs kept as sorted arrays (GlueKit's ordered views), each
/// transaction's RowChanges from incremental propagation turned into index changes. Its
/// time is the propagation plus the views' maintenance.
final class OrderedViewDriver: ChangeDriver {
    private let database: TransactionalDatabase
    private var views: [OrderedView]

    init(query: Query, engine: QueryEngine, orderedBy: [Attribute]) throws {
        database = TransactionalDatabase(engine: engine, mode: .incremental)
        for relation in query.relations { try database.observe(relation) { _ in } }
        let initial = try engine.run(query.relations).results
        views = try zip(query.relations, initial).map { try OrderedView(scheme: $0.scheme, orderedBy: orderedBy, rows: $1) }
    }

    func apply(_ transaction: ChangeTransaction, of script: ChangeScript) throws -> TransactionMeasurement {
        let report = try script.apply(transaction, to: database)
        let clock = ContinuousClock()
        let start = clock.now
        for (i, change) in report.changes.enumerated() { _ = try views[i].apply(change) }
        let maintenance = (clock.now - start).microseconds
        return TransactionMeasurement(
            microseconds: report.totalMicroseconds + maintenance, counters: report.counters, changes: report.changes)
    }
}

/// Mode `regenerate-sort-diff`: what an ordered view is compared with (the GlueKit talk's
/// `generateItems` + `calculateDifference`): after each transaction every output is run
/// again, sorted, and diffed with its previous sorted array. Its time is the run plus the
/// sort and diff; its RowChanges are read off the diff.
final class RegenerateSortDiffDriver: ChangeDriver {
    private let database: TransactionalDatabase
    private let query: Query
    private let engine: QueryEngine
    private let orderings: [RowOrdering]
    private var arrays: [[Row]]

    init(query: Query, engine: QueryEngine, orderedBy: [Attribute]) throws {
        // No observers: the transaction only writes the sources; the outputs are regenerated.
        database = TransactionalDatabase(engine: engine, mode: .requery)
        self.query = query
        self.engine = engine
        orderings = try query.relations.map { try RowOrdering(orderedBy, in: $0.scheme) }
        let initial = try engine.run(query.relations).results
        arrays = zip(orderings, initial).map { ordering, rows in rows.sorted(by: ordering.less) }
    }

    func apply(_ transaction: ChangeTransaction, of script: ChangeScript) throws -> TransactionMeasurement {
        _ = try script.apply(transaction, to: database)
        let clock = ContinuousClock()
        let start = clock.now
        let run = try engine.run(query.relations)
        var changes: [RowChange] = []
        for i in arrays.indices {
            let (rows, indexed) = RegenerateAndDiff.diff(old: arrays[i], newContents: run.results[i], ordering: orderings[i])
            arrays[i] = rows
            changes.append(RowChange(
                added: Set(indexed.insertions.map(\.row) + indexed.moves.map(\.new)),
                removed: Set(indexed.removals.map(\.row) + indexed.moves.map(\.old))))
        }
        return TransactionMeasurement(
            microseconds: (clock.now - start).microseconds, counters: run.counters, changes: changes)
    }
}
