import Relational

public typealias NodeID = Int

/// A parent's link to one of its operands: `parent`'s operand number `operand`.
public struct Edge: Hashable, Sendable, CustomStringConvertible {
    public let parent: NodeID
    public let operand: Int

    public init(parent: NodeID, operand: Int) {
        self.parent = parent
        self.operand = operand
    }

    public var description: String { "\(parent).\(operand)" }
}

/// What a plan node computes: a source (a leaf) or an operator over the node's children.
/// A variadic operator's node (union) may have any number of operands (nested unions fold
/// into one); `dead` marks a node removed by an optimizer pass.
public enum NodeOperation {
    case source(any SourceRelation)
    case apply(Operator)
    case dead

    public var isSource: Bool {
        if case .source = self { return true }
        return false
    }

    public var isUnion: Bool {
        if case .apply(.union) = self { return true }
        return false
    }

    public var isDead: Bool {
        if case .dead = self { return true }
        return false
    }

    /// The operator, nil for sources and dead nodes.
    public var `operator`: Operator? {
        if case let .apply(op) = self { return op }
        return nil
    }

    /// Allowed operand counts.
    var arity: ClosedRange<Int> {
        switch self {
        case .source, .dead: return 0...0
        case let .apply(op): return op.arity
        }
    }

    public var label: String {
        switch self {
        case let .source(s): return "source \(s.sourceName)"
        case let .apply(op): return op.label
        case .dead: return "dead"
        }
    }
}

public struct PlanNode {
    public var operation: NodeOperation
    public var scheme: Scheme
    /// Operands in order.
    public internal(set) var children: [NodeID] = []
    /// Every edge pointing at this node (a parent using it twice appears twice).
    public internal(set) var parents: [Edge] = []
    /// Output numbers this node's rows are delivered to.
    public var outputs: [Int] = []
    public var name: String?
    /// For sources, the planner's approximate row count.
    public var approximateCount: Int?
    /// Set on copies made while running.
    public var copiedFrom: NodeID?

    public var isLive: Bool { !operation.isDead }
}

/// The node graph shared by planner, optimizer passes and runner. Data flows from children
/// (operands) to parents; sources are leaves. Edits go through `setChildren`, which keeps
/// parent and child links symmetric.
public struct PlanGraph {
    public internal(set) var nodes: [PlanNode] = []
    /// The node feeding each output, by output number.
    public internal(set) var outputNodes: [NodeID] = []

    public init() {}

    /// Borrowed, not copied: `graph[id].operation` reads one field where a getter copied the
    /// whole node (its operation, scheme and edge lists retained and released), several
    /// times in every heuristic hook.
    public subscript(id: NodeID) -> PlanNode {
        _read { yield nodes[id] }
    }

    public var liveNodeIDs: [NodeID] { nodes.indices.filter { nodes[$0].isLive } }

    mutating func add(_ node: PlanNode, children: [NodeID] = []) -> NodeID {
        let id = nodes.count
        nodes.append(node)
        setChildren(of: id, to: children)
        return id
    }

    /// Makes every parent of `id` read `other` in its place (an optimizer pass removing `id`).
    public mutating func redirectParents(of id: NodeID, to other: NodeID) {
        for edge in nodes[id].parents {
            var siblings = nodes[edge.parent].children
            siblings[edge.operand] = other
            setChildren(of: edge.parent, to: siblings)
        }
    }

    /// Replaces a node's operands, updating the parent lists of old and new children.
    public mutating func setChildren(of id: NodeID, to newChildren: [NodeID]) {
        // A child listed twice is cleared twice, the second time a no-op: no set is built to
        // skip it (the runner calls this at every subtree copy).
        for child in nodes[id].children {
            nodes[child].parents.removeAll { $0.parent == id }
        }
        nodes[id].children = newChildren
        for (operand, child) in newChildren.enumerated() {
            nodes[child].parents.append(Edge(parent: id, operand: operand))
        }
    }

    /// Makes this graph equal to `original` again, in place, when it is `original` after a
    /// run's edits: nodes added after `original`'s (subtree copies, dropped here) and edges
    /// moved by `setChildren` (restored). Returns false, changing nothing, for any other
    /// graph. A prepared query's next run then starts from this storage instead of copying
    /// the whole node list at its first copy and freeing it at its end.
    mutating func restore(to original: PlanGraph) -> Bool {
        guard nodes.count >= original.nodes.count, outputNodes == original.outputNodes else { return false }
        for id in original.nodes.indices where nodes[id].approximateCount != original.nodes[id].approximateCount {
            return false
        }
        // One at a time: `removeLast(_:)` takes the array's generic range replacement.
        while nodes.count > original.nodes.count { nodes.removeLast() }
        for id in original.nodes.indices {
            if nodes[id].children != original.nodes[id].children { nodes[id].children = original.nodes[id].children }
            if nodes[id].parents != original.nodes[id].parents { nodes[id].parents = original.nodes[id].parents }
        }
        return true
    }

    /// Detaches a node from its operands and marks it dead.
    public mutating func kill(_ id: NodeID) {
        setChildren(of: id, to: [])
        nodes[id].operation = .dead
    }

    /// The child at an edge.
    public func child(at edge: Edge) -> NodeID { nodes[edge.parent].children[edge.operand] }

    /// Live nodes ordered so every parent comes before its children.
    /// Ties are broken by id: the walk starts from the wanted nodes in increasing id order.
    /// Flags per node id rather than hashed sets: the runner asks at every start and copy.
    public func topologicalOrder(of ids: [NodeID]? = nil) -> [NodeID] {
        // One flag array (wanted, visited) reserved and appended: `Array(repeating:count:)`
        // takes the standard library's unspecialized allocation, and the runner asks this
        // twice at every subtree copy. The postorder is reversed in place.
        // One node is its own order (a subtree copy of a source, the usual one, asks twice).
        if let ids, ids.count <= 1 { return ids }
        let wanted: UInt8 = 1, visited: UInt8 = 2
        var flags: [UInt8] = []
        flags.reserveCapacity(nodes.count)
        if let ids {
            for _ in nodes.indices { flags.append(0) }
            for id in ids { flags[id] = wanted }
        } else {
            for node in nodes { flags.append(node.isLive ? wanted : 0) }
        }
        var postorder: [NodeID] = []
        postorder.reserveCapacity(ids?.count ?? nodes.count)
        func visit(_ id: NodeID) {
            guard flags[id] & visited == 0 else { return }
            flags[id] |= visited
            for child in nodes[id].children { visit(child) }
            if flags[id] & wanted != 0 { postorder.append(id) }
        }
        for id in nodes.indices where flags[id] & wanted != 0 { visit(id) }
        postorder.reverse()
        return postorder
    }

    /// A node and everything below it, each once, the node first.
    public func subtree(of root: NodeID) -> [NodeID] {
        subtree(of: root, upTo: Int.max) ?? []
    }

    /// The subtree of `root` if it has at most `limit` nodes, else nil. Stops as soon as the
    /// limit is passed, so asking costs O(limit) however large the subtree is.
    public func subtree(of root: NodeID, upTo limit: Int) -> [NodeID]? {
        guard limit >= 1 else { return nil }
        var seen = SmallSet(root)
        var order = [root]
        var i = 0
        while i < order.count {
            for child in nodes[order[i]].children where seen.insert(child) {
                guard order.count < limit else { return nil }
                order.append(child)
            }
            i += 1
        }
        return order
    }
}
