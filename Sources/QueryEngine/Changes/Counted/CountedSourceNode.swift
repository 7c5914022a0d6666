import Relational

/// A source, probed in place through a memory table's indexes; it keeps nothing. Sources
/// are already changed when propagation runs, so the state before is the table corrected
/// by the source's delta. A source without an index on the probed attributes (or not a
/// memory table) cannot be probed: the builder keeps a maintained copy of it instead.
final class CountedSourceNode: CountedNode {
    let core: CountedNodeCore
    let source: any SourceRelation
    private let table: MemoryTable?

    init(relation: Relation, source: any SourceRelation, context: CountedContext) {
        self.source = source
        self.table = source as? MemoryTable
        core = CountedNodeCore(relation: relation, context: context, sourcesBelow: [ObjectIdentifier(source)])
    }

    func computeDelta() throws -> CountedDelta {
        guard let d = context.sourceDeltas[ObjectIdentifier(source)] else { return CountedDelta() }
        return CountedDelta(added: d.added, removed: d.removed)
    }

    /// The first position among `positions` whose attribute the table indexes.
    private func indexed(_ positions: [Int]) -> Int? {
        guard let table else { return nil }
        return positions.first { table.indexedAttributes.contains(scheme.attributes[$0]) }
    }

    var canContain: Bool { indexed(Array(scheme.attributes.indices)) != nil }
    func canProbe(_ positions: [Int]) -> Bool { indexed(positions) != nil }

    func contains(_ row: Row, _ state: CountedState) throws -> Bool {
        let holds = try rows(matchingAfter: Array(scheme.attributes.indices), row).contains(row)
        return state == .after ? holds : heldBefore(row, holdsAfter: holds)
    }

    func rows(matching positions: [Int], _ key: Row, _ state: CountedState) throws -> [Row] {
        let after = try rows(matchingAfter: positions, key)
        return state == .after ? after : matchingBefore(after, positions, key)
    }

    private func rows(matchingAfter positions: [Int], _ key: Row) throws -> [Row] {
        guard let table, let p = indexed(positions), let k = positions.firstIndex(of: p) else {
            throw ChangeError("counted propagation: \(source.sourceName) has no index to probe (a builder bug)")
        }
        let found = try table.lookup(scheme.attributes[p], key[k])
        context.rowsRead += found.count
        guard positions.count > 1 else { return found }
        return found.filter { $0.picking(positions) == key }
    }
}
