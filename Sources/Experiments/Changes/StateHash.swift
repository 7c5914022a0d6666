import Relational
import Workloads

/// The observed outputs' contents during a change stream, kept by applying each
/// transaction's RowChanges, with an order-independent hash maintained alongside: per
/// output, the wrapping sum of each row's FNV-1a (over the normalized row, so `3.0` hashes
/// like `3`) and the row count. Updating it costs the size of the change, not of the state,
/// so a large derived relation can be compared after every transaction.
struct ObservedState {
    private(set) var rows: [Set<Row>]
    private var sums: [UInt64]

    init(_ initial: [[Row]]) {
        rows = initial.map(Set.init)
        sums = rows.map { $0.reduce(UInt64(0)) { $0 &+ Self.hash($1) } }
    }

    /// Applies one RowChange per output; returns false when a change is not exact (a removed
    /// row that was not there, an added row that was).
    mutating func apply(_ changes: [RowChange]) -> Bool {
        var exact = changes.count == rows.count
        for (i, change) in changes.enumerated() where i < rows.count {
            for r in change.removed {
                if rows[i].remove(r) == nil { exact = false } else { sums[i] = sums[i] &- Self.hash(r) }
            }
            for r in change.added {
                if rows[i].insert(r).inserted { sums[i] = sums[i] &+ Self.hash(r) } else { exact = false }
            }
        }
        return exact
    }

    var rowCount: Int { rows.reduce(0) { $0 + $1.count } }

    var hash: String {
        var hasher = ContentHasher()
        hasher.add(UInt64(rows.count))
        for (set, sum) in zip(rows, sums) {
            hasher.add(UInt64(set.count))
            hasher.add(sum)
        }
        return hasher.hex
    }

    /// The rows as result lists (for the mismatch report's samples).
    var outputs: [[Row]] { rows.map { Array($0) } }

    static func hash(_ row: Row) -> UInt64 {
        var hasher = ContentHasher()
        let normalized = ResultHash.normalize(row)
        hasher.add(UInt64(normalized.count))
        for v in normalized.values { hasher.add(v) }
        return hasher.value
    }
}
