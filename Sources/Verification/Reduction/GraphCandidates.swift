import Relational

/// Smaller variants of a case graph, biggest cuts first; the reducer keeps the first that
/// still fails. Each is compacted; ones that no longer type-check are rejected when built.
enum GraphCandidates {
    /// Drop one output (never the last one).
    static func droppingOutputs(_ g: CaseGraph) -> [CaseGraph] {
        guard g.outputs.count > 1 else { return [] }
        return g.outputs.indices.map { i in
            var c = g
            c.outputs.remove(at: i)
            c.partition = nil
            return c.compacted()
        }
    }

    /// Replace a node by one of its operands everywhere it is used (delta debugging over
    /// the expression DAG); nodes nearest the outputs first.
    static func hoistingOperands(_ g: CaseGraph) -> [CaseGraph] {
        var out: [CaseGraph] = []
        for n in g.reachableNodes.reversed() {
            for o in Set(g.nodes[n].operands).sorted() {
                var c = g
                c.nodes = g.nodes.map { $0.mappingOperands { $0 == n ? o : $0 } }
                c.outputs = g.outputs.map { $0 == n ? o : $0 }
                out.append(c.compacted())
            }
        }
        return out
    }

    /// Each select with a simpler predicate.
    static func simplifyingPredicates(_ g: CaseGraph) -> [CaseGraph] {
        var out: [CaseGraph] = []
        for n in g.reachableNodes.reversed() {
            guard case let .apply(.select(p), operands) = g.nodes[n] else { continue }
            for simpler in simplifications(of: p) {
                var c = g
                c.nodes[n] = .apply(.select(simpler), operands)
                out.append(c)
            }
        }
        return out
    }

    /// Strictly smaller predicates: constants, each part of and/or, the inside of a not,
    /// and the same simplifications one level down.
    static func simplifications(of p: Predicate) -> [Predicate] {
        var out: [Predicate] = []
        switch p {
        case .constant: return []
        case .comparison: out = [.true, .false]
        case let .and(parts), let .or(parts):
            out = [.true, .false] + parts
            for (i, part) in parts.enumerated() {
                for s in simplifications(of: part) {
                    var copy = parts
                    copy[i] = s
                    if case .and = p { out.append(.and(copy)) } else { out.append(.or(copy)) }
                }
                if parts.count > 2 {
                    var copy = parts
                    copy.remove(at: i)
                    if case .and = p { out.append(.and(copy)) } else { out.append(.or(copy)) }
                }
            }
        case let .not(inner):
            out = [.true, .false, inner] + simplifications(of: inner).map { .not($0) }
        case .inSet:
            out = [.true, .false]
        }
        return out
    }

    /// Fewer index declarations (each table's indexes dropped).
    static func droppingIndexes(_ g: CaseGraph) -> [CaseGraph] {
        g.tables.indices.filter { !g.tables[$0].indexedAttributes.isEmpty }.map { t in
            var c = g
            c.tables[t].indexedAttributes = []
            return c
        }
    }
}
