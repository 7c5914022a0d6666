import Relational

/// `late-filter-narrowing`: when a node's parental filter becomes active after the node
/// already gave a child a filter of its own (a select's predicate from `select-pushdown`, a
/// join's key filter), the parental filter, rewritten for that child, narrows that edge too.
///
/// The runner passes an active filter only along edges that have none yet, so a select
/// that pushed its own predicate at the start never passes on what its parents ask for
/// later. The hunt's largest class (issue 15): `t1 select (true) join t0` with `t0` empty.
/// `t0` is drained first, the join's empty key filter (`false`) reaches the select, but
/// the select's edge already carries `true`, and all of `t1` is read. The same happens to
/// a copy made by `subtree-copying`: the copy's select pushes its predicate as the copy is
/// added, before the filter the copy was made for arrives. Narrowing is sound for the same
/// reason the runner's per-edge narrowing is: the node needs only rows passing both its
/// own filter and the one derived from its parents'.
public final class LateFilterNarrowing: Heuristic {
    public static let narrowing = FlagKey<Bool>("late-filter-narrowing")

    public static let flags = [
        FlagSpec(
            name: narrowing.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "a parental filter that becomes active after a node filtered a child itself (a select's predicate, a join filter) narrows that child's filter too",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> LateFilterNarrowing? {
        flags.isOn(narrowing) ? LateFilterNarrowing() : nil
    }

    /// Settings only: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func filterActivated(_ node: NodeID, run: any RunnerContext) {
        // A closure fetching its operand on demand asks its source by key itself.
        guard case .apply(let op) = run.graph[node].operation, !op.isClosure,
            let filter = run.filterState(of: node).filter
        else { return }
        for operand in run.graph[node].children.indices {
            let edge = Edge(parent: node, operand: operand)
            guard run.hasProvided(along: edge), run.hasUndrainedSource(below: run.graph.child(at: edge)),
                let derived = run.derivedFilter(filter, along: edge), derived != .true
            else { continue }
            run.provideFilter(derived, along: edge)
        }
    }
}

extension Operator {
    fileprivate var isClosure: Bool {
        if case .closure = self { return true }
        return false
    }
}
