import FileSupport

/// `summary.csv` is worked out from `timings.csv`; read back beside it, each row must say
/// what the timings give. `report` and `compare` show the summary's figures, so a hand-edited
/// speedup, result hash or median was shown as measured.
enum SummaryAgreement {
    /// Columns not worked out here: the confidence intervals come from the bootstrap (scipy),
    /// and `flags` is normalised on reading.
    private static let skipped = Set(SummaryRow.intervalColumns + ["flags"])

    /// Refuses the first row of `located` (read from `path`) that differs from what the
    /// `timings.csv` beside it gives; passes when there is none.
    static func check(_ rows: [SummaryRow], located: [CSVRecord], path: String, experiment: Experiment) throws {
        let timings = FileSystem.join(FileSystem.parentDirectory(of: path), TimingsFile.name)
        guard FileSystem.exists(timings) else { return }
        let records = try TimingsFile.read(timings, experiment: experiment)
        let computed = Summary.rows(records, order: experiment.cells, baseline: experiment.speedupBaseline)
        let byCell = Dictionary(computed.map { ($0.cell, $0) }, uniquingKeysWith: { first, _ in first })
        for (row, record) in zip(rows, located) {
            guard let expected = byCell[row.cell] else {
                throw ExperimentFailure.usage("\(record.place): \(row.cell) has no rows in \(Printable.quoted(timings)); "
                    + "the two files disagree (edited after the run?)")
            }
            let header = row.change == nil ? SummaryRow.header : SummaryRow.changeHeader
            for (column, (written, worked)) in zip(header, zip(row.fields, expected.fields))
            where !skipped.contains(column) && written != worked {
                throw ExperimentFailure.usage("\(record.place): \(column) is \(Printable.excerpt(written)), but "
                    + "\(Printable.quoted(timings)) gives \(Printable.excerpt(worked)); the two files disagree (edited after the run?)")
            }
        }
    }
}
