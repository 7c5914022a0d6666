import Relational

/// Rows of a node's operand asked for by key: those whose `attribute` is one of `keys`.
struct KeyDemand {
    let attribute: Attribute
    let keys: [Value]
}

/// A kernel that can pull its single operand on demand, key set by key set, instead of
/// receiving every row (magic sets done just in time). The runner's mechanism
/// (`Runner/OnDemandOperand.swift`) fetches each demand from the operand's source and
/// delivers the rows through `receive`; the kernel then says what it needs next.
protocol DemandDrivenKernel: Kernel {
    /// Switches to demand mode for the node's active filter when the filter pins an
    /// attribute to a set of values the operand can be fetched by (`canFetchBy`); returns
    /// the first demand, or nil (the kernel stays as it was) when it cannot.
    func beginDemand(filter: Predicate, canFetchBy: (Attribute) -> Bool) -> KeyDemand?

    /// The first demands `beginDemand` could make under `filter`, one per attribute it pins
    /// that the operand can be fetched by, in `beginDemand`'s order of preference. Changes
    /// nothing.
    func demandCandidates(filter: Predicate, canFetchBy: (Attribute) -> Bool) -> [KeyDemand]

    /// In demand mode, before any row has arrived: starts again with `demand` (one of
    /// `demandCandidates` under a filter that has narrowed since). False, and nothing
    /// changed, once rows have arrived.
    func restartDemand(_ demand: KeyDemand) -> Bool

    /// Every row of the last demand has arrived: returns the rows the node emits now and
    /// the next demand, nil when the node has all it needs (its output is then complete
    /// for every row its filter can pass).
    func nextDemand() -> (rows: Batch, demand: KeyDemand?)
}
