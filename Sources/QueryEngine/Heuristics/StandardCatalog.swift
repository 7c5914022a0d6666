extension HeuristicCatalog {
    /// The heuristics of seed 000, in the order their hooks run. A new heuristic is one
    /// file under Heuristics/ plus one line here.
    public static var standard: HeuristicCatalog {
        HeuristicCatalog([
            UnionFlattening.self,
            SelectPushdown.self,
            JoinFilterThreshold.self,
            InitiatorOrdering.self,
            SubtreeCopying.self,
            GraphGrowthBudget.self,
            ClosureSeeding.self,
        ])
    }
}
