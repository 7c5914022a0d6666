import Relational

/// How the oracles compare results: as lists sorted in `ReferenceOrder` (the oracle's own
/// copy of the total order), never through `Value`'s hashing or `==`, which the engine
/// uses. A result is a set only if no two of its sorted rows are equal.
enum ResultComparison {
    /// A result sorted, its distinct rows, and how many rows repeated an earlier one.
    struct Sorted {
        let distinct: [Row]
        let duplicates: Int

        init(_ rows: [Row]) {
            let sorted = ReferenceOrder.sorted(rows)
            duplicates = ReferenceOrder.duplicateCount(sorted: sorted)
            distinct = duplicates == 0 ? sorted : ReferenceOrder.sortedDistinct(sorted)
        }
    }

    /// Whether two sorted, distinct lists hold the same rows.
    static func same(_ a: [Row], _ b: [Row]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { ReferenceOrder.equal($0, $1) }
    }

    /// Why `matching` and `rest` do not partition `whole`, or nil when they do (as sets).
    static func partitionProblem(whole: [Row], matching: [Row], rest: [Row]) -> String? {
        let w = Sorted(whole).distinct, m = Sorted(matching).distinct, r = Sorted(rest).distinct
        let shared = m.filter { ReferenceOrder.contains(r, $0) }.count
        if shared > 0 {
            return "Q select p and Q select not p share \(shared) rows"
        }
        let union = ReferenceOrder.sortedDistinct(m + r)
        if !same(union, w) {
            return "(Q select p) union (Q select not p) has \(union.count) rows, Q has \(w.count)"
        }
        return nil
    }
}
