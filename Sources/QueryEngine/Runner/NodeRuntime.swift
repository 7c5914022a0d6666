import Relational

/// Everything the runner tracks for one node while a query runs.
final class NodeRuntime {
    // Filter state (seed 000: parental filter and count of parents still without one).
    var filter: Predicate? { didSet { filterVersion &+= 1 } }
    var remainingParents: Int
    var filterActive = false { didSet { filterVersion &+= 1 } }
    /// Changes whenever `filter` or `filterActive` is set, never otherwise
    /// (`RunnerContext.filterVersion(of:)`).
    private(set) var filterVersion = 0
    /// Per operand: the filter this node has provided to that child (nil: none yet). A
    /// later, narrower filter along the same edge replaces it (`FilterFlow.swift`).
    var providedToOperand: OperandFilters
    /// The disjuncts of `filter`, each once (IN-sets over the same attributes merged).
    private var disjuncts = FilterDisjuncts()

    /// ORs `filter` into the parental filter (see `FilterDisjuncts`).
    func orIntoFilter(_ filter: Predicate) {
        let added = disjuncts.add(filter)
        if added || self.filter == nil { self.filter = disjuncts.predicate }
    }

    /// Replaces the parental filter by the OR of `filters` (each parent's current one; none
    /// leaves no filter); true when that changed it.
    func rebuildFilter(from filters: [Predicate]) -> Bool {
        var fresh = FilterDisjuncts()
        for f in filters { _ = fresh.add(f) }
        let predicate = filters.isEmpty ? nil : fresh.predicate
        guard predicate != filter else { return false }
        disjuncts = fresh
        filter = predicate
        return true
    }

    // Progress.
    var started = false
    var complete = false
    var operandComplete: OperandFlags
    var rowsIn = 0
    var rowsOut = 0


    /// The node's operator kernel (nil for sources and dead nodes).
    private(set) var kernel: (any Kernel)?

    /// What a node's fresh state depends on in the graph, so a run need not copy the node.
    struct Shape {
        /// Parents, plus one that never provides a filter when the node feeds an output.
        let filterParents: Int
        let operands: Int

        init(_ node: PlanNode) {
            filterParents = node.parents.count + (node.outputs.isEmpty ? 0 : 1)
            operands = node.children.count
        }

        private init(filterParents: Int, operands: Int) {
            self.filterParents = filterParents
            self.operands = operands
        }

        /// A node's shape read in place in the graph (an initializer taking the node
        /// consumes it, so a node read from the graph was copied for it).
        static func of(_ id: NodeID, in graph: PlanGraph) -> Shape {
            Shape(filterParents: graph.nodes[id].parents.count + (graph.nodes[id].outputs.isEmpty ? 0 : 1),
                  operands: graph.nodes[id].children.count)
        }
    }

    /// Fresh state for copy `id` of a node, sharing the original's compiled operator.
    convenience init(copy id: NodeID, in graph: PlanGraph, compiledLike original: NodeRuntime) {
        self.init(shape: Shape.of(id, in: graph), compiled: original.kernel)
    }

    /// Fresh state for a node whose operator is already compiled (`compile`): the runner
    /// takes an empty copy of `compiled`, so one compiled kernel serves every run.
    init(shape: Shape, compiled: (any Kernel)?) {
        remainingParents = shape.filterParents
        providedToOperand = OperandFilters(count: shape.operands)
        operandComplete = OperandFlags(count: shape.operands)
        kernel = compiled?.freshCopy()
    }

    /// Fresh state again, in this object, for the same node of the next run of a prepared
    /// query (`RunStatePool`): no object per node is made or freed per run, and a kernel
    /// that can empty itself (`Kernel.resetForRun`) is kept.
    func reset(shape: Shape, compiled: (any Kernel)?) {
        filter = nil
        remainingParents = shape.filterParents
        filterActive = false
        // Emptied keeping their storage: the same node gets filters again next run.
        if providedToOperand.count == shape.operands {
            providedToOperand.removeAll()
        } else {
            providedToOperand = OperandFilters(count: shape.operands)
        }
        disjuncts.removeAll()
        started = false
        complete = false
        operandComplete = OperandFlags(count: shape.operands)
        rowsIn = 0
        rowsOut = 0
        if kernel == nil || kernel?.resetForRun() != true { kernel = compiled?.freshCopy() }
    }

    /// Fresh state again, in this object (a copy's state an earlier run handed back), for
    /// copy `id` of a node: as `init(copy:in:compiledLike:)`, with an empty copy of the
    /// original's kernel (the state may have served a copy of another node).
    func reset(copy id: NodeID, in graph: PlanGraph, compiledLike original: NodeRuntime) {
        kernel = nil
        reset(shape: Shape.of(id, in: graph), compiled: original.kernel)
    }

    /// Drops the kernel (a copy's state handed back: see `reset(copy:in:compiledLike:)`).
    func dropKernel() { kernel = nil }

    /// Empties the kernel (or drops it) as the run hands this state back: a kept kernel must
    /// not hold a source's columns until the next run, or the next write to that source copies
    /// every column (copy-on-write) to leave the kernel's view intact.
    func releaseKernelState() {
        if kernel?.resetForRun() != true { kernel = nil }
    }

    /// The node's operator kernel, compiled (nil for sources and dead nodes).
    static func compile(_ node: PlanNode, in graph: PlanGraph) throws -> (any Kernel)? {
        guard case let .apply(op) = node.operation else { return nil }
        return try KernelFactory.make(op, operands: node.children.map { graph[$0].scheme }, output: node.scheme)
    }
}
