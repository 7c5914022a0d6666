import Relational

/// An optimizer heuristic: a plug-in that declares its flags and acts through hooks.
/// The pipeline and the runner call these hooks without knowing any heuristic by name.
///
/// To add one, write a type conforming to this protocol in its own file under
/// `Heuristics/` and list it in `HeuristicCatalog.standard`. Its tunables are its flags.
public protocol Heuristic: AnyObject {
    /// The flags this heuristic reads (names unique across the catalog).
    static var flags: [FlagSpec] { get }

    /// An instance configured from the flag set, or nil when the flags switch it off. Every
    /// run of a query gets its own instances, so an instance may keep state for one run.
    static func make(_ flags: FlagSet) -> Self?

    /// Ahead-of-time passes this heuristic contributes, in order.
    var optimizerPasses: [any OptimizerPass] { get }

    /// Nodes entered the runner's graph (all of them at start, copies later), parents
    /// before children.
    func nodesAdded(_ nodes: [NodeID], run: any RunnerContext)

    /// `edge.parent` has received every row of its operand `edge.operand`.
    func operandCompleted(_ edge: Edge, run: any RunnerContext)

    /// Candidates (undrained sources, in declaration order) this heuristic asks to drain
    /// later. The runner drops every heuristic's deferrals before `chooseInitiator`, unless
    /// that would leave no candidate, in which case it defers none.
    func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> Set<NodeID>

    /// Picks the next initiator among `candidates` (in declaration order), or nil to let
    /// another heuristic (or the default, declaration order) decide.
    func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID?

    /// A filter is about to be provided along `edge`. The heuristic may rearrange the graph
    /// (e.g. give `edge.parent` its own copy of the child); the filter then goes to
    /// whatever child sits at `edge` afterwards.
    func willProvideFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext)

    /// `filter` is about to narrow the filter `edge` already has (the runner ANDs the two).
    /// The heuristic may rearrange the graph as in `willProvideFilter`; the narrowing then
    /// applies to whatever child sits at `edge` afterwards.
    func willNarrowFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext)

    /// Every parent of `node` has provided a filter, and their OR is now active on it
    /// (before it flows on to the node's children).
    func filterActivated(_ node: NodeID, run: any RunnerContext)

    /// A parent narrowed the filter it gave `node` while that filter was already active
    /// (`provideFilter` along an edge that had one), and the node's filter is now the
    /// narrower one (before it flows on to the node's children).
    func filterNarrowed(_ node: NodeID, run: any RunnerContext)

    /// The most nodes copying may add to the runner's graph over one run, given how many
    /// live nodes the runner starts with; nil for no opinion. The runner uses the smallest
    /// answer, or `GrowthBudget.defaultLimit(forNodes:)` when no heuristic answers.
    func growthBudget(forNodes nodes: Int) -> Int?
}

// The defaults tell the runner's hook timer they did nothing, so reports list only the
// hooks a heuristic implements.
extension Heuristic {
    public var optimizerPasses: [any OptimizerPass] { [] }
    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) { (run as? Runner)?.hookTimer.noteDefault() }
    public func operandCompleted(_ edge: Edge, run: any RunnerContext) { (run as? Runner)?.hookTimer.noteDefault() }
    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> Set<NodeID> {
        (run as? Runner)?.hookTimer.noteDefault()
        return []
    }
    public func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        (run as? Runner)?.hookTimer.noteDefault()
        return nil
    }
    public func willProvideFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        (run as? Runner)?.hookTimer.noteDefault()
    }
    public func willNarrowFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        (run as? Runner)?.hookTimer.noteDefault()
    }
    public func filterActivated(_ node: NodeID, run: any RunnerContext) { (run as? Runner)?.hookTimer.noteDefault() }
    public func filterNarrowed(_ node: NodeID, run: any RunnerContext) { (run as? Runner)?.hookTimer.noteDefault() }
    public func growthBudget(forNodes nodes: Int) -> Int? { nil }
}
