import Relational

/// An optimizer heuristic: a plug-in that declares its flags and acts through hooks.
/// The pipeline and the runner call these hooks without knowing any heuristic by name.
///
/// To add one, write a type conforming to this protocol in its own file under
/// `Heuristics/` and list it in `HeuristicCatalog.standard`. Its tunables are its flags.
public protocol Heuristic: AnyObject {
    /// The flags this heuristic reads (names unique across the catalog).
    static var flags: [FlagSpec] { get }

    /// An instance configured from the flag set, or nil when the flags switch it off. An
    /// instance serves one run unless `instanceForRun` says otherwise, so it may keep state
    /// for one run.
    static func make(_ flags: FlagSet) -> Self?

    /// The instance the next run of a prepared query uses, asked of the prepared instance
    /// (which serves the first run itself). nil, the default, makes a fresh one with `make`.
    /// A heuristic whose stored properties are settings only returns `self`; one that keeps
    /// state for a run may return a fresh instance sharing what it worked out for the query.
    /// A prepared query asks every instance at its second run and then only those that did
    /// not give themselves (an instance that gave `self` serves every later run).
    func instanceForRun() -> (any Heuristic)?

    /// The hooks worth calling in runs of this optimized graph, asked once per prepared
    /// query: the runner never calls the others. A heuristic that cannot act on the graph
    /// (closure seeding with no closure in it) answers none. Copies made while running
    /// repeat the graph's operators and never add sharing, so the answer holds for them.
    /// Default: every hook.
    func hooks(for graph: PlanGraph) -> HeuristicHooks

    /// Ahead-of-time passes this heuristic contributes, in order.
    var optimizerPasses: [any OptimizerPass] { get }

    /// Nodes entered the runner's graph (all of them at start, copies later), parents
    /// before children.
    func nodesAdded(_ nodes: [NodeID], run: any RunnerContext)

    /// `edge.parent` has received every row of its operand `edge.operand`.
    func operandCompleted(_ edge: Edge, run: any RunnerContext)

    /// Candidates (undrained sources, in declaration order) this heuristic asks to drain
    /// later, each once. The runner drops every heuristic's deferrals before
    /// `chooseInitiator`, unless that would leave no candidate, in which case it defers none.
    /// (An array: a pick is made before every drain, and a few ids need no hashing.)
    func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID]

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

    /// Whether this heuristic vetoes a copy of the subtree at `edge` that another heuristic
    /// (or itself) asked for (`RunnerContext.copySubtree`), as a later heuristic may know a
    /// copy will read rows its original reads anyway. A vetoed copy is not made (nil).
    func vetoesCopy(along edge: Edge, run: any RunnerContext) -> Bool

    /// The most nodes copying may add to the runner's graph over one run, given how many
    /// live nodes the runner starts with; nil for no opinion. The runner uses the smallest
    /// answer, or `GrowthBudget.defaultLimit(forNodes:)` when no heuristic answers.
    func growthBudget(forNodes nodes: Int) -> Int?
}

// The defaults tell the runner's hook timer they did nothing, so reports list only the
// hooks a heuristic implements.
extension Heuristic {
    public var optimizerPasses: [any OptimizerPass] { [] }
    public func instanceForRun() -> (any Heuristic)? { nil }
    public func hooks(for graph: PlanGraph) -> HeuristicHooks { .all }
    public func nodesAdded(_ nodes: [NodeID], run: any RunnerContext) { (run as? Runner)?.hookTimer.noteDefault() }
    public func operandCompleted(_ edge: Edge, run: any RunnerContext) { (run as? Runner)?.hookTimer.noteDefault() }
    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID] {
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
    public func vetoesCopy(along edge: Edge, run: any RunnerContext) -> Bool {
        (run as? Runner)?.hookTimer.noteDefault()
        return false
    }
    public func growthBudget(forNodes nodes: Int) -> Int? { nil }
}

/// A set of `Heuristic` hooks (`Heuristic.hooks(for:)`).
public struct HeuristicHooks: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let nodesAdded = HeuristicHooks(rawValue: 1 << 0)
    public static let operandCompleted = HeuristicHooks(rawValue: 1 << 1)
    public static let deferInitiators = HeuristicHooks(rawValue: 1 << 2)
    public static let chooseInitiator = HeuristicHooks(rawValue: 1 << 3)
    public static let willProvideFilter = HeuristicHooks(rawValue: 1 << 4)
    public static let willNarrowFilter = HeuristicHooks(rawValue: 1 << 5)
    public static let filterActivated = HeuristicHooks(rawValue: 1 << 6)
    public static let filterNarrowed = HeuristicHooks(rawValue: 1 << 7)
    public static let vetoesCopy = HeuristicHooks(rawValue: 1 << 8)
    public static let all = HeuristicHooks(rawValue: (1 << 9) - 1)
    public static let none: HeuristicHooks = []
}

extension PlanGraph {
    /// Whether some live node applies an operator `matches` accepts (for `hooks(for:)`).
    public func contains(where matches: (Operator) -> Bool) -> Bool {
        nodes.contains { if case let .apply(op) = $0.operation { return matches(op) } else { return false } }
    }

    /// Whether some node waits on two or more parents (an output counting as one): only
    /// then can a filter find a node still waiting on others, and a subtree be copied.
    public var hasSharedNode: Bool {
        nodes.contains { $0.isLive && $0.parents.count + ($0.outputs.isEmpty ? 0 : 1) >= 2 }
    }

    /// Whether some live node is a join.
    public var hasJoin: Bool { contains { if case .join = $0 { return true } else { return false } } }

    /// How many live source nodes the graph has.
    public var sourceCount: Int { nodes.reduce(0) { $0 + ($1.operation.isSource ? 1 : 0) } }

    /// Whether the runner may have two sources to choose from: the graph has them, or a
    /// shared node that subtree copying may copy, source and all. Ordering heuristics hook in
    /// only then. Issue 15, eighteenth session: `t3 intersect t3 select (…)` has one source
    /// until `late-subtree-copying` copies it for the select; unhooked, nothing sized the
    /// copy (a fifth of `t3` by its sample) below the original (all of it), the original went
    /// first on the tie, and the copy only read its rows again (22/1808, 358 rows against 299).
    public var mayHaveTwoSources: Bool { sourceCount >= 2 || hasSharedNode }
}
