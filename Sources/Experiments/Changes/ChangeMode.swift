import QueryEngine
import Relational
import Workloads

/// How a change experiment keeps its observed outputs up to date: the `modes:` of a config.
/// Each mode makes a `ChangeDriver`; a new way (say, an ordered view maintained against
/// "regenerate, sort and diff") is one more case here and one driver file.
public enum ChangeMode: String, CaseIterable, Sendable {
    /// Derivative graphs run operator by operator (`TransactionalDatabase` mode `incremental`).
    case incremental
    /// The derivative rules as one graph (`incremental-single`).
    case incrementalSingle = "incremental-single"
    /// Every output re-run after each transaction and diffed with its last contents.
    case requery
    /// Counted state per operator, maintained by hash probes (`counted`).
    case counted
    /// Incremental propagation feeding ordered views (`changes: ordered-by:`).
    case ordered
    /// Every output re-run, sorted by `ordered-by` and diffed with its last sorted array.
    case regenerateSortDiff = "regenerate-sort-diff"

    public static let names = allCases.map(\.rawValue)

    /// Whether the mode keeps sorted arrays, and so needs `changes: ordered-by:`.
    public var needsOrdering: Bool { self == .ordered || self == .regenerateSortDiff }

    /// The driver that applies a stream's transactions in this mode, observing every output of
    /// `query` (already parsed against the tables the stream changes); `orderedBy` is the sort
    /// key of the ordered modes.
    func makeDriver(query: Query, engine: QueryEngine, orderedBy: [Attribute]) throws -> any ChangeDriver {
        switch self {
        case .incremental: return try DatabaseDriver(query: query, engine: engine, mode: .incremental)
        case .incrementalSingle: return try DatabaseDriver(query: query, engine: engine, mode: .incrementalSingle)
        case .requery: return try DatabaseDriver(query: query, engine: engine, mode: .requery)
        case .counted: return try DatabaseDriver(query: query, engine: engine, mode: .counted)
        case .ordered: return try OrderedViewDriver(query: query, engine: engine, orderedBy: orderedBy)
        case .regenerateSortDiff: return try RegenerateSortDiffDriver(query: query, engine: engine, orderedBy: orderedBy)
        }
    }
}

/// What one transaction cost and changed.
struct TransactionMeasurement {
    /// The propagation's time (the statements' own writes excluded).
    var microseconds: Double
    var counters: RunCounters
    /// Per output, its RowChange.
    var changes: [RowChange]
}

/// Applies a change stream's transactions one by one and reports each one's propagation.
protocol ChangeDriver {
    func apply(_ transaction: ChangeTransaction, of script: ChangeScript) throws -> TransactionMeasurement
}

/// The modes `TransactionalDatabase` implements.
struct DatabaseDriver: ChangeDriver {
    let database: TransactionalDatabase

    init(query: Query, engine: QueryEngine, mode: TransactionalDatabase.Mode) throws {
        database = TransactionalDatabase(engine: engine, mode: mode)
        for relation in query.relations { try database.observe(relation) { _ in } }
    }

    func apply(_ transaction: ChangeTransaction, of script: ChangeScript) throws -> TransactionMeasurement {
        let report = try script.apply(transaction, to: database)
        return TransactionMeasurement(microseconds: report.totalMicroseconds, counters: report.counters, changes: report.changes)
    }
}
