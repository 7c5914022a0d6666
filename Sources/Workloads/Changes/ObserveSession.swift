import FileSupport
import QueryEngine
import Relational

/// `testbed observe`'s work: observe every output of a query, apply a change script one
/// transaction at a time, and print each output's RowChange with the propagation's
/// counters and time. With `verify`, after every transaction each change must be exact and
/// the state before plus the change must equal the reference evaluator's full requery.
public struct ObserveSession {
    public let query: Query
    public let script: ChangeScript
    public let database: TransactionalDatabase
    public let verify: Bool
    /// With `--ordered-by`, each output is also kept as a sorted array and its changes are
    /// printed as index changes (GlueKit's ordered views).
    public let orderedBy: [Attribute]
    private let engine: QueryEngine

    public init(
        query: Query, script: ChangeScript, engine: QueryEngine, mode: TransactionalDatabase.Mode, verify: Bool,
        orderedBy: [Attribute] = []
    ) throws {
        self.query = query
        self.script = script
        self.database = TransactionalDatabase(engine: engine, mode: mode)
        self.verify = verify
        self.orderedBy = orderedBy
        self.engine = engine
        for relation in query.relations {
            if !orderedBy.isEmpty { _ = try RowOrdering(orderedBy, in: relation.scheme) }
            try database.observe(relation) { _ in }
        }
    }

    /// The outputs' ordered views over their contents before the first transaction.
    private func initialViews() throws -> [OrderedView] {
        guard !orderedBy.isEmpty else { return [] }
        let run = try engine.run(query.relations)
        return try zip(query.relations, run.results).map {
            try OrderedView(scheme: $0.scheme, orderedBy: orderedBy, rows: $1)
        }
    }

    /// Runs every transaction, handing each transaction's text to `emit`. Returns the
    /// verification problems (always empty without `verify`). A refused statement throws
    /// its `QueryError` (file:line:column of the statement) after rolling back.
    public func run(_ emit: (String) -> Void) throws -> [String] {
        let names = query.outputNames
        var states = verify ? try query.relations.map { Set(try ReferenceEvaluator.evaluate($0)) } : []
        var views = try initialViews()
        var problems: [String] = []
        for (number, transaction) in script.transactions.enumerated() {
            let report = try script.apply(transaction, to: database)
            var out = "== transaction \(number + 1) (\(Printable.escaped(script.file)):\(transaction.position.line)): "
                + "\(transaction.statements.count) statement\(transaction.statements.count == 1 ? "" : "s"), "
                + "\(report.sourceRowsChanged) source row change\(report.sourceRowsChanged == 1 ? "" : "s")\n"
            for (i, relation) in query.relations.enumerated() {
                out += "-- \(names[i])\n" + report.changes[i].rendered(scheme: relation.scheme) + "\n"
                if !views.isEmpty {
                    let before = verify ? views[i].rows : []
                    let indexed = try views[i].apply(report.changes[i])
                    out += "-- \(names[i]) ordered by \(orderedBy.map(\.name).joined(separator: ", ")) "
                        + "(\(views[i].count) rows)\n" + indexed.rendered(scheme: relation.scheme) + "\n"
                    if verify, indexed.applied(to: before) != views[i].rows {
                        problems.append("transaction \(number + 1), output \(names[i]): the index changes "
                            + "applied to the old array do not give the new sorted array")
                    }
                }
            }
            let c = report.counters
            out += "counters: source_rows_read \(c.sourceRowsRead), nodes_planned \(c.nodesPlanned), "
                + "filtered_fetches \(c.filteredFetches), join_filters_built \(c.joinFiltersBuilt), "
                + "subtrees_copied \(c.subtreesCopied)\n"
            let t = report.timings
            out += "time (µs): propagation \(Int(report.totalMicroseconds)) (\(report.mode.rawValue), "
                + "\(report.engineRuns) engine run\(report.engineRuns == 1 ? "" : "s"); plan "
                + "\(Int(t.planMicroseconds)), optimize \(Int(t.optimizeMicroseconds)), run \(Int(t.runMicroseconds)))\n"
            if verify {
                for (i, relation) in query.relations.enumerated() {
                    let change = report.changes[i]
                    for v in change.violations(before: states[i]) {
                        problems.append("transaction \(number + 1), output \(names[i]): \(v)")
                    }
                    let expected = Set(try ReferenceEvaluator.evaluate(relation))
                    let got = change.applied(to: states[i])
                    if got != expected {
                        problems.append("transaction \(number + 1), output \(names[i]): before + change has "
                            + "\(got.count) rows, a full requery \(expected.count) "
                            + "(\(got.subtracting(expected).count) extra, \(expected.subtracting(got).count) missing)")
                    }
                    states[i] = expected
                }
                out += problems.isEmpty ? "verified: every change is exact and equals a full requery\n" : ""
            }
            emit(out)
            if !problems.isEmpty { return problems }
        }
        return problems
    }
}
