/// The runner's global budget for graph growth: how many nodes copying may add to the graph
/// over one whole run, whatever heuristic asks for the copies. A copy that would exceed what
/// is left is refused as a whole (the graph is unchanged and the filter flows to the shared
/// node as if copying were off), so a run's final graph has at most `limit` nodes more
/// than the graph it started with, and planning and running stay near-linear in the size of
/// the optimized graph even for queries that share a node with itself at every level (whose
/// full unsharing would be exponential).
///
/// The limit comes from the heuristics (`Heuristic.growthBudget(forNodes:)`, the smallest
/// answer wins); with none answering it is `defaultLimit(forNodes:)`.
public struct GrowthBudget: Sendable, Equatable {
    /// Nodes copying may add in one run.
    public let limit: Int
    /// Nodes added so far.
    public private(set) var used = 0

    public init(limit: Int) { self.limit = max(0, limit) }

    /// What is left.
    public var remaining: Int { limit - used }

    /// Takes `nodes` from the budget if that many are left; false (and nothing taken) if not.
    mutating func take(_ nodes: Int) -> Bool {
        guard nodes >= 0, nodes <= remaining else { return false }
        used += nodes
        return true
    }

    /// Copied nodes allowed whatever the graph's size: enough for every copy the seed's
    /// queries make (one subtree of at most `subtree-copy-limit`'s default, 100 nodes).
    public static let defaultMinimum = 100
    /// Copied nodes allowed per node of the graph the runner starts with: the final graph is
    /// at most three times the optimized one.
    public static let defaultPerNode = 2

    /// `max(minimum, perNode × nodes)`, saturating instead of overflowing.
    public static func limit(minimum: Int, perNode: Int, nodes: Int) -> Int {
        let (scaled, overflow) = max(0, perNode).multipliedReportingOverflow(by: max(0, nodes))
        return max(max(0, minimum), overflow ? Int.max : scaled)
    }

    /// The limit used when no heuristic supplies one.
    public static func defaultLimit(forNodes nodes: Int) -> Int {
        limit(minimum: defaultMinimum, perNode: defaultPerNode, nodes: nodes)
    }
}
