import Relational

/// What a heuristic may see and do while a query runs. The runner implements it.
public protocol RunnerContext: AnyObject {
    var graph: PlanGraph { get }
    var counters: RunCounters { get set }

    /// The OR of filters parents have provided, how many parents (an output counts as one
    /// that never provides) have not yet provided one, and whether the filter is active.
    func filterState(of node: NodeID) -> FilterState
    /// A number that changes whenever the node's filter or its activity is set (so whenever
    /// either changes) and never goes down within a run: an answer about the node's filter
    /// kept with it holds while it is the same, and is checked without comparing filters (an
    /// IN-set of keys, a long OR).
    /// Only within one run: a heuristic reused for the next run forgets such answers.
    func filterVersion(of node: NodeID) -> Int
    /// True once any row has been requested from or delivered through the node.
    func hasStarted(_ node: NodeID) -> Bool
    func isComplete(_ node: NodeID) -> Bool
    /// Whether the parent at `edge` has already provided its filter along it.
    func hasProvided(along edge: Edge) -> Bool
    /// The filter the parent at `edge` has given along it (narrowings AND-ed on), if any.
    func providedFilter(along edge: Edge) -> Predicate?
    /// The filter being provided along `edge` while the `willProvideFilter` hooks (and the
    /// copies they ask for, with their vetoes) run; nil otherwise.
    func filterBeingProvided(along edge: Edge) -> Predicate?
    /// Whether some source in the node's subtree has not started: a filter given to the
    /// node now can still change what is fetched.
    func hasUndrainedSource(below node: NodeID) -> Bool

    /// Whether any source has been drained in this run (`counters.initiatorOrder` is not
    /// empty); asked without copying the counters.
    var hasDrainedASource: Bool { get }

    /// The child at `edge` in the run's graph (`graph.child(at:)`), without copying the graph.
    func child(at edge: Edge) -> NodeID

    /// A source's current size estimate under its active filter (nil: cannot estimate).
    func estimate(_ source: NodeID) -> Int?

    /// The most rows draining a source is estimated to read: its `estimate`, but for a
    /// source fetched on demand, whose `estimate` is the search's first fetch while the
    /// search may go on to every row its own filter lets through, that whole estimate.
    func readableEstimate(_ source: NodeID) -> Int?

    /// Provides a filter from `edge.parent` to the child at `edge`. Along an edge that
    /// already has one, the new filter narrows it (`Runner/FilterFlow.swift`).
    func provideFilter(_ filter: Predicate, along edge: Edge)

    /// The distinct join-key rows received so far on one operand of a join node (a set, as
    /// an IN-set filter holds them), and how many rows that operand delivered.
    func joinKeys(of join: NodeID, operand: Int) -> (keys: Set<Row>, rows: Int)

    /// Every row one operand of a node has delivered, when the node's kernel still holds
    /// them all (an intersection or a join while its other operand is incomplete, a
    /// difference's left operand while its right one is) and they are at most `limit`; nil
    /// otherwise (more rows are not made only to be counted).
    func operandRows(of node: NodeID, operand: Int, atMost limit: Int) -> [Row]?

    /// The filter a node would pass to the child at `edge` once its own filter is `filter`
    /// (nil when it cannot be expressed on the child).
    func derivedFilter(_ filter: Predicate, along edge: Edge) -> Predicate?

    /// How many nodes copying may still add to the graph in this run (see `GrowthBudget`).
    var growthBudget: GrowthBudget { get }

    /// Gives `edge.parent` its own fresh copy of the subtree at `edge`; returns the copy's
    /// root, or nil (graph unchanged) when the copy does not fit in the growth budget.
    @discardableResult
    func copySubtree(along edge: Edge) -> NodeID?

    /// Lets a node whose kernel can pull its operand by key (a closure) fetch it round by
    /// round, for the keys its active filter pins, instead of receiving all of it; the
    /// operand's source is then fetched only that way (`Runner/OnDemandOperand.swift`).
    func driveOperandOnDemand(_ node: NodeID) -> OnDemandOutcome
}

extension RunnerContext {
    public var hasDrainedASource: Bool { !counters.initiatorOrder.isEmpty }
    public func child(at edge: Edge) -> NodeID { graph.child(at: edge) }
}

// The runner's own answers read its graph and counters in place: through the protocol's
// getters each read copies the whole value (the graph's two node lists, the counters'
// lists and dictionaries), retained and released, about 80 and 550 instructions a read.
extension Runner {
    var hasDrainedASource: Bool { !counters.initiatorOrder.isEmpty }
    func child(at edge: Edge) -> NodeID { graph.child(at: edge) }
}

public struct FilterState: Sendable {
    public var filter: Predicate?
    public var remainingParents: Int
    public var isActive: Bool
}
