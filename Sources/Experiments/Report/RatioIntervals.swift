import FileSupport

/// For `compare RESULTS`: the bootstrap interval of each cell's ratio to the baseline of the
/// same query and size (median of the cell / median of the baseline), from the run's
/// `timings.csv`. Empty, with a note saying why, when that file or scipy is missing; a
/// `timings.csv` that is there but cannot be read is an error (as for `report` and `merge`).
struct RatioIntervals {
    private var intervals: [Cell: Interval] = [:]
    private(set) var note: String?
    private(set) var library = ""

    init(summary: String, experiment: Experiment?, rows: [SummaryRow], base: String, label: (SummaryRow) -> String) throws {
        let timings = FileSystem.join(FileSystem.parentDirectory(of: summary), TimingsFile.name)
        guard let experiment, FileSystem.exists(timings) else {
            note = "no \(TimingsFile.name) and config.yaml beside \(Printable.escaped(summary))"
            return
        }
        let records = try TimingsFile.read(timings, experiment: experiment)
        let samples = Dictionary(grouping: records, by: \.cell).mapValues { $0.map(\.totalMicroseconds) }
        var baseCell: [CellGroup: Cell] = [:]
        for r in rows where label(r) == base { baseCell[r.cell.group] = r.cell }
        var ratios: [BootstrapIntervals.Ratio] = []
        for r in rows where label(r) != base {
            guard let reference = baseCell[r.cell.group], let own = samples[r.cell], let theirs = samples[reference] else { continue }
            ratios.append(.init(id: "\(r.cell)", numerator: own, denominator: theirs))
        }
        do {
            let answer = try BootstrapIntervals.compute(medians: [], ratios: ratios)
            library = "\(answer.method); \(answer.library)"
            for r in rows { if let i = answer.intervals["\(r.cell)"] { intervals[r.cell] = i } }
        } catch {
            note = "\(error)"
        }
    }

    func interval(of row: SummaryRow) -> Interval? { intervals[row.cell] }
}
