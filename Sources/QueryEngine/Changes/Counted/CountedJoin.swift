import Relational

/// Join: stateless. Gained (A⁺ ⋈ B) ∪ (A ⋈ B⁺), lost (A⁻ ⋈ B₀) ∪ (A₀ ⋈ B⁻): each delta
/// row is matched by a probe of the other operand on the join attributes, so both operands
/// must be probeable there (the builder keeps a maintained index of one that is not).
/// It cannot itself be probed by values (its parents keep a maintained copy when they must).
final class CountedJoin: CountedNode {
    let core: CountedNodeCore
    let left: any CountedNode
    let right: any CountedNode
    let leftKey: [Int]
    let rightKey: [Int]
    /// For each output position: from the left row (true) or the right, and where.
    private let assembly: [(fromLeft: Bool, position: Int)]
    /// Output positions holding each operand's row, in the operand's scheme order.
    private let leftInOutput: [Int]
    private let rightInOutput: [Int]

    init(relation: Relation, left: any CountedNode, right: any CountedNode, pairs: [JoinPair], context: CountedContext) throws {
        self.left = left
        self.right = right
        leftKey = try pairs.map { try left.scheme.requireIndex(of: $0.left, context: "counted join") }
        rightKey = try pairs.map { try right.scheme.requireIndex(of: $0.right, context: "counted join") }
        let out = relation.scheme
        assembly = try out.attributes.map { a in
            if let i = left.scheme.index(of: a) { return (true, i) }
            return (false, try right.scheme.requireIndex(of: a, context: "counted join"))
        }
        leftInOutput = try left.scheme.attributes.map { try out.requireIndex(of: $0, context: "counted join") }
        rightInOutput = try right.scheme.attributes.map { try out.requireIndex(of: $0, context: "counted join") }
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: left.sourcesBelow.union(right.sourcesBelow))
    }

    private func joined(_ l: Row, _ r: Row) -> Row {
        Row(assembly.map { $0.fromLeft ? l[$0.position] : r[$0.position] })
    }

    func computeDelta() throws -> CountedDelta {
        var out = CountedDelta()
        let l = left.delta, r = right.delta
        for a in l.added {
            for b in try right.rows(matching: rightKey, a.picking(leftKey), .after) { out.added.insert(joined(a, b)) }
        }
        for b in r.added {
            for a in try left.rows(matching: leftKey, b.picking(rightKey), .after) { out.added.insert(joined(a, b)) }
        }
        for a in l.removed {
            for b in try right.rows(matching: rightKey, a.picking(leftKey), .before) { out.removed.insert(joined(a, b)) }
        }
        for b in r.removed {
            for a in try left.rows(matching: leftKey, b.picking(rightKey), .before) { out.removed.insert(joined(a, b)) }
        }
        return out
    }

    var canContain: Bool { left.canContain && right.canContain }
    func canProbe(_ positions: [Int]) -> Bool { false }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        let l = row.picking(leftInOutput), r = row.picking(rightInOutput)
        return try l.picking(leftKey) == r.picking(rightKey) && left.contains(l, state) && right.contains(r, state)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        throw ChangeError("counted propagation: a join probed by values (a builder bug)")
    }
}
