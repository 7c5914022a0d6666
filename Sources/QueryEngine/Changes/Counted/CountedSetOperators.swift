import Relational

/// Union: stateless. A row an operand gained is gained unless another operand held it
/// before; a row an operand lost is lost unless another operand still holds it.
final class CountedUnion: CountedNode {
    let operands: [CountedNode]

    init(relation: Relation, operands: [CountedNode], context: CountedContext) {
        self.operands = operands
        super.init(relation: relation, context: context, sourcesBelow: operands.reduce([]) { $0.union($1.sourcesBelow) })
    }

    override func computeDelta() throws -> CountedDelta {
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

    private func others(_ i: Int) -> [CountedNode] {
        operands.enumerated().filter { $0.offset != i }.map(\.element)
    }

    override var canContain: Bool { operands.allSatisfy(\.canContain) }
    override func canProbe(_ positions: [Int]) -> Bool { operands.allSatisfy { $0.canProbe(positions) } }

    override func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try operands.contains { try $0.contains(row, state) }
    }

    override func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        var seen: Set<Row> = []
        var out: [Row] = []
        for o in operands {
            for row in try o.rows(matching: positions, key, state) where seen.insert(row).inserted { out.append(row) }
        }
        return out
    }
}

/// Intersection: stateless. Gained (A⁺ ∩ B) ∪ (A ∩ B⁺), lost (A⁻ ∩ B₀) ∪ (A₀ ∩ B⁻), each
/// membership a probe of the other operand.
final class CountedIntersection: CountedFilteringPair {
    override func computeDelta() throws -> CountedDelta {
        var out = CountedDelta()
        for row in left.delta.added where try right.contains(row, .after) { out.added.insert(row) }
        for row in right.delta.added where try left.contains(row, .after) { out.added.insert(row) }
        for row in left.delta.removed where try right.contains(row, .before) { out.removed.insert(row) }
        for row in right.delta.removed where try left.contains(row, .before) { out.removed.insert(row) }
        return out
    }

    override func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try left.contains(row, state) && right.contains(row, state)
    }

    override func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        try left.rows(matching: positions, key, state).filter { try right.contains($0, state) }
    }
}

/// Difference A − B: stateless. Gained (A⁺ − B) ∪ (B⁻ ∩ A), lost (A⁻ − B₀) ∪ (B⁺ ∩ A₀).
final class CountedDifference: CountedFilteringPair {
    override func computeDelta() throws -> CountedDelta {
        var out = CountedDelta()
        for row in left.delta.added where try !right.contains(row, .after) { out.added.insert(row) }
        for row in right.delta.removed where try left.contains(row, .after) { out.added.insert(row) }
        for row in left.delta.removed where try !right.contains(row, .before) { out.removed.insert(row) }
        for row in right.delta.added where try left.contains(row, .before) { out.removed.insert(row) }
        return out
    }

    override func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        try left.contains(row, state) && !right.contains(row, state)
    }

    override func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        try left.rows(matching: positions, key, state).filter { try !right.contains($0, state) }
    }
}

/// Intersection and difference: rows of `left` kept or dropped by membership in `right`,
/// so a probe by values goes to `left` and each row found is checked against `right`.
class CountedFilteringPair: CountedNode {
    let left: CountedNode
    let right: CountedNode

    init(relation: Relation, left: CountedNode, right: CountedNode, context: CountedContext) {
        self.left = left
        self.right = right
        super.init(relation: relation, context: context, sourcesBelow: left.sourcesBelow.union(right.sourcesBelow))
    }

    override var canContain: Bool { left.canContain && right.canContain }
    override func canProbe(_ positions: [Int]) -> Bool { left.canProbe(positions) && right.canContain }
}
