/// Node ids seen by a graph walk: a short list searched in order while it holds at most 32
/// (the usual walk of a small query's subtree allocates one array and hashes nothing), a
/// hashed set beyond, so a walk of a large graph stays linear.
struct NodeIDSet {
    private var list: [NodeID]
    private var set: Set<NodeID>?

    init(_ first: NodeID) { list = [first] }

    /// Whether `id` is new (then it is added).
    mutating func insert(_ id: NodeID) -> Bool {
        if var current = set {
            set = nil  // so the insert below does not copy the set
            let inserted = current.insert(id).inserted
            set = current
            return inserted
        }
        if list.contains(id) { return false }
        list.append(id)
        if list.count > 32 { set = Set(list) }
        return true
    }
}
