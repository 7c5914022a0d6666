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
/// So is a source whose join keys the other source of its join holds none of, by their
/// columns' value ranges (`sideThatEmptiesItsJoin`): drained first, it empties the join.
///
/// An empty source whose emptiness goes nowhere (`absorption`) is not drained first: it
/// would only start the nodes above it. Where one of them is shared, it is deferred, and
/// so is a source the ordering would drain first on its own, its estimate 0 (a `false`
/// filter, or an index that finds nothing).
///
/// Otherwise it asks only about a source whose estimate is its whole table (an index answering the
/// filter already counts it exactly, and a zero estimate is drained first anyway), or whose
/// filter is an OR an index counts by its parts (`everyDisjunctFindsNothing`), so on
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
            meaning: "drain first a source whose active filter its column ranges show matches no row (a select on an unindexed column that matches nothing), or whose equality another conjunct rejects, or whose join keys lie outside the column range of the source it joins",
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
    private var checked: [(version: Int, emptiness: Emptiness, run: Int)?] = []

    /// What is known of a source's rows under its active filter.
    private enum Emptiness {
        case notEmpty
        /// None, but the initiator ordering drains it first anyway: its filter rules every
        /// row out (`false`), or the memory table's index finds none (its estimate, 0).
        case estimatedEmpty
        /// None, by a check the estimate cannot see.
        case provablyEmpty
    }
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
        let next = ProvablyEmptyFirst(disjointJoins: disjointJoins)
        runInstance = next
        return next
    }

    private init(disjointJoins: DisjointKeyJoins = DisjointKeyJoins()) { self.disjointJoins = disjointJoins }

    /// The instance later runs use (see `instanceForRun`); kept by the prepared instance only.
    private var runInstance: ProvablyEmptyFirst?

    /// Forgets the last run's answers (a table may change between runs; see `checked`).
    private func startNextRun() {
        runNumber &+= 1
        pick = nil
        if samplesAsked {
            samples.removeAll()
            samplesAsked = false
        }
    }

    /// Sizes for `sideThatEmptiesItsJoin`, one run's (see `SampledEstimates`); emptied for
    /// the next run only when asked in this one (most runs have no disjoint join).
    private let samples = SampledEstimates()
    private var samplesAsked = false

    /// The graph's joins of two sources (`sideThatEmptiesItsJoin`), found where the
    /// prepared query's graph is first shown (`hooks(for:)`) and shared with the instance
    /// later runs use; which are disjoint is worked out once a run (`disjointJoinsRun`).
    private var disjointJoins: DisjointKeyJoins
    private var disjointJoinsRun = -1

    /// Only a choice between two or more sources can put an empty one first.
    public func hooks(for graph: PlanGraph) -> HeuristicHooks {
        guard graph.mayHaveTwoSources else { return .none }
        disjointJoins = DisjointKeyJoins(graph)
        return [.deferInitiators, .chooseInitiator]
    }

    public func deferInitiators(_ candidates: [NodeID], run: any RunnerContext) -> [NodeID] {
        pick = .noEmptySource
        // One candidate is drained whatever anyone picks: nothing to check.
        guard candidates.count > 1 else { return [] }
        var absorbed: [NodeID] = []
        for candidate in candidates {
            let empty = emptiness(candidate, run)
            guard empty != .notEmpty else { continue }
            switch absorption(candidate, run) {
            case .goesOn:
                guard empty == .provablyEmpty else { continue }
                pick = .emptySource(candidate)
                return candidates.filter { $0 != candidate }
            case .absorbed(startsASharedNode: true):
                absorbed.append(candidate)
            case .absorbed(startsASharedNode: false):
                continue
            }
        }
        if let side = sideThatEmptiesItsJoin(candidates, run) {
            pick = .emptySource(side)
            return candidates.filter { $0 != side }
        }
        return absorbed
    }

    /// A candidate under a join whose other operand is a source not started that holds none
    /// of its key values: the two key columns' value ranges (`SourceRelation.valueRange`)
    /// do not overlap, so once the candidate is drained its keys filter the other source to
    /// nothing and the join completes empty. Its estimate cannot show it, nor the other
    /// source's filter before the candidate's keys make it. Taken where the join's
    /// emptiness goes on (`absorption`), for the candidate no larger than the other source
    /// nor than twice the smallest candidate, sampled where no index answers a filter
    /// (drained first it reads its own rows, which the smallest pick's filter might have
    /// left unread), the smallest such candidate. Issue 15, held-out seed 607 case 811 at
    /// `--rows 300`: `t2 join (t2 join t1) join [d = e] t0`, `t1`'s two text keys against
    /// `t2`'s numbers; `t0` (one row) went first and its key read 6 rows of `t2` (9 rows
    /// against 2). Not for a side whose partner an output reads whole (corpus seed 305 case
    /// 1716 at the default rows, `(t2 join t1) select (…)` beside `output t1 project [a,
    /// e]`: `t2` drained first, then `t1` whole, 10 rows against 5).
    private func sideThatEmptiesItsJoin(_ candidates: [NodeID], _ run: any RunnerContext) -> NodeID? {
        guard !disjointJoins.isEmpty else { return nil }
        if disjointJoinsRun != runNumber {
            disjointJoinsRun = runNumber
            disjointJoins.refresh()
        }
        guard !disjointJoins.disjoint.isEmpty else { return nil }
        let graph = run.graph
        var smallest: Int?
        var best: (node: NodeID, size: Int)?
        // Candidates in their order, as the initiator ordering breaks ties (on a tie of
        // sizes the first one's join is the one emptied).
        for candidate in candidates {
            for found in disjointJoins.disjoint where found.sources.0 == candidate || found.sources.1 == candidate {
                guard graph[found.node].children == found.operands else { continue }
                let (other, candidateReadWhole, otherReadWhole) = found.sources.0 == candidate
                    ? (found.sources.1, found.readWhole.0, found.readWhole.1)
                    : (found.sources.0, found.readWhole.1, found.readWhole.0)
                // A source an output reads whole is read in any order: drained, its keys
                // empty the join at no cost, and drained first itself it reads nothing more.
                guard !otherReadWhole, !run.hasStarted(other),
                    let size = candidateReadWhole ? 0 : hundredths(candidate, run),
                    let otherSize = hundredths(other, run), size <= otherSize, size < best?.size ?? .max
                else { continue }
                if smallest == nil { smallest = candidates.lazy.compactMap { self.hundredths($0, run) }.min() }
                guard let smallest, size <= 2 * smallest, absorption(found.node, run) == .goesOn else { continue }
                best = (candidate, size)
            }
        }
        return best?.node
    }

    /// A source's size under its active filter in hundredths of a row: sampled when no
    /// index answers the filter (`SampledEstimates`; the estimate is then the whole table,
    /// and the smallest candidate may be far smaller than it says), else its estimate.
    private func hundredths(_ source: NodeID, _ run: any RunnerContext) -> Int? {
        samplesAsked = true
        return samples.hundredths(source, run) ?? run.estimate(source).map { $0 * 100 }
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
        candidates.first { emptiness($0, run) == .provablyEmpty && absorption($0, run) == .goesOn }
    }

    /// Where a source's emptiness goes.
    private enum Absorption: Equatable {
        /// Up some way from the source, an empty operand empties its node.
        case goesOn
        /// Every way up ends where it changes nothing; `startsASharedNode`: a node on the
        /// way (the absorbing one included) has more than one parent.
        case absorbed(startsASharedNode: Bool)
    }

    /// Whether a source's emptiness goes nowhere: every way up from it, through operators an
    /// empty operand empties (select, project, rename, closure), ends at a difference's right
    /// operand (its left one not complete) or at a union another of whose operands may still deliver rows (it has not
    /// completed and an undrained source under it is not known to be empty). Drained first it
    /// then saves no row, but it starts the nodes above it, and a started subtree is never
    /// copied: such a source is not drained first (left to the ordering). Issue 15, forty-first
    /// session, held-out seed 550 case 1812 at `--rows 300`: `shared = t0 union t0 select (a
    /// contradiction)` under `shared join (t2 join shared)`, `t2` empty. The select's copy of
    /// `t0` was drained first (0 rows) and started `shared`, so when `t2`'s empty join gave it
    /// `false` it could not be copied apart from the output join, which waited on it: `t0` was
    /// read whole (86 rows against 0).
    ///
    /// The ordering still drains it first when it is estimated at no row (its filter
    /// `false`, or an index that finds nothing), so where it would start a node with more
    /// than one parent, one a copy may yet split, it is deferred. Held-out seeds 563 case
    /// 62 (`shared = t1 minus t1 select (… and false …)` under `shared join (shared join
    /// (t0 join t2) select (…))`, 63 rows against 1) and 576 case 219 (`shared = t1 union
    /// t1 select (…)` under `shared join t0 intersect (shared union t1)`, 278 against 17),
    /// both at `--rows 300`. Not elsewhere: its completion is what lets a difference above
    /// it deliver (kept repro 149/1583: deferred, `t1 minus t1 select (…)`'s two rows
    /// waited, and `t0`, unkeyed, gave 19 rows against 2). A union whose other operands
    /// are all empty too passes the emptiness on: two copies of `t0` under `t0 union t0
    /// rename […]`, both `false`, drained first, empty a join above (deferred, seven cases
    /// of the hunted corpus read up to 5 rows more).
    private func absorption(_ source: NodeID, _ run: any RunnerContext) -> Absorption {
        let graph = run.graph
        // The common answer, a source one join reads, without the walk's list.
        if graph[source].parents.count == 1, graph[source].outputs.isEmpty {
            switch graph[graph[source].parents[0].parent].operation {
            case .apply(.join), .apply(.intersection): return .goesOn
            default: break
            }
        }
        var pending = [source]
        var visits = 0
        var shared = false
        while let id = pending.popLast() {
            visits += 1
            guard visits <= 32, graph[id].outputs.isEmpty else { return .goesOn }
            if graph[id].parents.count > 1 { shared = true }
            for up in graph[id].parents {
                switch graph[up.parent].operation {
                case .apply(.select), .apply(.project), .apply(.rename), .apply(.closure):
                    pending.append(up.parent)
                case .apply(.union):
                    let others = graph[up.parent].children.indices.filter { $0 != up.operand }
                    if others.contains(where: { mayDeliverRows(graph.child(at: Edge(parent: up.parent, operand: $0)), run) }) {
                        if graph[up.parent].parents.count > 1 { shared = true }
                    } else {
                        pending.append(up.parent)
                    }
                case .apply(.difference):
                    // Once the left operand is complete, the right one's completion completes
                    // the difference, and what it delivers (or its emptiness) goes on.
                    if up.operand == 0 || run.isComplete(graph.child(at: Edge(parent: up.parent, operand: 0))) {
                        return .goesOn
                    }
                    if graph[up.parent].parents.count > 1 { shared = true }
                case .apply(.join), .apply(.intersection), .source, .dead:
                    return .goesOn
                }
            }
        }
        return .absorbed(startsASharedNode: shared)
    }

    /// Whether a node not complete has an undrained source under it not known to be empty
    /// (within 32 nodes; beyond, it is assumed to).
    private func mayDeliverRows(_ node: NodeID, _ run: any RunnerContext) -> Bool {
        let graph = run.graph
        var pending = [node]
        var visits = 0
        while let id = pending.popLast() {
            visits += 1
            guard visits <= 32 else { return true }
            guard !run.isComplete(id) else { continue }
            if case .source = graph[id].operation {
                if run.hasStarted(id) || emptiness(id, run) == .notEmpty { return true }
                continue
            }
            pending.append(contentsOf: graph[id].children)
        }
        return false
    }

    /// Cheapest refusals first: a filter that is not active or is `true` needs no graph node
    /// or estimate.
    private func emptiness(_ node: NodeID, _ run: any RunnerContext) -> Emptiness {
        // Asked again for every candidate at every pick: the answer holds while the node's
        // filter is the same (its tables do not change in a run), and an empty one stays
        // empty. Checked by the filter's version, the memo costs no look at the filter: with
        // thousands of candidates (a source copied once per select of a thousand), reading
        // the node's state and comparing filters cost about 500 instructions a candidate.
        let version = run.filterVersion(of: node)
        if node < checked.count, let known = checked[node], known.run == runNumber,
            known.emptiness != .notEmpty || known.version == version {
            return known.emptiness
        }
        let found = emptinessUnderActiveFilter(node, run)
        if node >= checked.count { checked += repeatElement(nil, count: node + 1 - checked.count) }
        checked[node] = (version, found, runNumber)
        return found
    }

    private func emptinessUnderActiveFilter(_ node: NodeID, _ run: any RunnerContext) -> Emptiness {
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return emptyTable(node, run) }
        // The node's fields read in place: binding it copied the whole node (its edge lists too).
        let graph = run.graph
        guard case .source = graph[node].operation else { return .notEmpty }
        if filter.isUnsatisfiable { return .estimatedEmpty }
        return emptiness(filter, node, graph, run)
    }

    /// A memory table with no row is empty whatever filter it is given. Its estimate is 0, so
    /// the ordering drains it first; under a union below a node with two parents that
    /// starts the union, which then cannot be copied (see `absorption`). Held-out seed 349
    /// case 698 at the default rows: `shared = t1 union t0 rename […]` under `t2 join
    /// shared join shared project [c, d] join t2`, `t1` empty, `t2` one row, `t0` 497. Drained
    /// first, `t1` started `shared`, `t2`'s key could not be copied down to one reader, and
    /// `t0` was read whole (498 rows against 105). The estimate, cached by the runner, is
    /// asked first: the graph is read (a copy of the operation, a retain) only for a
    /// candidate estimated at no row.
    private func emptyTable(_ node: NodeID, _ run: any RunnerContext) -> Emptiness {
        guard run.estimate(node) == 0, case let .source(source) = run.graph[node].operation, source is MemoryTable
        else { return .notEmpty }
        return .estimatedEmpty
    }

    private func emptiness(_ filter: Predicate, _ node: NodeID, _ graph: PlanGraph, _ run: any RunnerContext) -> Emptiness {
        // A filter whose equality pins an attribute that another conjunct rejects matches
        // nothing, whatever an index estimates for the equality alone (issue 15, sixteenth
        // session, held-out seed 90 case 1913: a join's null key AND-ed onto a select's `c >
        // 5`, `t2` estimated at the 22 rows its index holds for `c == null`; a five-row
        // table was drained before it, 6 rows against 1).
        // So does one comparing two attributes both ways (`b < e and b > e`; held-out seed
        // 190 case 1238 at `--rows 3000`: no index reads it, and `t0`, sampled at about 10
        // of its 2,670 rows, was drained after a 5-row table, 5 rows against 0).
        if filter.conjunctsContradict { return .provablyEmpty }
        guard let estimate = run.estimate(node) else { return .notEmpty }
        // A memory table's estimate counts what its index finds, every match among them:
        // none found, none match (held-out seed 576 case 219, see `absorption`).
        if estimate == 0, case let .source(source) = graph[node].operation {
            return source is MemoryTable ? .estimatedEmpty : .notEmpty
        }
        // The source bound (its existential copied) only once the estimate has passed.
        guard estimate > 0, let whole = graph[node].approximateCount, case let .source(source) = graph[node].operation
        else { return .notEmpty }
        // An index may count an OR by the parts it reads, rows of a part that another of its
        // conjuncts rules out among them. Held-out seed 639 case 663 at `--rows 300`: `t2 select
        // ((c == "a" and d < 10) or (d < 5 and c == null and c >= 72.0))`, `t2` indexed on
        // `c`, estimated at the 19 rows whose `c` is null; a five-row table went first, read
        // whole (5 rows against 0).
        guard estimate >= whole else {
            guard case .or = filter else { return .notEmpty }
            return everyDisjunctFindsNothing(filter, source) ? .provablyEmpty : .notEmpty
        }
        return source.provablyMatchesNothing(filter) || indexFindsNothing(filter, source)
            || everyDisjunctFindsNothing(filter, source) ? .provablyEmpty : .notEmpty
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

    /// An OR each of whose parts the column ranges rule out, an index finds nothing for or
    /// its own conjuncts contradict (`Predicate.conjunctsContradict`), where the whole is
    /// answered by none of them (a range beside an equality, with a hash index on the
    /// column). Held-out seed 207 case 1033 at `--rows 3000`: `t1 select ((d >
    /// 9007199254740992.0 or d == 78) or (… and false)) join t0`, `t1` 1,452 rows indexed on
    /// `d`, none above the range's bound or equal to 78. Sampled at under a row, it went
    /// after `t0`'s five rows (5 rows against 0).
    private func everyDisjunctFindsNothing(_ filter: Predicate, _ source: any SourceRelation) -> Bool {
        guard case let .or(parts) = (filter.negationsPushed ?? filter).flattened else { return false }
        return parts.allSatisfy { part in
            part.isUnsatisfiable || part.conjunctsContradict || source.provablyMatchesNothing(part)
                || (source.canFetchSelectively(part) && source.estimatedCount(filter: part) == 0)
        }
    }
}
