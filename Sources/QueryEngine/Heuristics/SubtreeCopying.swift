import Relational

/// `subtree-copying` with `subtree-copy-limit`: when a filter is about to reach a node that
/// still waits on other parents, give this parent its own copy of the node's subtree so the
/// filter takes effect at once. Seed 000's criteria: (1) the subtree has at most `limit`
/// nodes, (2) another parent has not yet provided a filter, (3) some source in the subtree
/// could fetch selectively with the filter. Nothing in the subtree may have started or
/// completed (the runner's `copySubtree` refuses such a copy anyway).
public final class SubtreeCopying: Heuristic {
    public static let copying = FlagKey<Bool>("subtree-copying")
    public static let copyLimit = FlagKey<Int>("subtree-copy-limit")

    public static let flags = [
        FlagSpec(
            name: copying.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "copy a node and its subtree when pushing a filter into a node still waiting on other parents",
            alwaysListed: true),
        FlagSpec(
            name: copyLimit.name, kind: .integer(minimum: 0), allOn: .integer(defaultLimit),
            allOff: .integer(defaultLimit),
            meaning: "criterion 1: largest subtree (in nodes) that is copied",
            alwaysListed: true),
    ]

    static let defaultLimit = 100

    let limit: Int

    init(limit: Int) { self.limit = limit }

    public static func make(_ flags: FlagSet) -> SubtreeCopying? {
        guard flags.isOn(copying) else { return nil }
        return SubtreeCopying(limit: flags[copyLimit] ?? defaultLimit)
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    /// Without a node waiting on two parents no filter meets one still waiting on others.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks { graph.hasSharedNode ? .all : .none }

    public func willProvideFilter(_ filter: Predicate, along edge: Edge, run: any RunnerContext) {
        let child = run.child(at: edge)
        guard run.filterState(of: child).remainingParents >= 2 else { return }
        // Criterion 1: a subtree over the limit is not walked in full (the walk stops there).
        // The run's global growth budget is the runner's to enforce: it refuses the copy.
        guard let subtree = run.graph.subtree(of: child, upTo: limit),
            !subtree.contains(where: { run.hasStarted($0) || run.isComplete($0) })
        else { return }
        guard Self.reachesSelectiveSource(child, filter, run) else { return }
        run.copySubtree(along: edge)
    }

    /// Follows the filter down as the runner would and asks each source it reaches. The
    /// subtree is a DAG: each (node, filter) pair is visited once, so a node shared at every
    /// level costs one visit per level, not one per path (2^levels).
    static func reachesSelectiveSource(_ start: NodeID, _ startFilter: Predicate, _ run: any RunnerContext) -> Bool {
        // The graph asked of the run once (each ask through the protocol copies it, two
        // retains and releases); nothing below edits it.
        let graph = run.graph
        var seen = SmallSet(Visit(node: start, filter: startFilter))
        var pending = [Visit(node: start, filter: startFilter)]
        while let visit = pending.popLast() {
            if case let .source(source) = graph.nodes[visit.node].operation {
                if source.canFetchSelectively(visit.filter) { return true }
                continue
            }
            for operand in graph.nodes[visit.node].children.indices {
                let edge = Edge(parent: visit.node, operand: operand)
                guard let derived = run.derivedFilter(visit.filter, along: edge) else { continue }
                let next = Visit(node: graph.child(at: edge), filter: derived)
                if seen.insert(next) { pending.append(next) }
            }
        }
        return false
    }

    /// Seen in a `SmallSet`: the usual subtree is a few nodes, and hashing a predicate (an
    /// IN-set's rows and all) costs more than comparing, which compares `node` first.
    private struct Visit: Hashable {
        let node: NodeID
        let filter: Predicate
    }
}
