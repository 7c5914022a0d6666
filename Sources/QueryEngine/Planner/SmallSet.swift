/// What a graph walk has seen: a short list searched in order while it holds at most 32
/// (the usual walk of a small query's subtree allocates one array and hashes nothing), a
/// hashed set beyond, so a walk of a large graph stays linear.
struct SmallSet<Element: Hashable> {
    private var list: [Element]
    private var set: Set<Element>?

    init(_ first: Element) { list = [first] }

    /// Whether `element` is new (then it is added).
    mutating func insert(_ element: Element) -> Bool {
        if var current = set {
            set = nil  // so the insert below does not copy the set
            let inserted = current.insert(element).inserted
            set = current
            return inserted
        }
        if list.contains(element) { return false }
        list.append(element)
        if list.count > 32 { set = Set(list) }
        return true
    }
}
