import Relational

/// Union: stateless. A row an operand gained is gained unless another operand held it
/// before; a row an operand lost is lost unless another operand still holds it.
final class CountedUnion: CountedNode {
    let core: CountedNodeCore
    let operands: [any CountedNode]

    init(relation: Relation, operands: [any CountedNode], context: CountedContext) {
        self.operands = operands
        core = CountedNodeCore(relation: relation, context: context,
                               sourcesBelow: operands.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1.sourcesBelow) })
    }

    func computeDelta() throws -> CountedDelta {
        var out = CountedDelta()
        for (i, o) in operands.enumerated() {
            for row in o.delta.added where !out.added.contains(row) {
                if try !others(i).contains(where: { try $0.contains(row, .before) }) { out.added.insert(row) }
            }
            for row in o.delta.removed where !out.removed.contains(row) {
                if try !others(i).contains(where: { try $0.contains(row, .after) }) { out.removed.insert(row) }
            }
        }
        return out
    }

    private func others(_ i: Int) -> [any CountedNode] {
        operands.enumerated().filter { $0.offset != i }.map(\.element)
    }

    var canContain: Bool { operands.allSatisfy(\.canContain) }
    func canProbe(_ positions: [Int]) -> Bool { operands.allSatisfy { $0.canProbe(positions) } }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try operands.contains { try $0.contains(row, state) }
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        var seen: Set<Row> = []
        var out: [Row] = []
        for o in operands {
            for row in try o.rows(matching: positions, key, state) where seen.insert(row).inserted { out.append(row) }
        }
        return out
    }
}

/// Intersection and difference: the rows of `left` whose membership in `right` is
/// `keptWhenInRight` (true for intersection, false for difference A − B). Stateless.
/// Gained: left rows gained while their membership in right is the kept one after, and
/// right rows whose membership became the kept one while left holds them after. Lost: the
/// same with before and after swapped. Intersection: gained (A⁺ ∩ B) ∪ (A ∩ B⁺), lost
/// (A⁻ ∩ B₀) ∪ (A₀ ∩ B⁻); difference: gained (A⁺ − B) ∪ (B⁻ ∩ A), lost (A⁻ − B₀) ∪ (B⁺ ∩ A₀).
/// A probe by values goes to `left`, and each row found is checked against `right`.
final class CountedMembershipFilter: CountedNode {
    let core: CountedNodeCore
    let left: any CountedNode
    let right: any CountedNode
    let keptWhenInRight: Bool

    init(relation: Relation, left: any CountedNode, right: any CountedNode, keptWhenInRight: Bool, context: CountedContext) {
        self.left = left
        self.right = right
        self.keptWhenInRight = keptWhenInRight
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: left.sourcesBelow.union(right.sourcesBelow))
    }

    private func kept(_ row: Row, _ state: CountedState) throws -> Bool {
        try right.contains(row, state) == keptWhenInRight
    }

    func computeDelta() throws -> CountedDelta {
        let r = right.delta
        let becameKept = keptWhenInRight ? r.added : r.removed
        let stoppedBeingKept = keptWhenInRight ? r.removed : r.added
        var out = CountedDelta()
        for row in left.delta.added where try kept(row, .after) { out.added.insert(row) }
        for row in becameKept where try left.contains(row, .after) { out.added.insert(row) }
        for row in left.delta.removed where try kept(row, .before) { out.removed.insert(row) }
        for row in stoppedBeingKept where try left.contains(row, .before) { out.removed.insert(row) }
        return out
    }

    var canContain: Bool { left.canContain && right.canContain }
    func canProbe(_ positions: [Int]) -> Bool { left.canProbe(positions) && right.canContain }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try left.contains(row, state) && kept(row, state)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        try left.rows(matching: positions, key, state).filter { try kept($0, state) }
    }
}
