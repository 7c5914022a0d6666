import Relational

/// Draws one random case: 1–4 small tables (0–6 rows, nulls and every value class, some
/// attributes indexed), then a DAG of 1–8 operations where operands are drawn from every
/// node made so far, so subexpressions get shared by two parents, tables are joined with
/// themselves, and unions/differences/intersections meet renamed operands. The first
/// output also gets the partition oracle's `select p` / `select not p` pair.
///
/// With `maxRows` set (`verify --random N --rows R`), tables are larger: each holds 0, 1,
/// 2, 5, R/10, R/2 or R drawn rows (fewer once equal rows coalesce), over key domains that
/// grow with R. Small tables beside large ones let join filters fire; large ones span many
/// batches.
public struct RandomCaseGenerator {
    static let attributePool: [Attribute] = ["a", "b", "c", "d", "e"]
    static let maxWidth = 5
    /// The largest `maxRows` accepted (`--rows`).
    public static let rowLimit = 5000

    /// Rows per table at most; nil for the classic small tables (0–6 rows).
    public let maxRows: Int?
    let domain: RandomValues.Domain
    /// One storage class per column (numbers may mix integers and reals), for engines with
    /// typed columns: attribute `d` holds text, the others numbers. The same random draws
    /// are made either way.
    public let typedColumns: Bool

    public init(maxRows: Int? = nil, typedColumns: Bool = false) {
        self.typedColumns = typedColumns
        self.maxRows = maxRows.map { min(max($0, 1), Self.rowLimit) }
        domain = RandomValues.Domain(keys: self.maxRows.map { max(4, $0 / 4) })
    }

    /// How often each operator is drawn, relative to the others.
    public static func weight(_ kind: Operator.Kind) -> Int {
        switch kind {
        case .select: return 20
        case .project: return 10
        case .rename: return 10
        case .union: return 14
        case .intersection: return 8
        case .difference: return 10
        case .join: return 24
        case .closure: return 8
        }
    }

    /// The order operators are drawn in (fixed, so a seed always draws the same case).
    public static let drawOrder: [Operator.Kind] = [.select, .project, .rename, .union, .intersection, .difference, .join, .closure]

    public func makeCase(_ random: inout VerificationRandom) -> CaseGraph {
        // Large tables: more of them, so a large one usually has a small one to meet.
        let tableCounts = maxRows == nil ? [0, 4, 4, 2, 1] : [0, 1, 4, 3, 2]
        let tables = (0..<random.weighted(tableCounts)).compactMap { makeTable($0, &random) }
        guard !tables.isEmpty else { return CaseGraph(tables: [], nodes: [], outputs: []) }
        var builder = Builder(tables: tables, domain: domain)
        if maxRows != nil, random.chance(0.6) { builder.addLookupJoin(&random) }
        let operations = random.int(1...8)
        for _ in 0..<operations { builder.addRandomOperation(&random) }
        var outputs = [builder.nodes.count - 1]
        if random.chance(0.3), let extra = random.element(of: Array(builder.nodes.indices)), extra != outputs[0] {
            outputs.append(extra)
        }
        let whole = outputs[0]
        let p = RandomPredicate.make(over: builder.schemes[whole], domain: domain, &random)
        let matching = builder.add(.select(whole, p), scheme: builder.schemes[whole])
        let rest = builder.add(.select(whole, .not(p)), scheme: builder.schemes[whole])
        let graph = CaseGraph(
            tables: builder.tables, nodes: builder.nodes, outputs: outputs + [matching, rest],
            partition: PartitionOutputs(whole: 0, matching: outputs.count, rest: outputs.count + 1))
        return graph.compacted()
    }

    func makeTable(_ index: Int, _ random: inout VerificationRandom) -> CaseTable? {
        let attributes = random.subset(of: Self.attributePool, sizes: 1...3)
        guard let scheme = try? Scheme(attributes) else { return nil }
        let columns = attributes.map { attribute -> RandomValues.Column in
            let drawn = RandomValues.Column.random(&random)
            guard typedColumns else { return drawn }
            return attribute == "d" ? .text : .smallIntegers
        }
        let count: Int
        if let maxRows {
            count = [0, 1, 2, 5, max(1, maxRows / 10), maxRows / 2, maxRows][random.weighted([1, 3, 2, 2, 2, 3, 3])]
        } else {
            count = [0, 1, 2, 3, 4, 5, 6][random.weighted([2, 3, 3, 3, 3, 2, 2])]
        }
        let rows = (0..<count).map { _ in Row(columns.map { RandomValues.value(for: $0, in: domain, &random) }) }
        return CaseTable(
            name: "t\(index)", scheme: scheme, rows: rows,
            indexedAttributes: attributes.filter { _ in random.chance(0.5) })
    }
}

/// Grows a case graph node by node, tracking each node's scheme.
private struct Builder {
    let tables: [CaseTable]
    let domain: RandomValues.Domain
    var nodes: [CaseOperation] = []
    var schemes: [Scheme] = []

    init(tables: [CaseTable], domain: RandomValues.Domain) {
        self.tables = tables
        self.domain = domain
        for (i, t) in tables.enumerated() {
            nodes.append(.table(i))
            schemes.append(t.scheme)
        }
    }

    @discardableResult
    mutating func add(_ op: CaseOperation, scheme: Scheme) -> Int {
        nodes.append(op)
        schemes.append(scheme)
        return nodes.count - 1
    }

    /// An operand: the newest node half the time (deep graphs), else any node (sharing).
    func pick(_ random: inout VerificationRandom) -> Int {
        random.chance(0.5) ? nodes.count - 1 : random.int(0...(nodes.count - 1))
    }

    mutating func addRandomOperation(_ random: inout VerificationRandom) {
        let a = pick(&random)
        let scheme = schemes[a]
        let order = RandomCaseGenerator.drawOrder
        switch order[random.weighted(order.map(RandomCaseGenerator.weight))] {
        case .select:
            add(.select(a, RandomPredicate.make(over: scheme, domain: domain, &random)), scheme: scheme)
        case .project:
            let kept = random.subset(of: scheme.attributes, sizes: 1...max(1, scheme.count - 1))
            guard !kept.isEmpty, let s = try? Scheme(kept) else { return }
            add(.apply(.project(s), [a]), scheme: s)
        case .rename:
            addRename(a, &random)
        case .union, .intersection, .difference:
            // Which set operator is drawn again, after the partner, with the same weights
            // (kept so that seeds reproduce the cases they always did).
            let b = partner(for: a, &random)
            let setOperators: [Operator] = [.union, .intersection, .difference]
            let op = setOperators[random.weighted(setOperators.map { RandomCaseGenerator.weight($0.kind) })]
            add(.apply(op, [a, b]), scheme: scheme)
        case .join:
            addJoin(a, &random)
        case .closure:
            addClosure(a, &random)
        }
    }

    /// A closure over two attributes of `node` or of a table, either way round. Sometimes the edges are
    /// first united with their reverses, so every edge lies on a cycle (and an edge with
    /// equal ends is a self-loop); nulls in the columns make null endpoints.
    mutating func addClosure(_ node: Int, _ random: inout VerificationRandom) {
        // Half the time straight over a table, so the edges can be fetched by key.
        let a = random.chance(0.5) && !tables.isEmpty ? random.int(0...(tables.count - 1)) : node
        var edges = a
        var scheme = schemes[a]
        if scheme.count > 2 {
            let kept = random.subset(of: scheme.attributes, sizes: 2...2)
            guard kept.count == 2, let s = try? Scheme(kept) else { return }
            edges = add(.apply(.project(s), [a]), scheme: s)
            scheme = s
        }
        guard scheme.count == 2 else {
            add(.select(a, RandomPredicate.make(over: scheme, &random)), scheme: scheme)
            return
        }
        var ends = scheme.attributes
        if random.chance(0.5) { ends.reverse() }
        if random.chance(0.4) {
            let reversed = add(.apply(.rename([ends[0]: ends[1], ends[1]: ends[0]]), [edges]), scheme: scheme)
            edges = add(.apply(.union, [edges, reversed]), scheme: scheme)
        }
        let closure = add(.apply(.closure(from: ends[0], to: ends[1]), [edges]), scheme: scheme)
        // Half the time pin one end to one or two values from the tables (`closure-seeding`
        // then searches from them, through several starts that may share descendants).
        let values = Array(Set(tables.flatMap { $0.rows.flatMap(\.values) })).sorted()
        if random.chance(0.5), let first = random.element(of: values), let second = random.element(of: values) {
            let end = random.chance(0.7) ? ends[0] : ends[1]
            let pin: Predicate = random.chance(0.5) ? end *== first : .any([end *== first, end *== second])
            add(.select(closure, pin), scheme: scheme)
        }
    }

    /// The seed's lookup (large tables only): the largest table joined with a small one
    /// (at most 20 rows) on a shared attribute, or on a pair of attributes when they share
    /// none, so the small side's keys can become a join filter on the large side.
    mutating func addLookupJoin(_ random: inout VerificationRandom) {
        guard let large = tables.indices.max(by: { tables[$0].rows.count < tables[$1].rows.count }),
            let small = random.element(of: tables.indices.filter { $0 != large && tables[$0].rows.count <= 20 })
        else { return }
        let left = schemes[large], right = schemes[small]
        var pairs = left.attributes.filter(right.contains).map { JoinPair($0, $0) }
        if pairs.isEmpty, let x = random.element(of: left.attributes), let y = random.element(of: right.attributes) {
            pairs = [JoinPair(x, y)]
        }
        let all = Set(left.attributes).union(right.attributes)
        guard all.count <= RandomCaseGenerator.maxWidth, let scheme = try? Scheme(Array(all)) else { return }
        add(random.chance(0.5)
                ? .apply(.join(pairs), [large, small])
                : .apply(.join(pairs.map { JoinPair($0.right, $0.left) }), [small, large]),
            scheme: scheme)
    }

    /// Renames one or more attributes to names the scheme does not use.
    mutating func addRename(_ a: Int, _ random: inout VerificationRandom) {
        let scheme = schemes[a]
        var free = RandomCaseGenerator.attributePool.filter { !scheme.contains($0) } + ["f", "g"]
        random.shuffle(&free)
        let olds = random.subset(of: scheme.attributes, sizes: 1...scheme.count)
        var map: [Attribute: Attribute] = [:]
        for (old, new) in zip(olds, free) { map[old] = new }
        let kept = scheme.attributes.filter { map[$0] == nil }
        guard !map.isEmpty, let s = try? Scheme(kept + Array(map.values)) else { return }
        add(.apply(.rename(map), [a]), scheme: s)
    }

    /// A node with `a`'s scheme: an existing one (possibly `a` itself), or another node of
    /// the same width renamed position by position, or a select of `a`.
    mutating func partner(for a: Int, _ random: inout VerificationRandom) -> Int {
        let scheme = schemes[a]
        let same = schemes.indices.filter { schemes[$0] == scheme }
        if random.chance(0.6), let b = random.element(of: same.filter { $0 != a }) { return b }
        let width = schemes.indices.filter { schemes[$0] != scheme && schemes[$0].count == scheme.count }
        if random.chance(0.7), let c = random.element(of: width) {
            var map: [Attribute: Attribute] = [:]
            for (old, new) in zip(schemes[c].attributes, scheme.attributes) where old != new { map[old] = new }
            return add(.apply(.rename(map), [c]), scheme: scheme)
        }
        if random.chance(0.3) { return a }
        return add(.select(a, RandomPredicate.make(over: scheme, domain: domain, &random)), scheme: scheme)
    }

    /// A natural join (shared attributes matched), sometimes with an extra pair of
    /// differently named attributes; a self-join when `b` is `a` or a rename of it.
    mutating func addJoin(_ a: Int, _ random: inout VerificationRandom) {
        var b = pick(&random)
        if random.chance(0.15) { b = a }
        // Large tables: half the joins meet a small table, whose rows become a join filter
        // (an IN-set of many keys) on the large side.
        if domain.keys != nil, random.chance(0.5),
            let small = random.element(of: tables.indices.filter { $0 != a && tables[$0].rows.count <= 20 })
        {
            b = small
        }
        let left = schemes[a], right = schemes[b]
        let shared = left.attributes.filter(right.contains)
        var pairs = shared.map { JoinPair($0, $0) }
        let onlyLeft = left.attributes.filter { !right.contains($0) }
        let onlyRight = right.attributes.filter { !left.contains($0) }
        if random.chance(0.3), let x = random.element(of: onlyLeft), let y = random.element(of: onlyRight) {
            pairs.append(JoinPair(x, y))
        }
        let all = Set(left.attributes).union(right.attributes)
        guard all.count <= RandomCaseGenerator.maxWidth, let s = try? Scheme(Array(all)) else {
            // Too wide: filter instead, keeping the graph growing.
            add(.select(a, RandomPredicate.make(over: left, domain: domain, &random)), scheme: left)
            return
        }
        add(.apply(.join(pairs), [a, b]), scheme: s)
    }
}

extension VerificationRandom {
    mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            let j = int(0...i)
            if i != j { items.swapAt(i, j) }
        }
    }
}
