import Relational

/// `provably-empty-first`: drain first an undrained source whose active filter, by the
/// source's own cheap check (`SourceRelation.provablyMatchesNothing`: a memory table's
/// lowest and highest value per column), matches no row.
///
/// Such a source costs no rows to drain, and its completing empty is worth the most: a
/// join or intersection over it then filters every other operand with `false`. But its
/// estimate cannot show it when no index answers the filter (a select on an unindexed
/// column): the estimate is the whole table, so smallest-estimate ordering drains a
/// smaller table first, and `filter-aware-ordering` guesses the select's side larger and
/// defers it. The hunt's class (issue 15, fifth round): `t1 select (e >= "x,y") join t0`
/// where `e` holds only numbers (text sorts after numbers), `t0` is read first, 5 to 10
/// rows against 0.
///
/// A filter whose equality pins an attribute that another of its conjuncts rejects (`c ==
/// null and c > 5`, `Predicate.pinnedValuesContradict`), or that compares two attributes
/// both ways (`b < e and b > e`, `Predicate.comparedAttributesContradict`), is empty too,
/// whatever the estimate.
///
/// Otherwise it asks only about a source whose estimate is its whole table (an index answering the
/// filter already counts it exactly, and a zero estimate is drained first anyway), so on
/// queries whose filters the indexes answer it finds nothing and costs one estimate
/// lookup per filtered candidate, once per pick (its choice reuses what its deferral found;
/// a pick among one candidate asks nothing). It defers every other candidate and picks the empty one itself:
/// a heuristic that deferred the empty one (`filter-aware-ordering`) then leaves no
/// candidate kept, the runner keeps them all, and this heuristic's pick, listed before
/// the initiator ordering, wins.
public final class ProvablyEmptyFirst: Heuristic {
    public static let emptyFirst = FlagKey<Bool>("provably-empty-first")

    public static let flags = [
        FlagSpec(
            name: emptyFirst.name, kind: .toggle, allOn: .toggle(true), allOff: .toggle(false),
            meaning: "drain first a source whose active filter its column ranges show matches no row (a select on an unindexed column that matches nothing), or whose equality another conjunct rejects",
            laterThanSeed: true)
    ]

    public static func make(_ flags: FlagSet) -> ProvablyEmptyFirst? {
        flags.isOn(emptyFirst) ? ProvablyEmptyFirst() : nil
    }

    /// Per node, the version of the filter last checked (`RunnerContext.filterVersion`), its
    /// answer and the run that asked (filters only
    /// narrow within a run, so a node found empty stays empty; one found not empty is
    /// checked again when its filter changed). Entries of an earlier run are ignored rather
    /// than removed: emptying and regrowing the list cost a prepared run of the seed query
    /// about 700 instructions.
    private var checked: [(version: Int, empty: Bool, run: Int)?] = []
    /// Which run of this instance is under way (`startNextRun` counts them).
    private var runNumber = 0
    /// What this pick's `deferInitiators` found, for its `chooseInitiator` (the runner asks
    /// both, in that order, with nothing run in between that moves a filter): nil when not
    /// asked since the last choice.
    private var pick: Found?

    private enum Found {
        case noEmptySource
        case emptySource(NodeID)
    }

    /// State for one run: the instance later runs of a prepared query use, made once and
    /// handed out again emptied of the last run's answers (`startNextRun`), as a fresh one
    /// would be; one made and freed per run was about 600 instructions of the seed query's
    /// run (README "Per-run fixed cost, step 11"). Runs of a prepared query come one after
    /// another (a run inside another gets instances made anew from the flags).
    public func instanceForRun() -> (any Heuristic)? {
        if let next = runInstance {
            next.startNextRun()
            return next
        }
        let next = ProvablyEmptyFirst()
        runInstance = next
        return next
    }

    /// The instance later runs use (see `instanceForRun`); kept by the prepared instance only.
    private var runInstance: ProvablyEmptyFirst?

    /// Forgets the last run's answers (a table may change between runs; see `checked`).
    private func startNextRun() {
        runNumber &+= 1
        pick = nil
    }

    /// Only a choice between two or more sources can put an empty one first.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        graph.mayHaveTwoSources ? [.deferInitiators, .chooseInitiator] : .none
    }

    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID] {
        // One candidate is drained whatever anyone picks: nothing to check.
        guard candidates.count > 1, let empty = firstToDrain(candidates, run) else {
            pick = .noEmptySource
            return []
        }
        pick = .emptySource(empty)
        return candidates.filter { $0 != empty }
    }

    /// The empty source `deferInitiators` found, if any. The candidates here are that call's,
    /// or the one empty source it kept (every other deferred), or, when another heuristic
    /// deferred that one too, all of that call's again, so its answer holds: the first
    /// provably empty candidate, or none. Asked without that call (no other caller), it checks.
    public func chooseInitiator(from candidates: [NodeID], run: any RunnerContext) -> NodeID? {
        defer { pick = nil }
        switch pick {
        case .noEmptySource?: return nil
        case let .emptySource(node)?: return node
        case nil: return candidates.count > 1 ? firstToDrain(candidates, run) : nil
        }
    }

    /// The first provably empty candidate whose emptiness goes somewhere.
    private func firstToDrain(_ candidates: [NodeID], _ run: any RunnerContext) -> NodeID? {
        candidates.first { isProvablyEmpty($0, run) && !Self.emptinessIsAbsorbed($0, run) }
    }

    /// Whether a source's emptiness goes nowhere: every way up from it, through operators
    /// an empty operand empties (select, project, rename, closure), ends at a union another
    /// of whose operands has not completed, or at a difference's right operand. Drained
    /// first it then saves no row, but it starts the nodes above it, and a started subtree
    /// is never copied; left to the ordering, it still costs no row when its turn comes.
    /// Issue 15, forty-first session, held-out seed 550 case 1812 at `--rows 300`: `shared =
    /// t0 union t0 select (a contradiction)` under `shared join (t2 join shared)`, `t2`
    /// empty. The select's copy of `t0` was drained first (0 rows) and started `shared`, so
    /// when `t2`'s empty join gave it `false` it could not be copied apart from the output
    /// join, which waited on it: `t0` was read whole (86 rows against 0).
    static func emptinessIsAbsorbed(_ source: NodeID, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        var pending = [source]
        var visits = 0
        while let id = pending.popLast() {
            visits += 1
            guard visits <= 32, graph[id].outputs.isEmpty else { return false }
            for up in graph[id].parents {
                switch graph[up.parent].operation {
                case .apply(.select), .apply(.project), .apply(.rename), .apply(.closure):
                    pending.append(up.parent)
                case .apply(.union):
                    let others = graph[up.parent].children.indices.filter { $0 != up.operand }
                    if others.allSatisfy({ run.isComplete(graph.child(at: Edge(parent: up.parent, operand: $0))) }) {
                        pending.append(up.parent)
                    }
                case .apply(.difference):
                    if up.operand == 0 { return false }
                case .apply(.join), .apply(.intersection), .source, .dead:
                    return false
                }
            }
        }
        return true
    }

    /// Cheapest refusals first: a filter that is not active or is `true` needs no graph node
    /// or estimate.
    private func isProvablyEmpty(_ node: NodeID, _ run: any RunnerContext) -> Bool {
        // Asked again for every candidate at every pick: the answer holds while the node's
        // filter is the same (its tables do not change in a run), and an empty one stays
        // empty. Checked by the filter's version, the memo costs no look at the filter: with
        // thousands of candidates (a source copied once per select of a thousand), reading
        // the node's state and comparing filters cost about 500 instructions a candidate.
        let version = run.filterVersion(of: node)
        if node < checked.count, let known = checked[node], known.run == runNumber, known.empty || known.version == version {
            return known.empty
        }
        let empty = isEmptyUnderActiveFilter(node, run)
        if node >= checked.count { checked += repeatElement(nil, count: node + 1 - checked.count) }
        checked[node] = (version, empty, runNumber)
        return empty
    }

    private func isEmptyUnderActiveFilter(_ node: NodeID, _ run: any RunnerContext) -> Bool {
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return false }
        // The node's fields read in place: binding it copied the whole node (its edge lists too).
        let graph = run.graph
        guard case .source = graph[node].operation else { return false }
        return isEmpty(filter, node, graph, run)
    }

    private func isEmpty(_ filter: Predicate, _ node: NodeID, _ graph: PlanGraph, _ run: any RunnerContext) -> Bool {
        // A filter whose equality pins an attribute that another conjunct rejects matches
        // nothing, whatever an index estimates for the equality alone (issue 15, sixteenth
        // session, held-out seed 90 case 1913: a join's null key AND-ed onto a select's `c >
        // 5`, `t2` estimated at the 22 rows its index holds for `c == null`; a five-row
        // table was drained before it, 6 rows against 1).
        // So does one comparing two attributes both ways (`b < e and b > e`; held-out seed
        // 190 case 1238 at `--rows 3000`: no index reads it, and `t0`, sampled at about 10
        // of its 2,670 rows, was drained after a 5-row table, 5 rows against 0).
        if filter.conjunctsContradict { return true }
        // The source bound (its existential copied) only once the estimate has passed.
        guard let estimate = run.estimate(node), estimate > 0,
            let whole = graph[node].approximateCount, estimate >= whole,
            case let .source(source) = graph[node].operation
        else { return false }
        return source.provablyMatchesNothing(filter) || indexFindsNothing(filter, source)
    }

    /// A filter with a NOT the source's index cannot read: with the NOTs pushed onto the
    /// comparisons (`not (a != 64.5)` is `a == 64.5`, the value order being total), an
    /// index may answer it, and an index that finds no candidate rules every row out. The
    /// hunt's case (issue 15, eighth round, seed 17 case 528): `t2 join t1 rename [a -> f, e ->
    /// b] select (not (f != 64.5))`, `t1` indexed on `a`, 148 rows; estimated whole, it was
    /// drained after the 5-row `t2` (5 rows against 0).
    private func indexFindsNothing(_ filter: Predicate, _ source: any SourceRelation) -> Bool {
        guard let pushed = filter.negationsPushed else { return false }
        return source.estimatedCount(filter: pushed) == 0
    }
}
