// Scheme derivation: the scheme an operator produces from its operands' schemes, or an
// error naming the attributes involved. Every way of building a relation goes through it.

extension Operator {
    /// The result scheme of applying the operator to operands with these schemes.
    public func scheme(over operands: [Scheme]) throws -> Scheme {
        guard arity.contains(operands.count), let first = operands.first else {
            throw RelationError.unsupported("\(label) takes \(operandCount) operand(s), got \(operands.count)")
        }
        switch self {
        case .union, .intersection, .difference:
            for other in operands.dropFirst() where other != first {
                throw RelationError.schemeMismatch(operation: label, left: first, right: other)
            }
            return first
        case let .select(predicate):
            for a in predicate.attributes.sorted() where !first.contains(a) {
                throw RelationError.unknownAttribute(a, scheme: first, context: "select (\(predicate))")
            }
            return first
        case let .project(kept):
            for a in kept.attributes where !first.contains(a) {
                throw RelationError.unknownAttribute(a, scheme: first, context: "project")
            }
            return kept
        case let .rename(map):
            return try Self.renamedScheme(first, map)
        case let .join(pairs):
            return try Self.joinedScheme(first, operands[1], pairs)
        case let .closure(from, to):
            return try Self.closureScheme(first, from, to)
        }
    }

    /// Every old name must exist and no new name may collide with a kept attribute or
    /// another new name.
    private static func renamedScheme(_ scheme: Scheme, _ map: [Attribute: Attribute]) throws -> Scheme {
        for (old, _) in map.sorted(by: { $0.key < $1.key }) where !scheme.contains(old) {
            throw RelationError.unknownAttribute(old, scheme: scheme, context: "rename")
        }
        let kept = scheme.attributes.filter { map[$0] == nil }
        let keptSet = Set(kept)
        var renamedFrom: [Attribute: Attribute] = [:]
        for (old, new) in map.sorted(by: { $0.key < $1.key }) {
            if keptSet.contains(new) {
                throw RelationError.renameCollision(from: old, to: new, scheme: scheme)
            }
            if let first = renamedFrom.updateValue(old, forKey: new) {
                throw RelationError.renameMerge(first, old, to: new, scheme: scheme)
            }
        }
        return try Scheme(kept + map.values)
    }

    /// Every attribute of both sides; a pair with the same name on both sides is one
    /// attribute, and any other attribute the sides share is ambiguous.
    private static func joinedScheme(_ left: Scheme, _ right: Scheme, _ pairs: [JoinPair]) throws -> Scheme {
        // The messages are built only on failure: derivative graphs build many joins.
        for p in pairs where !left.contains(p.left) || !right.contains(p.right) {
            _ = try left.requireIndex(of: p.left, context: "join [\(p)] (left operand)")
            _ = try right.requireIndex(of: p.right, context: "join [\(p)] (right operand)")
        }
        // Both schemes are sorted: one merge walk finds the shared names and the union. The
        // names paired with themselves are a set: a natural join pairs every shared name, and
        // a search of the pairs for each one was quadratic in the width.
        let selfPaired = Set(pairs.lazy.filter { $0.left == $0.right }.map(\.left))
        let l = left.attributes, r = right.attributes
        var all: [Attribute] = []
        all.reserveCapacity(l.count + r.count)
        var ambiguous: [Attribute] = []
        var i = 0, j = 0
        while i < l.count || j < r.count {
            if j == r.count || (i < l.count && l[i] < r[j]) {
                all.append(l[i]); i += 1
            } else if i == l.count || r[j] < l[i] {
                all.append(r[j]); j += 1
            } else {
                let a = l[i]
                if !selfPaired.contains(a) { ambiguous.append(a) }
                all.append(a); i += 1; j += 1
            }
        }
        if !ambiguous.isEmpty { throw RelationError.ambiguousJoinAttributes(ambiguous) }
        return Scheme(uniqueSorted: all)
    }

    /// The edge relation's scheme, which must be exactly {from, to} with two names.
    private static func closureScheme(_ scheme: Scheme, _ from: Attribute, _ to: Attribute) throws -> Scheme {
        let context = "closure [\(from) -> \(to)]"
        for a in [from, to] where !scheme.contains(a) {
            throw RelationError.unknownAttribute(a, scheme: scheme, context: context)
        }
        guard from != to else {
            throw RelationError.unsupported("\(context): the two ends of an edge must be different attributes")
        }
        guard scheme.count == 2 else {
            let extra = scheme.attributes.filter { $0 != from && $0 != to }.map { "'\($0)'" }.joined(separator: ", ")
            throw RelationError.unsupported(
                "\(context): the edge relation must have exactly the attributes '\(from)' and '\(to)', but \(scheme) also has \(extra); project it first")
        }
        return scheme
    }
}
