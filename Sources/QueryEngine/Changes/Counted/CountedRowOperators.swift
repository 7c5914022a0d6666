import Relational

/// Select: stateless; its delta is its operand's, filtered, and its probes are its operand's.
final class CountedSelect: CountedNode {
    let core: CountedNodeCore
    let operand: any CountedNode
    private let predicate: CompiledPredicate

    init(relation: Relation, operand: any CountedNode, predicate: Predicate, context: CountedContext) throws {
        self.operand = operand
        self.predicate = try CompiledPredicate(predicate, scheme: operand.scheme)
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: operand.sourcesBelow)
    }

    func computeDelta() throws -> CountedDelta {
        CountedDelta(added: operand.delta.added.filter(predicate.matches),
                     removed: operand.delta.removed.filter(predicate.matches))
    }

    var canContain: Bool { operand.canContain }
    func canProbe(_ positions: [Int]) -> Bool { operand.canProbe(positions) }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try predicate.matches(row) && operand.contains(row, state)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        try operand.rows(matching: positions, key, state).filter(predicate.matches)
    }
}

/// Rename: stateless; values move between positions (the scheme stays sorted by name).
final class CountedRename: CountedNode {
    let core: CountedNodeCore
    let operand: any CountedNode
    /// For each output position, the operand position it comes from.
    private let fromOperand: [Int]
    /// For each operand position, the output position it goes to.
    private let toOutput: [Int]

    init(relation: Relation, operand: any CountedNode, map: [Attribute: Attribute], context: CountedContext) throws {
        self.operand = operand
        var oldName: [Attribute: Attribute] = [:]
        for (old, new) in map { oldName[new] = old }
        let from = try relation.scheme.attributes.map {
            try operand.scheme.requireIndex(of: oldName[$0] ?? $0, context: "counted rename")
        }
        fromOperand = from
        var to = Array(repeating: 0, count: from.count)
        for (out, o) in from.enumerated() { to[o] = out }
        toOutput = to
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: operand.sourcesBelow)
    }

    private func renamed(_ row: Row) -> Row { row.picking(fromOperand) }
    private func unrenamed(_ row: Row) -> Row { row.picking(toOutput) }

    func computeDelta() throws -> CountedDelta {
        CountedDelta(added: Set(operand.delta.added.map(renamed)), removed: Set(operand.delta.removed.map(renamed)))
    }

    var canContain: Bool { operand.canContain }
    func canProbe(_ positions: [Int]) -> Bool { operand.canProbe(positions.map { fromOperand[$0] }) }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try operand.contains(unrenamed(row), state)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        try operand.rows(matching: positions.map { fromOperand[$0] }, key, state).map(renamed)
    }
}

/// Project: a count per output row (how many operand rows project to it); a row is gained
/// when its count goes 0 → 1 and lost when it goes 1 → 0. When the projection keeps a key
/// of its operand (declared with `declareKey`) and the operand can be probed on the kept
/// attributes, there are no counts: each projected row comes from exactly one operand row,
/// so gained = project(A⁺) − project(A⁻), lost = project(A⁻) − project(A⁺), and membership
/// is a probe of the operand.
final class CountedProject: CountedNode {
    let core: CountedNodeCore
    let operand: any CountedNode
    /// Operand positions of the kept attributes, in output order.
    private let kept: [Int]
    /// Nil when the projection keeps a key (see above).
    private var counts: [Row: Int]?

    init(relation: Relation, operand: any CountedNode, keepsKey: Bool, context: CountedContext) throws {
        self.operand = operand
        kept = try relation.scheme.attributes.map { try operand.scheme.requireIndex(of: $0, context: "counted project") }
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: operand.sourcesBelow)
        if !(keepsKey && operand.canProbe(kept)) {
            var c: [Row: Int] = [:]
            for row in try context.evaluate(operand.relation) { c[row.picking(kept), default: 0] += 1 }
            counts = c
        }
    }

    /// Rows held in counts (the state this node keeps).
    var keptRows: Int { counts?.count ?? 0 }

    func computeDelta() throws -> CountedDelta {
        let d = operand.delta
        guard var c = counts else {
            let gained = Set(d.added.map { $0.picking(kept) })
            let lost = Set(d.removed.map { $0.picking(kept) })
            return CountedDelta(added: gained.subtracting(lost), removed: lost.subtracting(gained))
        }
        counts = nil  // keeps `c` uniquely referenced while it changes
        defer { counts = c }
        var out = CountedDelta()
        // Additions first: a row whose count was 0 gets no removals, so no count passes
        // through 0 on its way and each emission is final.
        for row in d.added {
            let x = row.picking(kept)
            let n = c[x, default: 0]
            c[x] = n + 1
            if n == 0 { out.added.insert(x) }
        }
        for row in d.removed {
            let x = row.picking(kept)
            let n = c[x, default: 0]
            if n <= 1 {
                c[x] = nil
                out.removed.insert(x)
            } else {
                c[x] = n - 1
            }
        }
        return out
    }

    var canContain: Bool { counts != nil || operand.canProbe(kept) }
    func canProbe(_ positions: [Int]) -> Bool { operand.canProbe(positions.map { kept[$0] }) }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        if let counts {
            let holds = counts[row] != nil
            return state == .after ? holds : heldBefore(row, holdsAfter: holds)
        }
        return try !operand.rows(matching: kept, row, state).isEmpty
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        var seen: Set<Row> = []
        var out: [Row] = []
        for row in try operand.rows(matching: positions.map { kept[$0] }, key, state) {
            let x = row.picking(kept)
            if seen.insert(x).inserted { out.append(x) }
        }
        return out
    }
}
