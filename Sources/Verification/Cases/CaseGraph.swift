import Relational

/// A self-contained verification case: source tables, a DAG of operations over them (each
/// node's operands come earlier in `nodes`) and the nodes that are outputs. Unlike a
/// `Relation` graph it is plain data, so the reducer can rewrite it freely and rebuild.
public struct CaseGraph: Hashable, Sendable {
    public var tables: [CaseTable]
    public var nodes: [CaseOperation]
    public var outputs: [Int]
    /// When set, outputs `matching` and `rest` are `whole select p` and
    /// `whole select not p`: the metamorphic partition oracle checks them against `whole`.
    public var partition: PartitionOutputs?

    public init(tables: [CaseTable], nodes: [CaseOperation], outputs: [Int], partition: PartitionOutputs? = nil) {
        self.tables = tables
        self.nodes = nodes
        self.outputs = outputs
        self.partition = partition
    }

    /// Nodes reachable from the outputs, ascending.
    public var reachableNodes: [Int] {
        var seen = Set<Int>()
        var stack = outputs
        while let n = stack.popLast() {
            guard n >= 0, n < nodes.count, seen.insert(n).inserted else { continue }
            stack.append(contentsOf: nodes[n].operands)
        }
        return seen.sorted()
    }

    /// Distinct reachable nodes, sources included.
    public var nodeCount: Int { reachableNodes.count }

    /// Rows of all tables a reachable node reads.
    public var rowCount: Int {
        var used = Set<Int>()
        for n in reachableNodes { if case let .table(t) = nodes[n] { used.insert(t) } }
        return used.reduce(0) { $0 + tables[$1].rows.count }
    }

    /// Builds one relation per output over `tables` (one relation per table, by index).
    /// Throws when an operation does not fit its operands' schemes.
    public func relations(over tables: [Relation]) throws -> [Relation] {
        var built = [Relation?](repeating: nil, count: nodes.count)
        for n in reachableNodes {
            built[n] = try nodes[n].relation(
                operand: { o in
                    guard o < n, let r = built[o] else {
                        throw VerificationError.malformedCase("node \(n) uses node \(o), which is not an earlier node")
                    }
                    return r
                },
                table: { t in
                    guard let r = tables[safe: t] else {
                        throw VerificationError.malformedCase("node \(n) reads table \(t), which does not exist")
                    }
                    return r
                })
        }
        return try outputs.map { o in
            guard let r = built[safe: o] ?? nil else { throw VerificationError.malformedCase("output node \(o) does not exist") }
            return r
        }
    }

    /// The partition outputs if the graph still has that shape (reductions may break it).
    public var validPartition: PartitionOutputs? {
        guard let p = partition, let whole = outputs[safe: p.whole],
            let matching = outputs[safe: p.matching], let rest = outputs[safe: p.rest],
            case let .apply(.select(predicate), a) = nodes[matching], a == [whole],
            case let .apply(.select(negated), b) = nodes[rest], b == [whole], negated == .not(predicate)
        else { return nil }
        return p
    }

    /// Drops unreachable nodes and unused tables and renumbers what is left (same meaning).
    public func compacted() -> CaseGraph {
        let keep = reachableNodes
        var usedTables: [Int] = []
        for n in keep { if case let .table(t) = nodes[n], !usedTables.contains(t) { usedTables.append(t) } }
        usedTables.sort()
        var tableIndex: [Int: Int] = [:]
        for (i, t) in usedTables.enumerated() { tableIndex[t] = i }
        var nodeIndex: [Int: Int] = [:]
        var newNodes: [CaseOperation] = []
        for n in keep {
            nodeIndex[n] = newNodes.count
            if case let .table(t) = nodes[n] {
                newNodes.append(.table(tableIndex[t] ?? t))
            } else {
                newNodes.append(nodes[n].mappingOperands { nodeIndex[$0] ?? $0 })
            }
        }
        return CaseGraph(
            tables: usedTables.map { tables[$0] }, nodes: newNodes,
            outputs: outputs.map { nodeIndex[$0] ?? $0 }, partition: partition)
    }
}

/// Positions in `outputs` of the partition oracle's three outputs.
public struct PartitionOutputs: Hashable, Sendable {
    public var whole: Int
    public var matching: Int
    public var rest: Int

    public init(whole: Int, matching: Int, rest: Int) {
        self.whole = whole
        self.matching = matching
        self.rest = rest
    }
}

public enum VerificationError: Error, CustomStringConvertible, Equatable {
    case malformedCase(String)
    case repro(path: String, message: String)
    case usage(String)

    public var description: String {
        switch self {
        case let .malformedCase(m): return "malformed case: \(m)"
        case let .repro(path, message): return "\(path): \(message)"
        case let .usage(m): return m
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
