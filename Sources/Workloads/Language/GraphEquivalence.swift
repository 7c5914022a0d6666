import Relational

/// Whether two relation graphs are the same graph: the same operators with the same
/// arguments, the same sharing (a node reached twice on one side is one node reached twice
/// on the other), catalog sources identical, other memory-table sources equal in scheme and
/// rows. Node names are ignored.
public func sameGraph(_ a: [Relation], _ b: [Relation]) -> Bool {
    guard a.count == b.count else { return false }
    var matcher = GraphMatcher()
    for (x, y) in zip(a, b) where !matcher.match(x, y) { return false }
    return true
}

private struct GraphMatcher {
    var forward: [ObjectIdentifier: ObjectIdentifier] = [:]
    var backward: [ObjectIdentifier: ObjectIdentifier] = [:]

    mutating func match(_ x: Relation, _ y: Relation) -> Bool {
        let ix = ObjectIdentifier(x)
        let iy = ObjectIdentifier(y)
        if let known = forward[ix] { return known == iy }
        if backward[iy] != nil { return false }
        guard x.scheme == y.scheme, sameOperation(x, y) else { return false }
        forward[ix] = iy
        backward[iy] = ix
        for (p, q) in zip(x.operands, y.operands) where !match(p, q) { return false }
        return true
    }

    func sameOperation(_ x: Relation, _ y: Relation) -> Bool {
        switch (x.definition, y.definition) {
        case let (.source(s), .source(t)):
            if s === t { return true }
            guard let m = s as? MemoryTable, let n = t as? MemoryTable else { return false }
            return m.scheme == n.scheme && Set(m.allRows) == Set(n.allRows)
        case let (.apply(p, _), .apply(q, _)):
            // Operators are equal when they are the same operator with equal arguments
            // (the compiler-synthesized equality covers every operator).
            return p == q
        case (.source, .apply), (.apply, .source):
            return false
        }
    }
}
