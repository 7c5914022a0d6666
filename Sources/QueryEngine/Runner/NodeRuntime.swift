import Relational

/// Everything the runner tracks for one node while a query runs.
final class NodeRuntime {
    // Filter state (seed 000: parental filter and count of parents still without one).
    var filter: Predicate?
    var remainingParents: Int
    var filterActive = false
    /// Per operand: whether this node has already provided a filter to that child.
    var providedToOperand: [Bool]
    /// The disjuncts of `filter`, each once.
    private var disjuncts: [Predicate] = []
    private var disjunctSet = Set<Predicate>()
    /// A source's estimate under its current filter state, once asked (cleared when the
    /// filter or its activation changes), so choosing among n initiators does not ask every
    /// source again at every choice.
    var cachedEstimate: Int??

    /// ORs `filter` into the parental filter, keeping each disjunct once: a node whose parents
    /// pass it the same filter (say `b join b`, at every level of a self-sharing DAG) keeps
    /// one copy instead of doubling it per level.
    func orIntoFilter(_ filter: Predicate) {
        var parts = [filter]
        if case let .or(inner) = filter { parts = inner }
        var added = false
        for part in parts where disjunctSet.insert(part).inserted {
            disjuncts.append(part)
            added = true
        }
        if added || self.filter == nil { self.filter = Predicate.any(disjuncts) }
        cachedEstimate = nil
    }

    // Progress.
    var started = false
    var complete = false
    var operandComplete: [Bool]
    var rowsIn = 0
    var rowsOut = 0

    /// Every row emitted so far, kept only when invariants are checked.
    var emitted = Set<Row>()

    /// The node's operator kernel (nil for sources and dead nodes).
    let kernel: (any Kernel)?

    /// Fresh state for a copy of a node, sharing the original's compiled operator.
    init(node: PlanNode, compiledLike original: NodeRuntime) {
        remainingParents = node.parents.count + (node.outputs.isEmpty ? 0 : 1)
        providedToOperand = Array(repeating: false, count: node.children.count)
        operandComplete = Array(repeating: false, count: node.children.count)
        kernel = original.kernel?.freshCopy()
    }

    init(node: PlanNode, graph: PlanGraph) throws {
        remainingParents = node.parents.count + (node.outputs.isEmpty ? 0 : 1)
        providedToOperand = Array(repeating: false, count: node.children.count)
        operandComplete = Array(repeating: false, count: node.children.count)
        switch node.operation {
        case let .apply(op):
            kernel = try KernelFactory.make(op, operands: node.children.map { graph[$0].scheme }, output: node.scheme)
        case .source, .dead:
            kernel = nil
        }
    }
}
