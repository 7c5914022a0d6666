import Relational

/// The disjuncts of a node's parental filter, each once. A node whose parents pass it the
/// same filter (say `b join b`, at every level of a self-sharing DAG) keeps one copy instead
/// of doubling it per level; IN-sets over the same attributes (several joins' key filters)
/// merge into one set, their union, so the OR stays one hash lookup per row.
struct FilterDisjuncts {
    private(set) var parts: [Predicate] = []
    private var known = Set<Predicate>()
    /// Where the IN-set over each attribute list sits in `parts`.
    private var inSetAt: [[Attribute]: Int] = [:]

    /// ORs in the disjuncts of `filter`; true when that changed the OR.
    mutating func add(_ filter: Predicate) -> Bool {
        var pieces = [filter]
        if case let .or(inner) = filter { pieces = inner }
        var changed = false
        for piece in pieces {
            // IN-sets are found by their attributes (hashing a set would hash every key).
            if case let .inSet(attributes, keys) = piece {
                if let i = inSetAt[attributes], case let .inSet(_, held) = parts[i] {
                    guard !keys.isSubset(of: held) else { continue }
                    parts[i] = .inSet(attributes: attributes, keys: held.union(keys))
                } else {
                    inSetAt[attributes] = parts.count
                    parts.append(piece)
                }
            } else {
                guard known.insert(piece).inserted else { continue }
                parts.append(piece)
            }
            changed = true
        }
        return changed
    }

    /// The OR of the disjuncts.
    var predicate: Predicate { Predicate.any(parts) }
}
