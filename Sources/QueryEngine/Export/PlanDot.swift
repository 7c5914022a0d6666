import Relational

/// DOT renderings in the spirit of seed 000's figures: the relation graph (arrows from an
/// operation to its operands) and plan graphs (arrows in the direction data flows), the
/// latter optionally annotated with the runner's final state.
public enum PlanDot {
    /// The lazy relation graph as built, one box per distinct relation object.
    public static func relationGraph(_ roots: [Relation], title: String = "relation graph") -> String {
        var ids: [ObjectIdentifier: Int] = [:]
        var lines: [String] = []
        func visit(_ relation: Relation) -> Int {
            if let id = ids[ObjectIdentifier(relation)] { return id }
            let id = ids.count
            ids[ObjectIdentifier(relation)] = id
            var label = relation.label
            if let name = relation.name { label = "\(name)\n\(label)" }
            label += "\nscheme: \(relation.scheme)"
            lines.append("  r\(id) [label=\(DotText.quoted(DotText.abbreviated(label)))];")
            for (i, operand) in relation.operands.enumerated() {
                let child = visit(operand)
                lines.append("  r\(id) -> r\(child) [label=\"operand \(i)\"];")
            }
            return id
        }
        for root in roots { _ = visit(root) }
        return wrap(title, lines)
    }

    /// A plan graph: node number, name, operation, scheme, estimate; with annotations also
    /// the parental filter, parents still without a filter, and rows in and out.
    public static func planGraph(
        _ graph: PlanGraph, annotations: [NodeID: NodeAnnotation]? = nil, title: String = "plan"
    ) -> String {
        var lines: [String] = []
        for id in graph.liveNodeIDs {
            let node = graph[id]
            var label = "Node \(id)" + (node.name.map { " \($0)" } ?? "")
            if let original = node.copiedFrom { label += " (copy of \(original))" }
            label += "\n\(node.operation.label)"
            if let count = node.approximateCount { label += "\n~\(count) rows" }
            label += "\nScheme: \(node.scheme)"
            if !node.outputs.isEmpty { label += "\noutputs: \(node.outputs.map(String.init).joined(separator: ", "))" }
            if let a = annotations?[id] {
                if let filter = a.filter {
                    label += "\nParental filter: \(filter) - \(a.remainingParents) remaining"
                        + (a.filterActive ? " (active)" : "")
                }
                label += "\nRows input: \(a.rowsIn), output: \(a.rowsOut)"
            }
            let style = node.operation.isSource ? ", shape=box3d" : (node.outputs.isEmpty ? "" : ", peripheries=2")
            lines.append("  n\(id) [label=\(DotText.quoted(DotText.abbreviated(label, limit: 400)))\(style)];")
        }
        for id in graph.liveNodeIDs {
            for (operand, child) in graph[id].children.enumerated() {
                lines.append("  n\(child) -> n\(id) [label=\"operand \(operand)\"];")
            }
        }
        return wrap(title, lines)
    }

    private static func wrap(_ title: String, _ lines: [String]) -> String {
        (["digraph \(DotText.quoted(title)) {",
          "  label=\(DotText.quoted(title)); labelloc=t;",
          "  node [shape=box, fontname=\"Helvetica\", fontsize=10];",
          "  edge [fontname=\"Helvetica\", fontsize=8];"]
            + lines + ["}"]).joined(separator: "\n") + "\n"
    }
}
