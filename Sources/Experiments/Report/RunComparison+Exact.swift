import QueryEngine

/// The deterministic side of `compare RUN_A RUN_B`: counters and results, compared exactly.
extension RunComparison {
    struct ExactChanges {
        var counters: [[String]] = [["cell", "counter", "A", "B", "difference"]]
        var counterChanges: [String] = []
        var results: [[String]] = [["cell", "A result", "B result"]]
        var resultChanges: [String] = []
    }

    /// Each matched cell's results over all its repetitions (a hand-edited second repetition
    /// passed when only the first was read), and its counters in its first repetition (they
    /// are the same in every one).
    func exactChanges(_ matched: [Cell], _ a: Run, _ b: Run, name: (Cell) -> String) -> ExactChanges {
        var out = ExactChanges()
        func results(_ records: [TimingRecord]) -> [String] {
            Array(Set(records.map { "\($0.resultRows) \($0.resultHash.prefix(8))" })).sorted()
        }
        for cell in matched {
            guard let ra = a.records[cell]?.min(by: { $0.repetition < $1.repetition }),
                  let rb = b.records[cell]?.min(by: { $0.repetition < $1.repetition }) else { continue }
            let resultsA = results(a.records[cell] ?? []), resultsB = results(b.records[cell] ?? [])
            if resultsA != resultsB {
                out.resultChanges.append(name(cell))
                out.results.append([name(cell), resultsA.joined(separator: ", "), resultsB.joined(separator: ", ")])
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

    /// Query and size groups whose cells disagree within one run (a run that mismatched, or
    /// a hand-edited `timings.csv`): times between such cells compare different work.
    func disagreements(_ run: Run, label: String) -> [String] {
        let records = run.records.values.flatMap { $0 }
        let multipleBackends = run.experiment.backends.count > 1
        return EqualityCheck().mismatches(records, order: run.experiment.cells) {
            ResultsWriter.mismatchLabel($0, multipleBackends: multipleBackends)
        }.map { mismatch in
            "\(label): \(mismatch.group): "
                + mismatch.results.map { "\($0.label) \($0.rows) \($0.hash.prefix(8))" }.joined(separator: " vs ")
        }
    }
}
