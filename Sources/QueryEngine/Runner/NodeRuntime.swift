import Relational

/// Everything the runner tracks for one node while a query runs.
final class NodeRuntime {
    // Filter state (seed 000: parental filter and count of parents still without one).
    var filter: Predicate?
    var remainingParents: Int
    var filterActive = false
    /// Per operand: whether this node has already provided a filter to that child.
    var providedToOperand: [Bool]
    /// The disjuncts of `filter`, each once (IN-sets over the same attributes merged).
    private var disjuncts = FilterDisjuncts()

    /// ORs `filter` into the parental filter (see `FilterDisjuncts`).
    func orIntoFilter(_ filter: Predicate) {
        let added = disjuncts.add(filter)
        if added || self.filter == nil { self.filter = disjuncts.predicate }
    }

    // Progress.
    var started = false
    var complete = false
    var operandComplete: [Bool]
    var rowsIn = 0
    var rowsOut = 0

    // Operation state, used according to the node's operation.
    var seen = Set<Row>()
    var sides: [Set<Row>] = [[], []]
    var pendingLeft: [Row] = []
    var joinTables: [[Row: [Row]]] = [[:], [:]]
    var joinRows = [0, 0]

    // Compiled forms of the operation, built once.
    let select: CompiledPredicate?
    let columnMap: ColumnMap?
    let joinLayout: JoinLayout?

    /// Fresh state for a copy of a node, sharing the original's compiled operation.
    init(node: PlanNode, compiledLike original: NodeRuntime) {
        remainingParents = node.parents.count + (node.outputs.isEmpty ? 0 : 1)
        providedToOperand = Array(repeating: false, count: node.children.count)
        operandComplete = Array(repeating: false, count: node.children.count)
        select = original.select
        columnMap = original.columnMap
        joinLayout = original.joinLayout
    }

    init(node: PlanNode, graph: PlanGraph) throws {
        remainingParents = node.parents.count + (node.outputs.isEmpty ? 0 : 1)
        providedToOperand = Array(repeating: false, count: node.children.count)
        operandComplete = Array(repeating: false, count: node.children.count)
        let childSchemes = node.children.map { graph[$0].scheme }
        switch node.operation {
        case let .select(p):
            select = try CompiledPredicate(p, scheme: childSchemes[0])
            columnMap = nil
            joinLayout = nil
        case .project:
            select = nil
            columnMap = .project(from: childSchemes[0], to: node.scheme)
            joinLayout = nil
        case let .rename(map):
            select = nil
            columnMap = .rename(from: childSchemes[0], to: node.scheme, map: map)
            joinLayout = nil
        case let .join(pairs):
            select = nil
            columnMap = nil
            joinLayout = JoinLayout(left: childSchemes[0], right: childSchemes[1], pairs: pairs, output: node.scheme)
        default:
            select = nil
            columnMap = nil
            joinLayout = nil
        }
    }
}
