import FileSupport

/// The files written once cells are done (by a run, a resumed run or a merge): the summary
/// CSV and table, the result-equality verdict, the run state and the plots.
struct ResultsWriter {
    let experiment: Experiment
    let directory: String
    let console: Console
    let plots: Bool

    func finish(
        records: [TimingRecord], equality: EqualityCheck, cellsDone: Int, cellsTotal: Int, interrupted: Bool, shard: Shard
    ) throws -> RunOutcome {
        let order = experiment.cells
        let rows = Summary.rows(records, order: order, baseline: experiment.speedupBaseline)
        try FileSystem.writeTextAtomically(Summary.text(rows), to: directory + "/" + Summary.fileName)
        let table = SummaryTable.render(rows)
        try FileSystem.writeTextAtomically(table, to: directory + "/summary.txt")

        let multipleBackends = experiment.backends.count > 1
        let mismatches = equality.mismatches(records, order: order) { r in
            let label = SummaryTable.label(r.cell, multipleBackends: multipleBackends)
            return label + " repetition \(r.repetition)" + (r.flags.isEmpty ? "" : " (flags \(r.flags))")
        }
        let mismatchPath = directory + "/mismatches.txt"
        if !mismatches.isEmpty {
            try FileSystem.writeTextAtomically(EqualityCheck.report(mismatches), to: mismatchPath)
        } else if FileSystem.exists(mismatchPath) {
            FileSystem.remove(mismatchPath)
        }

        let status: RunState.Status = interrupted ? .interrupted : (cellsDone == cellsTotal ? .complete : .incomplete)
        let state = RunState(experiment: experiment.name, shard: shard, status: status, cellsDone: cellsDone, cellsTotal: cellsTotal)
        try FileSystem.writeTextAtomically(state.text, to: directory + "/" + RunState.fileName)

        if plots && !rows.isEmpty { Plotter.plot(directory: directory, console: console) }

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
        return RunOutcome(directory: directory, cellsDone: cellsDone, cellsTotal: cellsTotal,
                          interrupted: interrupted, mismatches: mismatches)
    }
}
