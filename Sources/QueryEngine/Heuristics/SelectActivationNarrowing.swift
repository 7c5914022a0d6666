import Relational

/// `select-activation-narrowing` (just in time): a select whose parental filter activates
/// before `select-pushdown` has given its operand the select's own predicate passes on
/// `predicate AND filter`, not the filter alone. The runner's filter flow passes a select's
/// filter unchanged, and `select-pushdown`, at the select's turn, adds the predicate to an
/// edge that already has a filter only over a tree the select alone reads, or when the two
/// contradict. Hunt corpus seed 363 case 1365 at `--rows 300`, with `self-operand-folding`:
/// `shared = (t1 join t0) select (not (c != 23)) project [d, e]`, `shared_2 = shared select
/// (e < d)`, `shared intersect shared_2` folded to `shared_2`; `e < d` reached the inner
/// select first, `c == 23` (which no row of `t0` holds) was left off the product over the
/// shared `t0`, and 51 rows of `t1` were read against none.
///
/// Only where every node under the select down to its sources (at most
/// `SelectPushdown.treeLimit` of them) has the select's path as its one reader; the sources
/// below its operand may be shared. A shared node between ORs the narrowed filter with its other
/// readers' and passes the OR on: in a select-union chain (`aK = (aK-1 select pK) union
/// aK-1`, or with a project over `aK-1`) that doubled the filter at every level, and sixty
/// levels (`GrowthBudgetTests`) ran for minutes. A source passes nothing on, so a shared
/// source as the operand is narrowed too when an index fetches the narrowed filter and
/// at most half as many rows (`fetchesFarFewer`), or its column ranges rule the narrowed
/// filter out (`isRuledOut`). And only while the filter is small
/// (`termLimit` comparisons).
public final class SelectActivationNarrowing: Heuristic {
    public static let narrowing = FlagKey<Bool>("select-activation-narrowing")

    public static let flags = [
        FlagSpec(
            name: narrowing.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "just-in-time: a select whose parental filter arrives before its own predicate was pushed down gives its operand the predicate AND the filter (when it reads the operand alone, or the operand is a shared source an index then fetches at half the rows or fewer, or whose column ranges rule it out)",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> SelectActivationNarrowing? {
        flags.isOn(narrowing) ? SelectActivationNarrowing() : nil
    }

    /// No settings and no state: one instance serves every run.
    public func instanceForRun() -> (any Heuristic)? { self }

    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.contains { if case .select = $0 { return true } else { return false } } ? .all : .none
    }

    /// The most comparisons and IN-sets a filter may hold to have a predicate ANDed on.
    static let termLimit = 16

    public func filterActivated(_ node: NodeID, run: any RunnerContext) {
        let graph = run.graph
        guard case let .apply(.select(predicate)) = graph[node].operation, graph[node].children.count == 1 else { return }
        let edge = Edge(parent: node, operand: 0)
        let operand = graph[node].children[0]
        guard !run.hasProvided(along: edge), let filter = run.filterState(of: node).filter,
            Self.terms(of: filter, atMost: Self.termLimit)
        else { return }
        let narrowed = Predicate.all([predicate, filter])
        guard Self.readsAloneAboveSources(operand, graph) || Self.fetchesFarFewer(operand, narrowed, than: filter, graph)
            || Self.isRuledOut(operand, narrowed, graph)
        else { return }
        run.provideFilter(narrowed, along: edge)
    }

    /// Whether `operand` is a source that fetches `narrowed` selectively and at most half
    /// the rows `filter` would have it deliver: narrowing a shared source's edge then pays
    /// even when subtree copying gives the select a copy of its own. Hunt seed 728 case 1211
    /// at `--rows 300`: `shared = t0 join t0` (folded to `t0`, indexed on `c`), `((shared
    /// union shared) select (c == 30) union …) join shared` under a weak select; union
    /// flattening made the select read the shared `t0` directly, the weak filter reached it
    /// first, and `t0` was read under it (66 rows against 3).
    static func fetchesFarFewer(_ operand: NodeID, _ narrowed: Predicate, than filter: Predicate, _ graph: PlanGraph) -> Bool {
        guard case let .source(source) = graph[operand].operation, source.canFetchSelectively(narrowed),
            let few = source.estimatedCount(filter: narrowed), let many = source.estimatedCount(filter: filter)
        else { return false }
        return few * 2 <= many
    }

    /// Whether `operand` is a source whose own cheap check (column ranges, a memory table's
    /// `provablyMatchesNothing`) rules `narrowed` out: the select's edge then wants nothing of
    /// it, and subtree copying gives the select a copy that delivers nothing. Held-out hunt
    /// seed 735 case 147 at `--rows 300`: `shared = t1 join (t1 select (e > d) select (e <= 69)
    /// rename [a -> b] select (b < e))`, `t1`'s `e` all text; `select-folding` made the two
    /// selects one over the shared `t1`, whose edge then got `a < e` alone, and `t1`
    /// delivered its 30 rows where the unfolded chain's copy delivered none (30 rows against 0).
    static func isRuledOut(_ operand: NodeID, _ narrowed: Predicate, _ graph: PlanGraph) -> Bool {
        guard case let .source(source) = graph[operand].operation else { return false }
        return source.provablyMatchesNothing(narrowed)
    }

    /// Whether `operand` and every node of its subtree but the sources below it has one
    /// reader (both edges of a self-join count as one) and feeds no output, within
    /// `SelectPushdown.treeLimit` nodes. A shared source as the operand itself is refused
    /// here: narrowed along this edge alone, its filter differs from its other readers', and
    /// subtree copying then gives the select a copy that reads the same rows again (`HuntClassTwelfthRoundTests`:
    /// `t select (c != d)` under a three-way union, 3 rows → 6); `fetchesFarFewer` says when
    /// that copy pays.
    static func readsAloneAboveSources(_ operand: NodeID, _ graph: PlanGraph) -> Bool {
        guard let nodes = graph.subtree(of: operand, upTo: SelectPushdown.treeLimit) else { return false }
        return nodes.allSatisfy { id in
            if id != operand, graph[id].operation.isSource { return true }
            let parents = graph[id].parents
            guard let first = parents.first, graph[id].outputs.isEmpty else { return false }
            return parents.allSatisfy { $0.parent == first.parent }
        }
    }

    /// Whether `predicate` holds at most `limit` comparisons and IN-sets.
    static func terms(of predicate: Predicate, atMost limit: Int) -> Bool {
        var left = limit
        func count(_ p: Predicate) -> Bool {
            switch p {
            case .constant: return true
            case .comparison, .inSet:
                left -= 1
                return left >= 0
            case let .not(inner): return count(inner)
            case let .and(parts), let .or(parts): return parts.allSatisfy(count)
            }
        }
        return count(predicate)
    }
}
