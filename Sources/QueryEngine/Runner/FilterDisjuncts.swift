import Relational

/// The disjuncts of a node's parental filter, each once. A node whose parents pass it the
/// same filter (say `b join b`, at every level of a self-sharing DAG) keeps one copy instead
/// of doubling it per level; IN-sets over the same attributes (several joins' key filters)
/// merge into one set, their union, so the OR stays one hash lookup per row.
struct FilterDisjuncts {
    private(set) var parts: [Predicate] = []
    private var known = Set<Predicate>()
    /// Where the IN-set over each attribute list sits in `parts`: a list searched in order,
    /// as a node's filter holds one or two IN-sets (a dictionary hashed every attribute name
    /// per look-up and grew from empty in each copy's state).
    private var inSetAt: [(attributes: [Attribute], index: Int)] = []

    private func inSetIndex(_ attributes: [Attribute]) -> Int? {
        for entry in inSetAt where entry.attributes == attributes { return entry.index }
        return nil
    }

    /// ORs in the disjuncts of `filter`; true when that changed the OR.
    mutating func add(_ filter: Predicate) -> Bool {
        // A filter that is not an OR is its one disjunct, added without a list made of it
        // (an allocation per filter given).
        guard case let .or(inner) = filter else { return addDisjunct(filter) }
        var changed = false
        for piece in inner where addDisjunct(piece) { changed = true }
        return changed
    }

    /// ORs in one disjunct; true when that changed the OR.
    private mutating func addDisjunct(_ piece: Predicate) -> Bool {
        // IN-sets are found by their attributes (hashing a set would hash every key).
        if case let .inSet(attributes, keys) = piece {
            if let i = inSetIndex(attributes), case let .inSet(_, held) = parts[i] {
                guard !keys.isSubset(of: held) else { return false }
                parts[i] = .inSet(attributes: attributes, keys: held.union(keys))
            } else {
                inSetAt.append((attributes, parts.count))
                parts.append(piece)
            }
        } else {
            guard !known.contains(piece), !isAbsorbed(piece) else { return false }
            removeDisjuncts(absorbedBy: piece)
            known.insert(piece)
            parts.append(piece)
        }
        return true
    }

    /// Absorption, `(p AND q) OR q` is `q`: a disjunct one of whose conjuncts is already a
    /// disjunct adds nothing. Without it, a filter narrowed along one edge of a node shared by
    /// two paths (a select and a union over the same operand, at every level of a chain) comes
    /// back as `(p AND F) OR F` and doubles in size per level.
    private func isAbsorbed(_ piece: Predicate) -> Bool {
        guard case let .and(conjuncts) = piece else { return false }
        return conjuncts.contains(where: known.contains)
    }

    /// Drops the disjuncts that have `piece` as a conjunct (it absorbs them).
    private mutating func removeDisjuncts(absorbedBy piece: Predicate) {
        let absorbed = parts.indices.filter { i in
            if case let .and(conjuncts) = parts[i] { return conjuncts.contains(piece) }
            return false
        }
        guard !absorbed.isEmpty else { return }
        for i in absorbed { known.remove(parts[i]) }
        let dropped = Set(absorbed)
        parts = parts.indices.filter { !dropped.contains($0) }.map { parts[$0] }
        inSetAt = []
        for (i, part) in parts.enumerated() {
            if case let .inSet(attributes, _) = part { inSetAt.append((attributes, i)) }
        }
    }

    /// The OR of the disjuncts. One disjunct is the OR itself (`Predicate.any` of one part
    /// that is not an OR, as no part is, gives it back), without a list made to say so.
    var predicate: Predicate { parts.count == 1 ? parts[0] : Predicate.any(parts) }

    /// No disjunct again, keeping the storage (a node's next run of a prepared query).
    mutating func removeAll() {
        guard !parts.isEmpty else { return }
        // One at a time: `removeAll(keepingCapacity:)` takes the array's generic range
        // replacement.
        while !parts.isEmpty { parts.removeLast() }
        while !inSetAt.isEmpty { inSetAt.removeLast() }
        if !known.isEmpty { known.removeAll(keepingCapacity: true) }
    }
}
