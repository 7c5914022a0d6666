extension HeuristicCatalog {
    /// Every heuristic, in the order their hooks run: seed 000's, then later ones where
    /// their hooks must run (join-filter-pushdown after join-filter-threshold, which it
    /// defers to; provably-empty-first, then sampled-estimate-ordering, before
    /// initiator-ordering, whose pick they override; self-operand-folding's pass ahead of
    /// union-flattening's, which then removes a `t1 union t1` it leaves). A new heuristic is
    /// one file under Heuristics/ plus one line here.
    public static var standard: HeuristicCatalog {
        HeuristicCatalog([
            SelfOperandFolding.self,
            UnionFlattening.self,
            DifferenceToSelect.self,
            SelectPushdown.self,
            SelectActivationNarrowing.self,
            JoinFilterThreshold.self,
            JoinFilterPushdown.self,
            SetOperandFilter.self,
            FilterAwareOrdering.self,
            ProvablyEmptyFirst.self,
            SampledEstimateOrdering.self,
            InitiatorOrdering.self,
            SubtreeCopying.self,
            LateSubtreeCopying.self,
            GraphGrowthBudget.self,
            ClosureSeeding.self,
            LateFilterNarrowing.self,
            JoinConjunctPushdown.self,
        ])
    }
}
