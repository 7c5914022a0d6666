import Relational

/// The generators' model of `documents`: parent links and children lists of the documents
/// with integral ids, kept up to date as generated statements change them.
struct DocumentForest {
    /// Live documents, for uniform picks.
    private(set) var ids = PickList<Int64>()
    /// Parent of each live document; nil for a root (null `parent_id`) or a parent that is
    /// not an integral id.
    private(set) var parent: [Int64: Int64] = [:]
    private(set) var children: [Int64: [Int64]] = [:]
    private(set) var roots = PickList<Int64>()
    private(set) var nextID: Int64 = 1

    init(_ table: DatasetTable) throws {
        let idColumn = try table.column("id"), parentColumn = try table.column("parent_id")
        for (v, p) in zip(idColumn, parentColumn) {
            guard let id = sessionID(v) else { continue }
            ids.insert(id)
            nextID = max(nextID, id + 1)
            if let p = sessionID(p) {
                parent[id] = p
            }
        }
        // Children lists in table order (deterministic); a parent that is not a live
        // document leaves its child a root for the generators' purposes.
        for v in idColumn {
            guard let id = sessionID(v) else { continue }
            if let p = parent[id], ids.contains(p) {
                children[p, default: []].append(id)
            } else {
                parent[id] = nil
                roots.insert(id)
            }
        }
    }

    func isAncestor(_ a: Int64, of d: Int64) -> Bool {
        var seen: Set<Int64> = []
        var current = parent[d]
        while let c = current, seen.insert(c).inserted {
            if c == a { return true }
            current = parent[c]
        }
        return false
    }

    /// `d` and everything above it.
    func ancestorsOrSelf(_ d: Int64) -> Set<Int64> {
        var out: Set<Int64> = [d]
        var current = parent[d]
        while let c = current, out.insert(c).inserted { current = parent[c] }
        return out
    }

    /// `d` and all its descendants, or nil when there are more than `limit`.
    func subtree(_ d: Int64, limit: Int) -> [Int64]? {
        var out: [Int64] = [d]
        var seen: Set<Int64> = [d]
        var i = 0
        while i < out.count {
            for c in children[out[i]] ?? [] where seen.insert(c).inserted {
                out.append(c)
                if out.count > limit { return nil }
            }
            i += 1
        }
        return out
    }

    /// The documents sharing `d`'s parent (other roots for a root), `d` excluded.
    func siblings(_ d: Int64) -> [Int64] {
        if let p = parent[d] { return (children[p] ?? []).filter { $0 != d } }
        return roots.items.filter { $0 != d }
    }

    mutating func add(_ id: Int64, under p: Int64?) {
        ids.insert(id)
        nextID = max(nextID, id + 1)
        attach(id, to: p)
    }

    mutating func move(_ id: Int64, under p: Int64?) {
        detach(id)
        attach(id, to: p)
    }

    mutating func remove(_ documents: [Int64]) {
        for d in documents { detach(d) }
        for d in documents {
            ids.remove(d)
            children[d] = nil
        }
    }

    private mutating func attach(_ id: Int64, to p: Int64?) {
        if let p {
            parent[id] = p
            children[p, default: []].append(id)
        } else {
            parent[id] = nil
            roots.insert(id)
        }
    }

    private mutating func detach(_ id: Int64) {
        if let p = parent[id] {
            children[p]?.removeAll { $0 == id }
            parent[id] = nil
        } else {
            roots.remove(id)
        }
    }
}
