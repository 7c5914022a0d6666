import Relational

/// A sampled estimate of what a source delivers under its active filter, for a filter no
/// index answers: the source's own estimate is then its whole table, and System R's
/// guessed selectivities (1/10 an equality) cannot tell an equality that matches nothing
/// from one that matches a tenth.
///
/// The filter is tested on the table's statistics sample (`MemoryTable.statisticsSample()`:
/// at most 128 rows evenly spaced in stored order, every row of a table that small, built
/// once after a change of rows and kept, as `ANALYZE` keeps its sample), so a query reads
/// no row of the table for it, as it reads none for the column ranges `provably-empty-first`
/// uses. The estimate is the sampled fraction of the table; a sample with no match of a
/// larger table counts half a sampled row, or fewer when the filter pins values the sample
/// does not hold (`unseenValuesHundredths`), or more when it is attribute equalities whose
/// columns share frequent values (`equalAttributesHundredths`). Other sources (SQLite, Postgres) and a source
/// whose estimate an index narrowed answer nil: the caller keeps its own estimate.
///
/// Used only by heuristics added after the seed (`sampled-estimate-ordering`'s pick,
/// `filter-aware-ordering`'s sizes); the seed's smallest-estimate ordering never sees it.
/// One instance serves one run at a time (one reused for another run is emptied first,
/// `removeAll`): it remembers, per node, the filter it last sampled and the
/// answer (a filter changes only by narrowing, a handful of times a run), and by table and
/// filter across runs while the table's rows stay the same (`KeptSamples`).
final class SampledEstimates {
    /// Per node, this run's answer and the filter version it was found under.
    private var byVersion = PerNodeVersionMemo()
    private var known = PerNodeFilterMemo()
    private var knownResidual = PerNodeFilterMemo()
    /// Answers by table and filter, kept across a prepared query's runs (`removeAll` keeps
    /// them) while the table's rows are the same.
    private var kept = KeptSamples()

    /// The source's sampled size under its active filter in hundredths of a row, or nil when
    /// there is nothing to sample (no active filter, `true`, a source that is not a memory
    /// table). Two cases, by the source's estimate under the filter:
    ///
    /// - at least its whole table (no index answers the filter): the filter's matches in
    ///   the statistics sample, scaled to the table;
    /// - narrowed by an index that answers only part of the filter: the index's count,
    ///   scaled by the fraction of the sample that passes the conjuncts no index fetches
    ///   (`residualSample`); nil when there is no such part (every conjunct an indexed
    ///   equality or IN-set). Sampling the residual alone, not the whole filter, is
    ///   deliberate: the indexed part usually pins a key few sampled rows hold, and the
    ///   residual's selectivity is what tells two sources with the same index count apart.
    ///
    /// The checks the two share are made once: asked for every candidate of every pick,
    /// two functions asked in turn cost `many-selects-union` about 1,250 instructions a
    /// candidate.
    func hundredths(_ node: NodeID, _ run: any RunnerContext) -> Int? {
        // Asked for every candidate at every pick; the answer holds while the node's filter
        // is the same (`RunnerContext.filterVersion`), so it is kept with that version and
        // no filter is read or compared (about 790 instructions a candidate before).
        let version = run.filterVersion(of: node)
        if let known = byVersion.answer(node, version) { return known }
        let found = hundredthsUnderActiveFilter(node, run)
        byVersion.keep(found, node, version)
        return found
    }

    private func hundredthsUnderActiveFilter(_ node: NodeID, _ run: any RunnerContext) -> Int? {
        let state = run.filterState(of: node)
        guard state.isActive, let filter = state.filter, !filter.isConstantTrue else { return nil }
        // The node's fields read in place: binding it copied the whole node (its edge lists too).
        let graph = run.graph
        guard case let .source(source) = graph[node].operation, let table = source as? MemoryTable,
            let whole = graph[node].approximateCount, whole > 0, let estimate = run.estimate(node)
        else { return nil }
        if estimate >= whole {
            return known.answer(node, filter) { kept.answer(table, filter, residual: false) { Self.sample(table, filter) } }
        }
        if Self.isTupleSet(filter) {
            return knownResidual.answer(node, filter) {
                kept.answer(table, filter, residual: true) { Self.tupleSample(table, filter, indexCount: estimate) }
            }
        }
        guard case .and = filter else { return nil }
        return knownResidual.answer(node, filter) {
            kept.answer(table, filter, residual: true) { Self.residualSample(table, filter, indexCount: estimate) }
        }
    }

    /// Whether `filter` is an IN-set of tuples (a multi-attribute join's key filter). The
    /// table's indexes are on single attributes, so it is fetched by one attribute's values
    /// and its tuples are tested on the rows that returns: the index's count only bounds it.
    static func isTupleSet(_ filter: Predicate) -> Bool {
        if case let .inSet(attributes, _) = filter { return attributes.count > 1 }
        return false
    }

    /// An IN-set of tuples fetched by an index that counts `indexCount` rows for one of its
    /// attributes: the sample's matches of whole tuples scaled to the table, bounded by the
    /// index's count, in hundredths. Issue 15, held-out seed 499 case 1255 at `--rows 300`:
    /// `t3 join t0 join ((t2 minus t1 rename [c -> e]) join t3)`, `t0` 298 rows indexed on `a`
    /// and on `b`, given `(a, b) in {…}` by `t3`'s five rows. Sized at its index count, `t0`
    /// lost to `t2`'s sampled 16 rows, which were drained next (21 rows); no tuple is in `t0`,
    /// which drained first empties the join and leaves `t2` `false` (5 rows).
    static func tupleSample(_ table: MemoryTable, _ filter: Predicate, indexCount: Int) -> Int? {
        let (bound, overflow) = indexCount.multipliedReportingOverflow(by: 100)
        guard let sampled = plainSample(table, filter) else { return overflow ? nil : bound }
        return overflow ? sampled : min(sampled, bound)
    }

    /// `hundredths(_:_:)`'s first case for a caller that has made its checks (`filter` the
    /// source's active filter, not `true`; `table` its memory table, whose estimate under
    /// the filter is at least its whole, positive count): the memoized sample alone.
    func hundredths(_ node: NodeID, table: MemoryTable, filter: Predicate) -> Int? {
        known.answer(node, filter) { kept.answer(table, filter, residual: false) { Self.sample(table, filter) } }
    }

    /// `indexCount` (what the table's index finds for `filter`) scaled by the sampled
    /// fraction of the conjuncts the fetch leaves to test (`testedAfterTheFetch`), in
    /// hundredths; nil when there are none.
    static func residualSample(_ table: MemoryTable, _ filter: Predicate, indexCount: Int) -> Int? {
        let residual = testedAfterTheFetch(table, filter)
        guard !residual.isEmpty, table.count > 0, let fraction = plainSample(table, .all(residual)) else { return nil }
        // `plainSample` scaled the fraction to the whole table; rescale it to the index's count.
        let (scaled, overflow) = fraction.multipliedReportingOverflow(by: indexCount)
        return overflow ? Int.max : (scaled + table.count - 1) / table.count
    }

    /// The conjuncts of `filter` a fetch by the table's indexes does not answer: those no
    /// index reads, and those an index reads but on other attributes than the conjunct the
    /// estimate counts by (the one an index finds fewest rows for; the first on a tie). The
    /// fetch reads one index, and every other conjunct is tested on the rows it returns.
    ///
    /// The hunt's case (issue 15, twenty-seventh round, held-out seed 213 case 137):
    /// `(t3 join t0) select (e == null) select (a == null)`, `t0` 100 rows indexed on `a`
    /// and `e`, 12 and 14 nulls and none in both; `t3` 498 rows indexed on `e` alone. `t3`
    /// was sized at its 63 null `e` times the sampled share of null `a` (about 6 rows) while
    /// `t0`, every conjunct indexed, kept its index count (12): `t3` went first and delivered
    /// 5 rows, where `t0` delivers none and empties the join.
    static func testedAfterTheFetch(_ table: MemoryTable, _ filter: Predicate) -> [Predicate] {
        let conjuncts = filter.conjuncts
        var fetchedBy: (attributes: Set<Attribute>, count: Int)?
        for conjunct in conjuncts where table.canFetchSelectively(conjunct) {
            guard let count = table.estimatedCount(filter: conjunct) else { continue }
            if count < fetchedBy?.count ?? Int.max { fetchedBy = (conjunct.attributes, count) }
        }
        guard let fetchedBy else { return conjuncts }
        // An index-read conjunct on the fetched attributes alone (`a in {1, 2}` beside `a ==
        // 1`) is what the index answered: sampling it again would count it twice. One no
        // index reads (`a > 5`, a NOT) is tested whatever its attributes.
        return conjuncts.filter {
            !(table.canFetchSelectively($0) && $0.attributes.isSubset(of: fetchedBy.attributes))
        }
    }

    /// Forgets every per-node answer, keeping the storage (an instance reused for another
    /// run); the answers by table and filter stay while their tables' rows do.
    func removeAll() {
        known.removeAll()
        knownResidual.removeAll()
        byVersion.removeAll()
    }

    /// The filter's matches in the table's statistics sample, scaled to the table, in
    /// hundredths; for a filter whose NOTs hide an index-readable comparison, what the index
    /// finds for the pushed form (`negationsPushed`), scaled by the sample of the rest.
    ///
    /// The hunt's case (issue 15, twenty-seventh round, held-out seed 186 case 1472 at
    /// `--rows 3000`): `select (not (b != 321))` over 2,948 rows indexed on `b`. The 128-row
    /// sample held no 321, so it counted half a sampled row, about 11.5 rows, against a
    /// 5-row partner that then went first; the index finds 1 row.
    static func sample(_ table: MemoryTable, _ filter: Predicate) -> Int? {
        // A 128-row sample of a large table that matches nothing counts half a sampled row;
        // a filter that provably matches nothing is sized at nothing.
        if filter.conjunctsContradict { return 0 }
        if let pushed = filter.negationsPushed, table.canFetchSelectively(pushed),
            let indexCount = table.estimatedCount(filter: pushed), indexCount < table.count {
            if isTupleSet(pushed) { return tupleSample(table, pushed, indexCount: indexCount) }
            return residualSample(table, pushed, indexCount: indexCount) ?? indexCount * 100
        }
        return plainSample(table, filter)
    }

    /// A sample holding one match is the least a positive answer can say: scaled, it is the
    /// sample's spacing (7 rows of a 949-row table), whatever the table holds. On a table of
    /// at most this many rows the filter is then counted over every row, once per table
    /// version and filter (`KeptSamples` keeps it across runs): planning's look at the
    /// data, as the sample is, not a read (PostgreSQL's `ANALYZE` samples 30,000 rows, so
    /// its statistics of tables this small are exact). Issue 15, held-out seed 307 case 346
    /// at the default rows: `shared = t3 join [b = d] t0`, `(t0 join shared minus (t0 join
    /// shared union shared)) select (d <= e and e < 0)`, `t0` 949 rows indexed on `d`, one
    /// of them (in the sample) meeting the select, `t3` five. Sized at 7 rows, `t0` went
    /// after `t3`'s 5 (5 rows read); counted, it goes first, and its one row's null key
    /// empties the join (1 row). Counting every table of up to 1,024 rows whatever the
    /// sample held read more rows over the corpus than it saved (thirty-seventh session).
    static let exactCountLimit = 1_024

    private static func plainSample(_ table: MemoryTable, _ filter: Predicate) -> Int? {
        guard let compiled = try? CompiledPredicate(filter, scheme: table.scheme) else { return nil }
        let count = table.count
        guard count > 0 else { return 0 }
        let rows = table.statisticsSample()
        let sampled = rows.count
        guard sampled > 0 else { return nil }
        var matches = 0
        for row in rows where compiled.matches(row) { matches += 1 }
        if matches == 0 {
            guard sampled < count else { return 0 }
            let halfARow = (count * 100 + 2 * sampled - 1) / (2 * sampled)
            if let equal = equalAttributesHundredths(table, filter, rows) { return max(halfARow, equal) }
            guard let unseen = unseenValuesHundredths(table, filter, rows) else { return halfARow }
            return min(halfARow, max(100, unseen))
        }
        if matches == 1, sampled < count, count <= exactCountLimit {
            let columns = table.columns
            var all = 0
            for i in 0..<count where compiled.matches(columns.row(at: i)) { all += 1 }
            return all * 100
        }
        let (scaled, overflow) = (count * 100).multipliedReportingOverflow(by: matches)
        return overflow ? Int.max : (scaled + sampled - 1) / sampled
    }
}

extension SampledEstimates {
    /// What `filter` delivers when it pins an attribute to values none of which the sample
    /// holds, in hundredths: the rows one value unseen in the sample is expected to have,
    /// times the pinned values. The unseen values' share of the rows is Good and Turing's
    /// (the sample's values seen once, over the sample); it is spread over the distinct
    /// values not sampled, counted by Chao's estimator (`chaoDistinct`). The smallest over
    /// the pinned attributes; nil when no attribute qualifies.
    ///
    /// Half a sampled row, the answer otherwise, is what an unseen value of a column of few
    /// distinct values might hold, and far more than one of a column of many. Issue 15,
    /// held-out seed 192 case 250 at `--rows 3000`: `(t0 join t3) … select (not (g != 389))`,
    /// `t3` 1,390 rows whose `a` has 529 distinct values, one row of them 389, unindexed.
    /// Counted as half a sampled row (about 5.4 rows), `t3` waited behind `t0`'s 5 rows, which
    /// were then read, where `t3`'s one row keys `t0` to nothing (5 rows against 1). The
    /// sample's `a` has 70 values, 54 of them seen once and 3 twice: about 556 distinct
    /// values, 1.2 rows a value not sampled.
    static func unseenValuesHundredths(_ table: MemoryTable, _ filter: Predicate, _ rows: [Row]) -> Int? {
        let sampled = rows.count, count = table.count
        guard sampled > 0, sampled < count else { return nil }
        var found: Int?
        for (attribute, values) in (filter.negationsPushed ?? filter).pinnedValueSets {
            guard !values.isEmpty, let column = table.scheme.index(of: attribute) else { continue }
            var frequencies: [Value: Int] = [:]
            for row in rows { frequencies[row.values[column], default: 0] += 1 }
            guard values.allSatisfy({ frequencies[$0] == nil }) else { continue }
            let seenOnce = frequencies.values.count { $0 == 1 }, seenTwice = frequencies.values.count { $0 == 2 }
            let distinct = chaoDistinct(sampled: frequencies.count, seenOnce: seenOnce, seenTwice: seenTwice, rows: count)
            let notSampled = max(1, distinct - Double(frequencies.count))
            let perValue = Double(count) * Double(seenOnce) / Double(sampled) / notSampled
            let total = (perValue * Double(values.count) * 100).rounded(.up)
            guard total < Double(Int.max / 2) else { continue }
            found = min(found ?? Int.max, Int(total))
        }
        return found
    }

    /// What a filter of attribute equalities alone (`c == e`, ANDs of them) delivers when the
    /// sample's rows hold no match, in hundredths: for each equality, the rows whose two
    /// values would be equal if the columns were independent, from each column's value
    /// frequencies in the sample (`Σ f_c(v) · f_e(v)` over the sample's size squared, of the
    /// table); the smallest over the equalities. The 128 sampled rows are 128 chances of a
    /// match, their two columns 128² pairs, so a frequent shared value (a null in both: `null
    /// == null`) is seen there when no single row shows it. Nil for any other filter.
    ///
    /// Issue 15, held-out seed 265 case 1087 at `--rows 300`: `(t3 join [d = e] t0) select
    /// (c == e)`, `t0` 299 rows indexed on `e` alone, 8 of them with `c == e` (6 both null).
    /// The sample held none and counted half a sampled row, 1.2 rows, below `t3`'s 2, and
    /// `t0` went first (9 rows against 2: drained first, `t3`'s keys leave `t0` none). The
    /// sample's columns, 14 and 10 nulls among others, expect 4.9 rows.
    static func equalAttributesHundredths(_ table: MemoryTable, _ filter: Predicate, _ rows: [Row]) -> Int? {
        let sampled = rows.count
        guard sampled > 0 else { return nil }
        var found: Int?
        for part in filter.conjuncts {
            guard case let .comparison(.attribute(left), .equal, .attribute(right)) = part, left != right,
                let l = table.scheme.index(of: left), let r = table.scheme.index(of: right)
            else { return nil }
            var frequencies: [Value: Int] = [:]
            for row in rows { frequencies[row.values[l], default: 0] += 1 }
            var pairs = 0
            for row in rows { pairs += frequencies[row.values[r]] ?? 0 }
            let expected = (Double(table.count) * Double(pairs) / Double(sampled * sampled) * 100).rounded(.up)
            found = min(found ?? Int.max, Int(expected))
        }
        return found
    }

    /// Chao's (1984) estimate of a column's distinct values from a sample holding `sampled`
    /// of them, `seenOnce` once and `seenTwice` twice (bias-corrected when none is seen
    /// twice), at most the table's `rows`. It suits a column whose values are mostly rare,
    /// where the unseen values lie; the GEE estimator was tried first and counted a unique
    /// column's 3,000 values as 620 (6 rows a value).
    static func chaoDistinct(sampled: Int, seenOnce: Int, seenTwice: Int, rows: Int) -> Double {
        let f1 = Double(seenOnce)
        let unseen = seenTwice > 0 ? f1 * f1 / (2 * Double(seenTwice)) : f1 * (f1 - 1) / 2
        return min(Double(rows), Double(sampled) + unseen)
    }
}

/// One run's answers per node, each kept with the filter it answers: a node's filter only
/// narrows, a handful of times a run, so a repeated ask is a lookup.
struct PerNodeFilterMemo {
    private var known: [(filter: Predicate, hundredths: Int?)?] = []

    mutating func answer(_ node: NodeID, _ filter: Predicate, _ compute: () -> Int?) -> Int? {
        if node < known.count, let entry = known[node], entry.filter == filter { return entry.hundredths }
        let found = compute()
        if node >= known.count { known += repeatElement(nil, count: node + 1 - known.count) }
        known[node] = (filter, found)
        return found
    }

    /// Forgets every answer, keeping the storage (an empty list, the usual case, is left
    /// alone: emptying takes the array's generic range replacement).
    mutating func removeAll() {
        if !known.isEmpty { known.removeAll(keepingCapacity: true) }
    }
}

/// Sampled answers by table and filter, kept while the table's rows stay the same
/// (`MemoryTable.contentVersion`): a sample reads only the table's statistics sample and
/// indexes, which change only with its rows, so a prepared query's next run over unchanged
/// tables (a UI re-running a query after a change to another table) asks them afresh for
/// nothing. `many-selects-union` at 10k rows: eight selects of one table sampled every run
/// took about a sixth of `all-on`'s run. At most `limit` answers; past it they are dropped.
struct KeptSamples {
    private final class Entry {
        let table: MemoryTable
        let version: Int
        let filter: Predicate
        let residual: Bool
        let hundredths: Int?

        init(table: MemoryTable, version: Int, filter: Predicate, residual: Bool, hundredths: Int?) {
            self.table = table
            self.version = version
            self.filter = filter
            self.residual = residual
            self.hundredths = hundredths
        }
    }

    private var entries: [Entry] = []
    private static let limit = 64

    mutating func answer(_ table: MemoryTable, _ filter: Predicate, residual: Bool, _ compute: () -> Int?) -> Int? {
        let version = table.contentVersion
        for entry in entries
        where entry.table === table && entry.residual == residual && entry.version == version && entry.filter == filter {
            return entry.hundredths
        }
        let found = compute()
        if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
        entries.append(Entry(table: table, version: version, filter: filter, residual: residual, hundredths: found))
        return found
    }
}

/// Per node, one answer and the `RunnerContext.filterVersion` it holds for (one run's).
struct PerNodeVersionMemo {
    private var known: [(version: Int, hundredths: Int?)?] = []

    /// The answer kept for `node` under `version`: `.some(nil)` is a kept nil.
    func answer(_ node: NodeID, _ version: Int) -> Int?? {
        guard node < known.count, let entry = known[node], entry.version == version else { return nil }
        return .some(entry.hundredths)
    }

    mutating func keep(_ hundredths: Int?, _ node: NodeID, _ version: Int) {
        if node >= known.count { known += repeatElement(nil, count: node + 1 - known.count) }
        known[node] = (version, hundredths)
    }

    mutating func removeAll() {
        if !known.isEmpty { known.removeAll(keepingCapacity: true) }
    }
}
