import FileSupport

/// The files written once cells are done (by a run, a resumed run or a merge): the summary
/// CSV and table, the result-equality verdict, the run state and the plots.
struct ResultsWriter {
    let experiment: Experiment
    let directory: String
    let console: Console
    /// Run the Python helpers: the plots and the bootstrap confidence intervals (tests
    /// switch them off; without them the CI columns stay empty).
    let plots: Bool
    /// Test hook called as the summary and the plots begin.
    var finishing: ((FinishingStep) throws -> Void)?
    /// A run (not a merge): Ctrl-C during the plots leaves the run `interrupted`.
    var interruptible = false

    init(experiment: Experiment, directory: String, console: Console, plots: Bool) {
        self.experiment = experiment
        self.directory = directory
        self.console = console
        self.plots = plots
    }

    /// How a mismatch names one record: its cell, mode, repetition and flags.
    static func mismatchLabel(_ r: TimingRecord, multipleBackends: Bool) -> String {
        SummaryTable.label(r.cell, multipleBackends: multipleBackends) + (r.change.map { " \($0.mode)" } ?? "")
            + " repetition \(r.repetition)" + (r.flags.isEmpty ? "" : " (flags \(r.flags))")
    }

    func finish(
        records: [TimingRecord], equality: EqualityCheck, cellsDone: Int, cellsTotal: Int, interrupted: Bool, shard: Shard
    ) throws -> RunOutcome {
        var interrupted = interrupted
        try finishing?(.summary)
        let order = experiment.cells
        let plain = Summary.rows(records, order: order, baseline: experiment.speedupBaseline)
        let (rows, intervalNote) = plots
            ? SummaryIntervals.attach(plain, records: records, order: order, baseline: experiment.speedupBaseline)
            : (plain, nil)
        if let intervalNote { console.err("testbed: \(intervalNote)\n") }
        try FileSystem.writeTextAtomically(Summary.text(rows, changes: experiment.changes != nil), to: FileSystem.join(directory, Summary.fileName))
        let table = SummaryTable.render(rows)
        try FileSystem.writeTextAtomically(table, to: FileSystem.join(directory, "summary.txt"))

        let multipleBackends = experiment.backends.count > 1
        let mismatches = equality.mismatches(records, order: order) { Self.mismatchLabel($0, multipleBackends: multipleBackends) }
        let mismatchPath = FileSystem.join(directory, "mismatches.txt")
        if !mismatches.isEmpty {
            try FileSystem.writeTextAtomically(EqualityCheck.report(mismatches), to: mismatchPath)
        } else if FileSystem.exists(mismatchPath) {
            FileSystem.remove(mismatchPath)
        }

        try finishing?(.plots)
        if plots && !rows.isEmpty { Plotter.plot(directory: directory, console: console) }
        if interruptible && Interruption.requested { interrupted = true }

        // The state last: `complete` only once everything above is written.
        let status: RunState.Status = interrupted ? .interrupted : (cellsDone == cellsTotal ? .complete : .incomplete)
        try ReportWriter(directory: directory, experiment: experiment, rows: rows, records: records,
                         status: "\(status.rawValue), \(cellsDone) of \(cellsTotal) cells" + (shard.isWhole ? "" : ", shard \(shard)"),
                         intervalNote: intervalNote).write()
        let state = RunState(experiment: experiment.name, shard: shard, status: status, cellsDone: cellsDone, cellsTotal: cellsTotal)
        try FileSystem.writeTextAtomically(state.text, to: FileSystem.join(directory, RunState.fileName))

        console.out("\n\(experiment.name): \(cellsDone) of \(cellsTotal) cells" + (shard.isWhole ? "" : " (shard \(shard))")
            + " in \(directory)\n\n" + table)
        if mismatches.isEmpty {
            if !records.isEmpty {
                console.out("results equal: every flag set and engine agreed in each query and size\n")
            }
        } else {
            console.err("\n" + EqualityCheck.report(mismatches)
                + "testbed: \(mismatches.count) result mismatch(es); see \(mismatchPath)\n")
        }
        console.out("report: \(FileSystem.join(directory, ReportWriter.fileName))\n")
        return RunOutcome(directory: directory, cellsDone: cellsDone, cellsTotal: cellsTotal,
                          interrupted: interrupted, mismatches: mismatches)
    }
}
