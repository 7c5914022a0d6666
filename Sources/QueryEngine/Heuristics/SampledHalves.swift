import Relational

/// `LateSubtreeCopying`'s case 8 answers per memory table, its content version and the
/// filter (at most 256 kept; then they start over). Each entry holds its table, so that no
/// other table can take its identity while the entry lives.
final class SampledHalves {
    private struct Key: Hashable {
        let table: ObjectIdentifier
        let version: Int
        let filter: Predicate
    }

    private var known: [Key: (table: MemoryTable, answer: Bool)] = [:]

    func answer(_ table: MemoryTable, _ filter: Predicate, _ compute: () -> Bool) -> Bool {
        let key = Key(table: ObjectIdentifier(table), version: table.contentVersion, filter: filter)
        if let entry = known[key], entry.table === table { return entry.answer }
        if known.count >= 256 { known.removeAll(keepingCapacity: true) }
        let answer = compute()
        known[key] = (table, answer)
        return answer
    }
}
