import QueryEngine

/// The deterministic side of `compare RUN_A RUN_B`: counters and results, compared exactly.
extension RunComparison {
    struct ExactChanges {
        var counters: [[String]] = [["cell", "counter", "A", "B", "difference"]]
        var counterChanges: [String] = []
        var results: [[String]] = [["cell", "A result", "B result"]]
        var resultChanges: [String] = []
    }

    /// Each matched cell's counters and result in its first repetition (they are the same in every one).
    func exactChanges(_ matched: [Cell], _ a: Run, _ b: Run, name: (Cell) -> String) -> ExactChanges {
        var out = ExactChanges()
        for cell in matched {
            guard let ra = a.records[cell]?.min(by: { $0.repetition < $1.repetition }),
                  let rb = b.records[cell]?.min(by: { $0.repetition < $1.repetition }) else { continue }
            if ra.resultHash != rb.resultHash || ra.resultRows != rb.resultRows {
                out.resultChanges.append(name(cell))
                out.results.append([name(cell), "\(ra.resultRows) \(ra.resultHash.prefix(8))", "\(rb.resultRows) \(rb.resultHash.prefix(8))"])
            }
            for (i, column) in RunCounters.columnNames.enumerated() where i < ra.counters.count && i < rb.counters.count {
                guard ra.counters[i] != rb.counters[i] else { continue }
                let difference = (ra.counters[i] ?? 0).subtractingReportingOverflow(rb.counters[i] ?? 0)
                out.counterChanges.append("\(name(cell)) \(column)")
                out.counters.append([name(cell), column, ra.counters[i].map(String.init) ?? "-", rb.counters[i].map(String.init) ?? "-",
                                     ra.counters[i] != nil && rb.counters[i] != nil && !difference.overflow
                                         ? (difference.partialValue > 0 ? "-" : "+") + String(difference.partialValue.magnitude) : "-"])
            }
        }
        return out
    }
}
