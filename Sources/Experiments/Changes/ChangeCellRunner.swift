import QueryEngine
import Relational
import Workloads

/// One change-experiment cell: replays the stream on a fresh copy of the size's dataset,
/// observing every output of the query in the cell's mode, and records one row per
/// transaction. After every transaction the outputs' states (the initial result plus every
/// change so far) are hashed, so the equality check compares the modes' states after each
/// transaction; a change that is not exact (removing a row that was not there, adding one
/// that was) is an error.
struct ChangeCellRunner {
    let experiment: Experiment
    let stream: ChangeStream
    let cell: Cell
    let query: ExperimentQuery
    let engine: QueryEngine
    let data: SizedData
    /// Printed should a signal end the process while a replay's data is prepared
    /// (`Interruption.endingAtOnce`).
    let notice: String
    var tamper: ((Cell, Int, inout [RowChange]) -> Void)?

    /// Runs `experiment.warmup` untimed replays, then one replay per repetition; nil when
    /// interrupted meanwhile.
    func run(keep: (Cell, CellGroup, String, [[Row]]) -> Void) throws -> [TimingRecord]? {
        guard let mode = ChangeMode(rawValue: cell.mode) else {
            throw ExperimentFailure.usage("no change mode named \(cell.mode) in the experiment")
        }
        let script = try Interruption.endingAtOnce(notice: notice) { try data.changeScript(stream) }
        for _ in 0..<experiment.warmup {
            guard try replay(mode, script, repetition: 0, keep: { _, _, _, _ in }) != nil else { return nil }
        }
        var out: [TimingRecord] = []
        for repetition in 1...experiment.repetitions {
            guard let records = try replay(mode, script, repetition: repetition, keep: keep) else { return nil }
            out += records
        }
        return out
    }

    private func replay(
        _ mode: ChangeMode, _ source: (text: String, file: String), repetition: Int,
        keep: (Cell, CellGroup, String, [[Row]]) -> Void
    ) throws -> [TimingRecord]? {
        // Fresh tables for every replay, on the cell's backend: the stream changes them.
        // `loaded` keeps an SQLite copy or property-list files open while its tables are used.
        guard let backend = Backend(rawValue: cell.backend) else {
            throw ExperimentFailure.usage("no backend named \(cell.backend)")
        }
        // Loading, the initial result and the driver keep nothing if cut short (minutes at a
        // million rows on `plist-directory`): a signal meanwhile ends the run at once.
        let (loaded, script, initial, driver) = try Interruption.endingAtOnce(notice: notice) {
            let loaded = try LoadedDataset(data.dataset, backend: backend)
            let catalog = loaded.catalog
            let parsed = try Query.parse(query.text, catalog: catalog, file: query.origin)
            let script = try ChangeScript.parse(
                source.text, targets: ChangeScript.targets(tables: catalog, query: parsed), file: source.file)
            let initial = try engine.run(parsed.relations).results
            let driver = try mode.makeDriver(query: parsed, engine: engine, orderedBy: stream.orderedBy)
            return (loaded, script, initial, driver)
        }
        defer { withExtendedLifetime(loaded) {} }
        var state = ObservedState(initial)
        var out: [TimingRecord] = []
        for (i, transaction) in script.transactions.prefix(stream.transactions).enumerated() {
            if Interruption.requested { return nil }
            var m = try driver.apply(transaction, of: script)
            tamper?(cell, i + 1, &m.changes)
            // A change that is not exact (removing a row the output lacked, adding one it had)
            // marks the hash, so the equality check reports this transaction as a mismatch.
            let exact = state.apply(m.changes)
            let hash = (exact ? "" : ResultHash.inexactPrefix) + state.hash
            let group = CellGroup(query: cell.query, rows: cell.rows, transaction: i + 1)
            if repetition > 0 && state.rowCount <= EqualityCheck.sampleLimit { keep(cell, group, hash, state.outputs) }
            out.append(TimingRecord(
                experiment: experiment.name, query: cell.query, shape: experiment.shape.rawValue, rows: cell.rows,
                seed: experiment.seed, backend: cell.backend, engine: cell.engine, flags: experiment.flags(of: cell),
                flagset: cell.flagset, repetition: max(repetition, 1), planMicroseconds: 0, optimizeMicroseconds: 0,
                runMicroseconds: m.microseconds, resultRows: state.rowCount, resultHash: hash,
                counters: m.counters.columns.map { Optional($0.value) },
                change: .init(mode: mode.rawValue, transaction: i + 1,
                              changesIn: transaction.statements.reduce(0) { $0 + $1.size },
                              rowsAdded: m.changes.reduce(0) { $0 + $1.added.count },
                              rowsRemoved: m.changes.reduce(0) { $0 + $1.removed.count })))
        }
        return out
    }
}
