import Relational

/// Which state of an operand a counted rule asks about: before the transaction or after it.
enum CountedState {
    case before, after
}

/// One node's set change in one transaction: disjoint, `removed` ⊆ before, `added` ∩ before = ∅.
struct CountedDelta {
    var added: Set<Row> = []
    var removed: Set<Row> = []

    var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}

/// What every node of one counted dataflow shares: the engine (set-up and fallbacks), the
/// transaction's source deltas and the rows the transaction's probes read from sources.
final class CountedContext {
    let engine: QueryEngine
    /// The transaction's changed sources, by identity.
    var sourceDeltas: [ObjectIdentifier: SourceDelta] = [:]
    /// Source rows read by probes (and by probes of a source's maintained copy).
    var rowsRead = 0
    /// Engine runs of fallbacks (closures re-evaluated), for the report's counters.
    var runs = RunLog()

    init(engine: QueryEngine) { self.engine = engine }

    func evaluate(_ relation: Relation) throws -> Set<Row> {
        Set(try engine.run([relation]).results[0])
    }
}

/// One operator (or source) of a maintained dataflow. `update()` computes the node's delta
/// for the current transaction; the dataflow calls it bottom-up, so a node's operands'
/// deltas are known (and their kept state already updated) when its own rule runs.
///
/// Every node answers two probes, in either state: whether it holds a row, and its rows with
/// given values at given positions. A node answers them from its own kept state, through
/// its operands, or from a source's index; `canContain`/`canProbe` say whether it can do so
/// without a scan, and the builder puts a `CountedMaterialized` copy in front of a node that
/// cannot (see `CountedDataflow`).
protocol CountedNode: AnyObject {
    /// The bookkeeping every node shares (its relation, this transaction's delta).
    var core: CountedNodeCore { get }
    /// This node's rule: its delta from its operands' deltas and probes.
    func computeDelta() throws -> CountedDelta
    func contains(_ row: Row, _ state: CountedState) throws -> Bool
    /// Rows whose values at `positions` are `key`.
    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row]
    var canContain: Bool { get }
    func canProbe(_ positions: [Int]) -> Bool
}

extension CountedNode {
    var relation: Relation { core.relation }
    var context: CountedContext { core.context }
    var sourcesBelow: Set<ObjectIdentifier> { core.sourcesBelow }
    var scheme: Scheme { core.relation.scheme }
    var delta: CountedDelta { core.delta }

    func update() throws {
        core.removedByKey = [:]
        if sourcesBelow.contains(where: { context.sourceDeltas[$0] != nil }) {
            core.delta = try computeDelta()
        } else {
            core.delta = CountedDelta()
        }
    }

    /// Forgets the last transaction's delta (after propagation, so probes see the state after).
    func clearDelta() {
        core.delta = CountedDelta()
        core.removedByKey = [:]
    }

    // MARK: The state before, from the state after and this node's delta

    /// Whether the node held `row` before, given whether it holds it after.
    func heldBefore(_ row: Row, holdsAfter: Bool) -> Bool {
        holdsAfter ? !delta.added.contains(row) : delta.removed.contains(row)
    }

    /// The rows matching before, given those matching after.
    func matchingBefore(_ after: [Row], _ positions: [Int], _ key: Row) -> [Row] {
        let delta = core.delta
        if delta.isEmpty { return after }
        var out = delta.added.isEmpty ? after : after.filter { !delta.added.contains($0) }
        if !delta.removed.isEmpty {
            if core.removedByKey[positions] == nil {
                core.removedByKey[positions] = Dictionary(grouping: delta.removed) { $0.picking(positions) }
            }
            out += core.removedByKey[positions]?[key] ?? []
        }
        return out
    }
}

/// What every counted node keeps beside its rule's own state.
final class CountedNodeCore {
    let relation: Relation
    let context: CountedContext
    /// Sources under the node, by identity: a transaction that changes none of them
    /// leaves the node's delta empty without running its rule.
    let sourcesBelow: Set<ObjectIdentifier>
    fileprivate(set) var delta = CountedDelta()
    /// Per probe positions, this transaction's removed rows by their values there.
    fileprivate var removedByKey: [[Int]: [Row: [Row]]] = [:]

    init(relation: Relation, context: CountedContext, sourcesBelow: Set<ObjectIdentifier>) {
        self.relation = relation
        self.context = context
        self.sourcesBelow = sourcesBelow
    }
}
