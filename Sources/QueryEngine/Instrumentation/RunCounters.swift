/// Deterministic counts from one query run: the same graph, data and flags always give the
/// same numbers, so tests assert on them instead of on time.
public struct RunCounters: Sendable, Equatable {
    /// Rows delivered by all source nodes (copies included).
    public var sourceRowsRead = 0
    /// Filters handed from a parent to a child (each edge at most once).
    public var filtersProvided = 0
    /// Second filters given along an edge that already had one, narrowing it (not a CSV column).
    public var filtersNarrowed = 0
    /// Nodes whose every parent provided a filter, so the OR of them took effect.
    public var filtersActivated = 0
    /// Source cursors opened with an active filter.
    public var filteredFetches = 0
    /// Joins that turned a complete small operand into a filter on the other.
    public var joinFiltersBuilt = 0
    public var subtreesCopied = 0
    /// Nodes added by copying; never more than `growthBudget`.
    public var nodesCopied = 0
    /// The run's graph-growth budget: the most nodes copying could add (not a CSV column).
    public var growthBudget = 0
    /// Copies refused because they did not fit in what was left of the budget (not a CSV column).
    public var copiesRefused = 0
    /// Copies refused because a node of the subtree had started or completed (not a CSV column).
    public var startedCopiesRefused = 0
    /// Distinct (source, filter) estimates asked of sources (cached for the run; not a CSV column).
    public var estimatesAsked = 0
    public var nodesPlanned = 0
    public var nodesAfterOptimization = 0
    /// Node names (or labels) of initiators in the order they were drained.
    public var initiatorOrder: [String] = []
    /// Rows fetched in each round of an on-demand operand (a seeded closure's frontier
    /// fetches), in order (not a CSV column).
    public var onDemandRoundRows: [Int] = []
    public var perNode: [NodeCounters] = []
    /// Rows delivered per source object (copies of a source count under it; not a CSV
    /// column), so a caller can tell its own small tables from the big ones.
    public var rowsReadBySource: [ObjectIdentifier: Int] = [:]

    public init() {}

    /// The scalar counters as CSV columns, in a fixed order.
    public var columns: [(name: String, value: Int)] {
        [
            ("source_rows_read", sourceRowsRead),
            ("filters_provided", filtersProvided),
            ("filters_activated", filtersActivated),
            ("filtered_fetches", filteredFetches),
            ("join_filters_built", joinFiltersBuilt),
            ("subtrees_copied", subtreesCopied),
            ("nodes_copied", nodesCopied),
            ("nodes_planned", nodesPlanned),
            ("nodes_after_optimization", nodesAfterOptimization),
        ]
    }

    public static var columnNames: [String] { RunCounters().columns.map(\.name) }
}

/// Per-node counts after a run.
public struct NodeCounters: Sendable, Equatable {
    public let node: NodeID
    public let label: String
    public let rowsIn: Int
    public let rowsOut: Int
}

/// Wall-clock time of each phase, in microseconds.
public struct PhaseTimings: Sendable {
    public var planMicroseconds: Double = 0
    public var optimizeMicroseconds: Double = 0
    public var runMicroseconds: Double = 0
    public var totalMicroseconds: Double { planMicroseconds + optimizeMicroseconds + runMicroseconds }
    public init() {}
}
