/// A broken invariant found after an optimizer pass (or a runner edit).
public struct PlanValidationError: Error, CustomStringConvertible {
    public let after: String
    public let problem: String
    public var description: String { "plan graph invalid after \(after): \(problem)" }
}

extension PlanGraph {
    /// Checks: parent and child links are symmetric, no live node refers to a dead one,
    /// operand counts fit the operation, and every output node is live.
    public func validate(after stage: String) throws {
        func fail(_ problem: String) -> PlanValidationError { PlanValidationError(after: stage, problem: problem) }
        for (id, node) in nodes.enumerated() {
            if !node.isLive {
                if !node.children.isEmpty || !node.parents.isEmpty { throw fail("dead node \(id) still linked") }
                if !node.outputs.isEmpty { throw fail("dead node \(id) has outputs") }
                continue
            }
            let detachedOrphan = node.parents.isEmpty && node.outputs.isEmpty && node.children.isEmpty
            if !detachedOrphan && !node.operation.arity.contains(node.children.count) {
                throw fail("node \(id) (\(node.operation.label)) has \(node.children.count) operands")
            }
            for child in node.children {
                guard nodes.indices.contains(child), nodes[child].isLive else {
                    throw fail("node \(id) refers to dead or missing node \(child)")
                }
            }
            // Every parent link is checked against the parent's operand below; with no link
            // listed twice and as many links as operand slots pointing here, each slot has its
            // link. (Asking each child's parent list for each slot would be quadratic in the
            // number of parents of a widely shared node.)
            if node.parents.count > 1 && Set(node.parents).count != node.parents.count {
                throw fail("node \(id) lists a parent link twice")
            }
            for edge in node.parents {
                guard nodes.indices.contains(edge.parent), nodes[edge.parent].isLive else {
                    throw fail("node \(id) lists dead or missing parent \(edge.parent)")
                }
                let siblings = nodes[edge.parent].children
                if edge.operand >= siblings.count || siblings[edge.operand] != id {
                    throw fail("node \(id) lists parent link \(edge) that the parent does not have")
                }
            }
        }
        var slots = [Int](repeating: 0, count: nodes.count)
        for node in nodes where node.isLive {
            for child in node.children { slots[child] += 1 }
        }
        for (id, node) in nodes.enumerated() where node.isLive && node.parents.count != slots[id] {
            let (operand, parent) = firstMissingLink(to: id)
            throw fail("node \(id) lacks parent link \(parent).\(operand)")
        }
        for (output, id) in outputNodes.enumerated() {
            guard nodes.indices.contains(id), nodes[id].isLive, nodes[id].outputs.contains(output) else {
                throw fail("output \(output) is no longer reachable")
            }
        }
    }

    /// An operand slot pointing at `id` whose parent link `id` lacks (for the message).
    private func firstMissingLink(to id: NodeID) -> (operand: Int, parent: NodeID) {
        let listed = Set(nodes[id].parents)
        for (parent, node) in nodes.enumerated() where node.isLive {
            for (operand, child) in node.children.enumerated()
            where child == id && !listed.contains(Edge(parent: parent, operand: operand)) {
                return (operand, parent)
            }
        }
        return (0, id)
    }
}
