import Relational

/// Evaluates a derivative graph whose every read is either a tiny table (a delta, or a
/// source of a few rows) or an index lookup keyed by rows already in hand — the reads the
/// engine's join filter makes of the same graph — without planning, optimizing and running
/// it. A change to one or two rows then costs a few hash lookups instead of an engine run
/// per changed operator.
///
/// It is used only under flags that make the engine read the graph the same way (see
/// `init?(flags:)`), so switching a heuristic off still sends every rule through the
/// engine, and it gives up (`NotALookup`) on anything else: a scan of a large table, a key
/// set larger than `join-filter-threshold`, a closure. The caller then runs the graph.
final class DeltaLookup {
    /// `attributes` of a row, in that order, are one of `keys`.
    private struct KeyFilter: Hashable {
        let attributes: [Attribute]
        let keys: Set<Row>
        var predicate: Predicate { .inSet(attributes: attributes, keys: keys) }
    }

    struct NotALookup: Error {}

    /// The most keys one lookup may carry, and the most rows a table read whole may have.
    private let limit: Int
    /// Every row of a relation, once read or handed over, by relation identity for the
    /// whole propagation; each entry keeps its relation alive (a freed graph's address could
    /// otherwise be reused by a new one). Filtered reads are not kept: they are rarely
    /// repeated, and keying on their key sets costs more than they save.
    private var memo: [ObjectIdentifier: (relation: Relation, rows: [Row])] = [:]
    /// Rows fetched, by source identity (as `RunCounters.rowsReadBySource`).
    private(set) var rowsReadBySource: [ObjectIdentifier: Int] = [:]
    private(set) var rowsRead = 0
    /// Graphs evaluated here rather than by the engine.
    private(set) var evaluations = 0

    /// Nil unless the flags have the engine turn small operands into index lookups and order
    /// its reads by estimate: the join filter (`join-filter-threshold` > 0) passed down
    /// through operators (`join-filter-pushdown`) and set operations (`set-operand-filter`),
    /// `filter-aware-ordering`, and `initiator-ordering=smallest-estimate-first`.
    init?(flags: FlagSet) {
        guard let threshold = flags[JoinFilterThreshold.threshold], threshold > 0,
              flags.isOn(JoinFilterPushdown.pushdown), flags.isOn(SetOperandFilter.filtering),
              flags.isOn(FilterAwareOrdering.awareness),
              flags[InitiatorOrdering.ordering] == SmallestEstimateFirst().name
        else { return nil }
        limit = threshold
    }

    /// The rows of `relation`, or nil when it needs more than lookups (rows read before
    /// giving up stay counted).
    func rows(of relation: Relation) throws -> [Row]? {
        do {
            let out = try rows(relation, [])
            evaluations += 1
            return out
        } catch is NotALookup {
            return nil
        }
    }

    /// Hands over rows already in memory (a rule's result, before its parent's rules read
    /// it): `relation` is answered from them, without a read.
    func know(_ relation: Relation, rows: [Row]) {
        memo[ObjectIdentifier(relation)] = (relation, rows)
    }

    private func rows(_ relation: Relation, _ filters: [KeyFilter]) throws -> [Row] {
        if filters.contains(where: { $0.keys.isEmpty }) { return [] }
        if let all = memo[ObjectIdentifier(relation)]?.rows {
            // Every row is in hand already: filter them rather than read again.
            return filters.isEmpty ? all : Self.matching(all, filters, relation.scheme)
        }
        let out: [Row]
        switch relation.definition {
        case let .source(source):
            out = try fetch(source, filters)
        case let .apply(op, operands):
            out = try apply(op, operands, relation.scheme, filters)
        }
        if filters.isEmpty { memo[ObjectIdentifier(relation)] = (relation, out) }
        return out
    }

    private static func matching(_ rows: [Row], _ filters: [KeyFilter], _ scheme: Scheme) -> [Row] {
        let tests = filters.map { f in (positions: f.attributes.map { scheme.index(of: $0)! }, keys: f.keys) }
        return rows.filter { row in tests.allSatisfy { $0.keys.contains(row.picking($0.positions)) } }
    }

    private func fetch(_ source: any SourceRelation, _ filters: [KeyFilter]) throws -> [Row] {
        let out: [Row]
        if let table = source as? MemoryTable, let fast = try lookUp(table, filters) {
            out = fast
        } else {
            let predicate: Predicate? = filters.isEmpty ? nil : .all(filters.map(\.predicate))
            let small = (source.estimatedCount(filter: nil) ?? Int.max) <= limit
            guard small || (predicate.map(source.canFetchSelectively) ?? false) else { throw NotALookup() }
            out = try source.fetchAll(filter: predicate)
        }
        rowsRead += out.count
        rowsReadBySource[ObjectIdentifier(source), default: 0] += out.count
        return out
    }

    /// The common cases without compiling a predicate: a small table read whole, or one
    /// indexed attribute looked up value by value (the other filters then test the rows
    /// found). Nil when the filters constrain no indexed attribute.
    private func lookUp(_ table: MemoryTable, _ filters: [KeyFilter]) throws -> [Row]? {
        if filters.isEmpty {
            guard table.count <= limit else { throw NotALookup() }
            return table.allRows
        }
        // The indexed attribute with the fewest values to look up; on a tie, the table's
        // first index (where a table's key is declared by convention).
        var best: (attribute: Attribute, values: Set<Value>, rank: Int)?
        for f in filters {
            for (i, a) in f.attributes.enumerated() {
                guard let rank = table.indexedAttributes.firstIndex(of: a) else { continue }
                var values = Set<Value>()
                for key in f.keys { values.insert(key.values[i]) }
                if let b = best, (b.values.count, b.rank) <= (values.count, rank) { continue }
                best = (a, values, rank)
            }
        }
        guard let (attribute, values, _) = best else { return nil }
        var found: [Row] = []
        for v in values { found += try table.lookup(attribute, v) }
        return Self.matching(found, filters, table.scheme)
    }

    /// Rows of `relation` matching `filters`, estimated from the sources' indexes without
    /// reading them; used only to choose which side of a join to read first.
    private func estimate(_ relation: Relation, _ filters: [KeyFilter]) -> Int {
        switch relation.definition {
        case let .source(source):
            let predicate: Predicate? = filters.isEmpty ? nil : .all(filters.map(\.predicate))
            return source.estimatedCount(filter: predicate) ?? Int.max
        case let .apply(op, operands):
            switch op {
            case .select, .project: return estimate(operands[0], filters)
            case let .rename(map): return estimate(operands[0], Self.renamedBack(filters, map))
            case .union: return operands.reduce(0) { $0.addingReportingOverflow(estimate($1, filters)).partialValue }
            case .difference, .intersection: return estimate(operands[0], filters)
            case let .join(pairs):
                let (left, right, _) = Self.split(filters, pairs, operands[0].scheme, operands[1].scheme)
                return min(estimate(operands[0], left), estimate(operands[1], right))
            case .closure: return Int.max
            }
        }
    }

    private func apply(_ op: Operator, _ operands: [Relation], _ scheme: Scheme, _ filters: [KeyFilter]) throws -> [Row] {
        switch op {
        case let .select(predicate):
            let test = try CompiledPredicate(predicate, scheme: operands[0].scheme)
            return try rows(operands[0], filters).filter(test.matches)
        case .project:
            let map = ColumnMap.project(from: operands[0].scheme, to: scheme)
            return Self.distinct(try rows(operands[0], filters).map(map.apply))
        case let .rename(names):
            let map = ColumnMap.rename(from: operands[0].scheme, to: scheme, map: names)
            return try rows(operands[0], Self.renamedBack(filters, names)).map(map.apply)
        case .union:
            return Self.distinct(try operands.flatMap { try rows($0, filters) })
        case .difference, .intersection:
            let left = try rows(operands[0], filters)
            guard !left.isEmpty else { return [] }
            let keys = Set(left)
            guard keys.count <= limit else { throw NotALookup() }
            let matching = Set(try rows(operands[1], filters + [KeyFilter(attributes: scheme.attributes, keys: keys)]))
            let keep = op == .intersection
            return left.filter { matching.contains($0) == keep }
        case let .join(pairs):
            return try join(pairs, operands[0], operands[1], scheme, filters)
        case .closure:
            throw NotALookup()
        }
    }

    /// Reads the side with the smaller estimate first, then the other side's rows matching
    /// its join keys (the join filter), and pairs them up by key.
    private func join(_ pairs: [JoinPair], _ a: Relation, _ b: Relation, _ scheme: Scheme, _ filters: [KeyFilter]) throws -> [Row] {
        let (leftFilters, rightFilters, rest) = Self.split(filters, pairs, a.scheme, b.scheme)
        let layout = JoinLayout(left: a.scheme, right: b.scheme, pairs: pairs, output: scheme)
        let leftFirst = estimate(a, leftFilters) <= estimate(b, rightFilters)
        let first = try leftFirst ? rows(a, leftFilters) : rows(b, rightFilters)
        guard !first.isEmpty else { return [] }
        let firstKey = leftFirst ? layout.leftKey(of:) : layout.rightKey(of:)
        var byKey: [Row: [Row]] = [:]
        for row in first { byKey[firstKey(row), default: []].append(row) }
        var secondFilters = leftFirst ? rightFilters : leftFilters
        if !pairs.isEmpty {
            guard byKey.count <= limit else { throw NotALookup() }
            secondFilters.append(KeyFilter(attributes: pairs.map { leftFirst ? $0.right : $0.left }, keys: Set(byKey.keys)))
        }
        let second = try leftFirst ? rows(b, secondFilters) : rows(a, secondFilters)
        let secondKey = leftFirst ? layout.rightKey(of:) : layout.leftKey(of:)
        var out: [Row] = []
        for row in second {
            for match in byKey[secondKey(row)] ?? [] {
                out.append(leftFirst ? layout.combine(match, row) : layout.combine(row, match))
            }
        }
        guard !rest.isEmpty else { return out }
        let tests = rest.map { f in (positions: f.attributes.map { scheme.index(of: $0)! }, keys: f.keys) }
        return out.filter { row in tests.allSatisfy { $0.keys.contains(row.picking($0.positions)) } }
    }

    /// Each filter goes to the join operand that holds all its attributes under the same
    /// meaning (the left one for an attribute both have; both for a same-named join
    /// attribute); one that fits neither is applied to the joined rows.
    private static func split(_ filters: [KeyFilter], _ pairs: [JoinPair], _ left: Scheme, _ right: Scheme)
        -> (left: [KeyFilter], right: [KeyFilter], rest: [KeyFilter])
    {
        let shared = pairs.filter { $0.left == $0.right }.map(\.left)
        var l: [KeyFilter] = [], r: [KeyFilter] = [], rest: [KeyFilter] = []
        for f in filters {
            let toLeft = f.attributes.allSatisfy(left.contains)
            let toRight = f.attributes.allSatisfy { right.contains($0) && (!left.contains($0) || shared.contains($0)) }
            if toLeft { l.append(f) }
            if toRight { r.append(f) }
            if !toLeft && !toRight { rest.append(f) }
        }
        return (l, r, rest)
    }

    /// Filters on a rename's output, stated in its operand's attribute names.
    private static func renamedBack(_ filters: [KeyFilter], _ map: [Attribute: Attribute]) -> [KeyFilter] {
        guard !filters.isEmpty else { return filters }
        var old: [Attribute: Attribute] = [:]
        for (from, to) in map { old[to] = from }
        return filters.map { KeyFilter(attributes: $0.attributes.map { old[$0] ?? $0 }, keys: $0.keys) }
    }

    private static func distinct(_ rows: [Row]) -> [Row] {
        var seen = Set<Row>()
        return rows.filter { seen.insert($0).inserted }
    }
}
