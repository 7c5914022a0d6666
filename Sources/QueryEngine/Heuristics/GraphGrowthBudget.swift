/// The tunables of the runner's global growth budget (`GrowthBudget`): copying, by any
/// heuristic, may add at most `max(graph-growth-budget, graph-growth-per-node × N)` nodes
/// in one run, N being the live nodes the runner starts with. Not a heuristic that can be
/// switched off: every preset has the same budget, so no flag set can make planning
/// exponential. Neither flag is listed in canonical flag-set strings at its default.
public final class GraphGrowthBudget: Heuristic {
    public static let budget = FlagKey<Int>("graph-growth-budget")
    public static let perNodeBudget = FlagKey<Int>("graph-growth-per-node")

    public static let flags = [
        FlagSpec(
            name: budget.name, kind: .integer(minimum: 0),
            allOn: .integer(GrowthBudget.defaultMinimum), allOff: .integer(GrowthBudget.defaultMinimum),
            meaning: "nodes the runner may add by copying in one run, at least (the budget is the larger of this and graph-growth-per-node × the optimized graph's nodes); a copy that does not fit is refused"),
        FlagSpec(
            name: perNodeBudget.name, kind: .integer(minimum: 0),
            allOn: .integer(GrowthBudget.defaultPerNode), allOff: .integer(GrowthBudget.defaultPerNode),
            meaning: "copied nodes the growth budget allows per node of the optimized graph, when that is more than graph-growth-budget"),
    ]

    let minimum: Int
    let perNode: Int

    init(minimum: Int, perNode: Int) {
        self.minimum = minimum
        self.perNode = perNode
    }

    public static func make(_ flags: FlagSet) -> GraphGrowthBudget? {
        GraphGrowthBudget(
            minimum: flags[budget] ?? GrowthBudget.defaultMinimum,
            perNode: flags[perNodeBudget] ?? GrowthBudget.defaultPerNode)
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func growthBudget(forNodes nodes: Int) -> Int? {
        GrowthBudget.limit(minimum: minimum, perNode: perNode, nodes: nodes)
    }
}
