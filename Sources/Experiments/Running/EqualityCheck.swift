import Relational

/// A cell group whose cells did not all produce the same result.
public struct Mismatch: Sendable {
    public let group: CellGroup
    /// (cell label with flags, repetition, hash, row count) of each distinct result, first seen first.
    public let results: [(label: String, hash: String, rows: Int)]
    /// Rows of the first two distinct results, when this run still had them.
    public let detail: String
}

/// Result equality across a cell group: every flag set, backend and baseline engine running
/// the same query on the same data must give the same result hash, in every repetition.
public struct EqualityCheck {
    /// Sample results captured while running: group → hash → (cell, rows), for the report.
    private var samples: [CellGroup: [String: (cell: Cell, rows: [[Row]], scheme: [String])]] = [:]
    /// Results larger than this are not kept for the report.
    static let sampleLimit = 2000

    public init() {}

    mutating func keep(_ cell: Cell, group: CellGroup? = nil, hash: String, results: [[Row]]) {
        let group = group ?? cell.group
        guard samples[group]?[hash] == nil, results.reduce(0, { $0 + $1.count }) <= Self.sampleLimit else { return }
        samples[group, default: [:]][hash] = (cell, results, [])
    }

    public func mismatches(_ records: [TimingRecord], order: [Cell], label: (TimingRecord) -> String) -> [Mismatch] {
        let position = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let sorted = records.sorted {
            (position[$0.cell] ?? .max, $0.repetition, $0.change?.transaction ?? 0)
                < (position[$1.cell] ?? .max, $1.repetition, $1.change?.transaction ?? 0)
        }
        var groups: [CellGroup] = []
        var byGroup: [CellGroup: [TimingRecord]] = [:]
        for r in sorted {
            if byGroup[r.equalityGroup] == nil { groups.append(r.equalityGroup) }
            byGroup[r.equalityGroup, default: []].append(r)
        }
        return groups.compactMap { group in
            let records = byGroup[group] ?? []
            // A hash with two row counts disagrees too (a hand-edited `result_rows` was merged
            // under "results equal").
            var seen: [String] = []
            var seenResults: [(hash: String, rows: Int)] = []
            var results: [(String, String, Int)] = []
            for r in records where !seenResults.contains(where: { $0 == (r.resultHash, r.resultRows) }) {
                if !seen.contains(r.resultHash) { seen.append(r.resultHash) }
                seenResults.append((r.resultHash, r.resultRows))
                results.append((label(r), r.resultHash, r.resultRows))
            }
            guard seenResults.count > 1 else { return nil }
            return Mismatch(group: group, results: results, detail: detail(group, seen))
        }
    }

    private func detail(_ group: CellGroup, _ hashes: [String]) -> String {
        guard hashes.count >= 2 else {
            return "  (one hash with different row counts: a result file was edited, or the rows were counted differently)\n"
        }
        guard let a = samples[group]?[hashes[0]], let b = samples[group]?[hashes[1]] else {
            return "  (the rows are not available: these results came from an earlier or another shard's run)\n"
        }
        var out = ""
        for output in 0..<max(a.rows.count, b.rows.count) {
            let left = Set(output < a.rows.count ? a.rows[output].map(ResultHash.normalize) : [])
            let right = Set(output < b.rows.count ? b.rows[output].map(ResultHash.normalize) : [])
            let onlyLeft = left.subtracting(right).sorted(), onlyRight = right.subtracting(left).sorted()
            if onlyLeft.isEmpty && onlyRight.isEmpty { continue }
            out += "  output \(output + 1): \(onlyLeft.count) row(s) only in \(a.cell), \(onlyRight.count) only in \(b.cell)\n"
            for row in onlyLeft.prefix(10) { out += "    only in \(a.cell): \(describe(row))\n" }
            for row in onlyRight.prefix(10) { out += "    only in \(b.cell): \(describe(row))\n" }
        }
        if out.isEmpty { out = "  (same rows as sets; the difference is in duplicates or row counts)\n" }
        return out
    }

    private func describe(_ row: Row) -> String {
        "(" + row.values.map { "\($0)" }.joined(separator: ", ") + ")"
    }

    /// The loud report printed on standard error and written as `mismatches.txt`.
    public static func report(_ mismatches: [Mismatch]) -> String {
        var out = ""
        for m in mismatches {
            out += "!!! RESULT MISMATCH: \(m.group): the cells of this group disagree\n"
            for r in m.results { out += "    hash \(r.hash)  \(r.rows) row(s)  \(r.label)\n" }
            out += m.detail
        }
        return out
    }
}
