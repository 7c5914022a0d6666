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
class CountedNode {
    let relation: Relation
    let context: CountedContext
    /// Sources under this node, by identity: a transaction that changes none of them
    /// leaves the node's delta empty without running its rule.
    let sourcesBelow: Set<ObjectIdentifier>
    private(set) var delta = CountedDelta()
    /// Per probe positions, this transaction's removed rows by their values there.
    private var removedByKey: [[Int]: [Row: [Row]]] = [:]

    init(relation: Relation, context: CountedContext, sourcesBelow: Set<ObjectIdentifier>) {
        self.relation = relation
        self.context = context
        self.sourcesBelow = sourcesBelow
    }

    var scheme: Scheme { relation.scheme }

    final func update() throws {
        removedByKey = [:]
        if sourcesBelow.contains(where: { context.sourceDeltas[$0] != nil }) {
            delta = try computeDelta()
        } else {
            delta = CountedDelta()
        }
    }

    /// Forgets the last transaction's delta (after propagation, so probes see the state after).
    final func clearDelta() {
        delta = CountedDelta()
        removedByKey = [:]
    }

    // MARK: For subclasses

    func computeDelta() throws -> CountedDelta { fatalError("abstract") }
    func contains(_ row: Row, _ state: CountedState) throws -> Bool { fatalError("abstract") }
    /// Rows whose values at `positions` are `key`.
    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] { fatalError("abstract") }
    var canContain: Bool { fatalError("abstract") }
    func canProbe(_ positions: [Int]) -> Bool { fatalError("abstract") }

    // MARK: The state before, from the state after and this node's delta

    /// Whether the node held `row` before, given whether it holds it after.
    final func heldBefore(_ row: Row, holdsAfter: Bool) -> Bool {
        holdsAfter ? !delta.added.contains(row) : delta.removed.contains(row)
    }

    /// The rows matching before, given those matching after.
    final func matchingBefore(_ after: [Row], _ positions: [Int], _ key: Row) -> [Row] {
        if delta.isEmpty { return after }
        var out = delta.added.isEmpty ? after : after.filter { !delta.added.contains($0) }
        if !delta.removed.isEmpty {
            if removedByKey[positions] == nil {
                removedByKey[positions] = Dictionary(grouping: delta.removed) { $0.picking(positions) }
            }
            out += removedByKey[positions]?[key] ?? []
        }
        return out
    }
}
