/// Adds bootstrap confidence intervals to summary rows: for each cell's median total time,
/// and for its speedup (the baseline cell's median over its own, as `Summary.rows` pairs them).
enum SummaryIntervals {
    /// The rows with intervals, and a note for the user when they could not be computed.
    static func attach(
        _ rows: [SummaryRow], records: [TimingRecord], order: [Cell], baseline: String?
    ) -> (rows: [SummaryRow], note: String?) {
        guard !rows.isEmpty else { return (rows, nil) }
        let samples = Dictionary(grouping: records, by: \.cell).mapValues { $0.map(\.totalMicroseconds) }
        var medians: [(id: String, samples: [Double])] = []
        var ratios: [BootstrapIntervals.Ratio] = []
        for row in rows {
            guard let own = samples[row.cell] else { continue }
            medians.append((id: "median \(row.cell)", samples: own))
            if let baseline, row.speedup != nil,
               let reference = samples[Summary.baselineCell(of: row.cell, baseline: baseline, order: order)] {
                ratios.append(.init(id: "speedup \(row.cell)", numerator: reference, denominator: own))
            }
        }
        let answer: BootstrapIntervals.Answer
        do {
            answer = try BootstrapIntervals.compute(medians: medians, ratios: ratios)
        } catch {
            return (rows, "confidence intervals left empty: \(error)")
        }
        return (rows.map { row in
            var row = row
            row.totalInterval = answer.intervals["median \(row.cell)"]
            row.speedupInterval = answer.intervals["speedup \(row.cell)"]
            return row
        }, nil)
    }
}
