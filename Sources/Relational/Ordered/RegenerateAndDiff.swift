/// The alternative an ordered view is measured against (the GlueKit talk's `generateItems`
/// plus `calculateDifference`): sort the relation's whole new contents and diff the sorted
/// arrays by a merge walk. O(n log n) per change, whatever the change's size.
public enum RegenerateAndDiff {
    /// The new sorted array and the index-level change from `old` (sorted by `ordering`).
    public static func diff(old: [Row], newContents: some Sequence<Row>, ordering: RowOrdering)
        -> (rows: [Row], change: OrderedChange)
    {
        let new = newContents.sorted(by: ordering.less)
        var removedAt: [Row: Int] = [:]
        var insertedAt: [Row: Int] = [:]
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && ordering.less(old[i], new[j])) {
                removedAt[old[i]] = i
                i += 1
            } else if i == old.count || ordering.less(new[j], old[i]) {
                insertedAt[new[j]] = j
                j += 1
            } else {
                i += 1
                j += 1
            }
        }
        let paired = MovePairing.pairs(removed: removedAt.keys, added: insertedAt.keys, ordering: ordering)
        let change = OrderedChange(
            removals: paired.removed.map { .init(index: removedAt[$0] ?? -1, row: $0) },
            insertions: paired.added.map { .init(index: insertedAt[$0] ?? -1, row: $0) },
            moves: paired.moves.map { .init(from: removedAt[$0.old] ?? -1, to: insertedAt[$0.new] ?? -1, old: $0.old, new: $0.new) })
        return (new, change)
    }
}
