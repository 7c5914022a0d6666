import Relational

/// Builds a plan graph from root relations: one node per distinct relation object (a
/// relation used by two parents is one node with two parents), and one node per distinct
/// source object. Node numbering follows a left-first walk from the outputs, which is the
/// `declaration` order of initiators.
public enum Planner {
    public static func plan(_ outputs: [Relation]) -> PlanGraph {
        var graph = PlanGraph()
        var byRelation: [ObjectIdentifier: NodeID] = [:]
        var bySource: [ObjectIdentifier: NodeID] = [:]

        func node(for relation: Relation) -> NodeID {
            if let id = byRelation[ObjectIdentifier(relation)] { return id }
            let id: NodeID
            switch relation.definition {
            case let .source(source):
                if let existing = bySource[ObjectIdentifier(source)] {
                    id = existing
                } else {
                    var planNode = PlanNode(operation: .source(source), scheme: relation.scheme)
                    planNode.name = relation.name ?? source.sourceName
                    planNode.approximateCount = source.estimatedCount(filter: nil)
                    id = graph.add(planNode)
                    bySource[ObjectIdentifier(source)] = id
                }
            case let .apply(op, operands):
                let children = operands.map(node(for:))
                var planNode = PlanNode(operation: .apply(op), scheme: relation.scheme)
                planNode.name = relation.name
                id = graph.add(planNode, children: children)
            }
            byRelation[ObjectIdentifier(relation)] = id
            return id
        }

        for (number, relation) in outputs.enumerated() {
            let id = node(for: relation)
            graph.nodes[id].outputs.append(number)
            graph.outputNodes.append(id)
        }
        return graph
    }
}
