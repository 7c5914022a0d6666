import Relational

/// How large a graph is for Graphviz's `dot` layout: its nodes plus the virtual nodes `dot`
/// puts along every edge that spans more than one rank, counted on the longest-path ranking
/// (never fewer than `dot`'s own). The node count alone misses what makes a layout slow: the
/// relation graph of a 75-way union of selects on one table has 150 nodes, but each select's
/// edge down to the shared table crosses the union chain, 2,701 virtual nodes, and `dot`
/// took 170 s on it (a 150-way union, 300 nodes: over 15 minutes, with `plan` and a run's
/// `plans: true` waiting on it).
public enum GraphLayoutSize {
    /// Edges `from -> to` between nodes `0..<nodeCount`, the graph acyclic (a node on a cycle
    /// is taken as a sink).
    public static func of(nodeCount: Int, edges: [(from: Int, to: Int)]) -> Int {
        // Height: the longest path from a node to a sink, sinks first (no recursion: a plan
        // may stack 2,000 operators).
        var outgoing = [Int](repeating: 0, count: nodeCount)
        var incoming = [[Int]](repeating: [], count: nodeCount)
        for edge in edges {
            outgoing[edge.from] += 1
            incoming[edge.to].append(edge.from)
        }
        var height = [Int](repeating: 0, count: nodeCount)
        var ready = (0..<nodeCount).filter { outgoing[$0] == 0 }
        while let node = ready.popLast() {
            for parent in incoming[node] {
                height[parent] = max(height[parent], height[node] + 1)
                outgoing[parent] -= 1
                if outgoing[parent] == 0 { ready.append(parent) }
            }
        }
        return nodeCount + edges.reduce(0) { $0 + max(0, height[$1.from] - height[$1.to] - 1) }
    }

    /// The relation graph as `PlanDot.relationGraph` draws it: one node per distinct
    /// relation object, an edge from each to each operand.
    public static func relationGraph(_ roots: [Relation]) -> Int {
        var ids: [ObjectIdentifier: Int] = [:]
        var edges: [(from: Int, to: Int)] = []
        var pending: [Relation] = []
        func id(_ relation: Relation) -> Int {
            if let id = ids[ObjectIdentifier(relation)] { return id }
            let id = ids.count
            ids[ObjectIdentifier(relation)] = id
            pending.append(relation)
            return id
        }
        for root in roots { _ = id(root) }
        while let relation = pending.popLast() {
            let from = id(relation)
            for operand in relation.operands { edges.append((from, id(operand))) }
        }
        return of(nodeCount: ids.count, edges: edges)
    }

    /// A plan graph as `PlanDot.planGraph` draws it: its live nodes, an edge from each
    /// child to its parent.
    public static func planGraph(_ graph: PlanGraph) -> Int {
        let live = graph.liveNodeIDs
        var index: [NodeID: Int] = [:]
        for (i, id) in live.enumerated() { index[id] = i }
        var edges: [(from: Int, to: Int)] = []
        for id in live {
            for child in graph[id].children {
                if let from = index[child], let to = index[id] { edges.append((from, to)) }
            }
        }
        return of(nodeCount: live.count, edges: edges)
    }
}
