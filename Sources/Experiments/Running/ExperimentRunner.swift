import FileSupport
import QueryEngine
import Relational
import Workloads

/// Runs the cells of an experiment (or of one shard) into an output directory. After each
/// cell, `timings.csv` is rewritten atomically, so an interruption — Ctrl-C, or a killed
/// process — keeps every completed cell for `--resume`.
public final class ExperimentRunner {
    public let experiment: Experiment
    public let directory: String
    public let shard: Shard
    public var hooks = RunHooks()
    public var console: Console
    /// Run the Python helpers at the end, plots and confidence intervals (tests switch them off).
    public var plots = true
    /// The config as given on the command line, for the resume hint.
    public var configPath = "CONFIG"
    private var records: [TimingRecord] = []
    private var passRecords: [PassRecord] = []
    /// Optimizer passes skipped by name (`--disable-pass`), beside the config's `disabled-passes`.
    public var disabledPasses: [String] = []
    /// Checked mode for every engine run (`--validate`); nil for the default (`EngineChecks`).
    public var checked: Bool?
    private var equality = EqualityCheck()

    public init(experiment: Experiment, directory: String, shard: Shard = .whole, console: Console) {
        self.experiment = experiment
        self.directory = directory
        self.shard = shard
        self.console = console
    }

    /// Runs every cell of the shard not already in `timings.csv` (from an earlier,
    /// interrupted run when resuming), then writes the summary, plans and plots. `passes`
    /// are the earlier run's `passes.csv` rows of the cells it kept, read (and checked)
    /// with `existing` before anything is written (`ResumeCheck`).
    public func run(existing: [TimingRecord] = [], passes: [PassRecord] = []) throws -> RunOutcome {
        let order = experiment.cells
        let mine = shard.select(order)
        let kept = Self.keptCells(existing, experiment: experiment, shard: shard)
        records = existing.filter { kept.contains($0.cell) }
        passRecords = passes.filter { kept.contains($0.cell) }
        let pending = pendingCells(existing: existing)
        try writeState(.running, done: mine.count - pending.count, total: mine.count)
        if !kept.isEmpty { console.err("testbed: resuming: \(pending.count) of \(mine.count) cells left to run\n") }

        var progress = ProgressBar(
            console: console, totalCells: pending.count,
            totalWork: pending.reduce(0) { $0 + work(of: $1) })
        let cache = DatasetCache(experiment)
        defer { cache.stopEngines() }
        var finished = 0
        var interrupted = false
        Interruption.install()
        defer { Interruption.uninstall() }
        do {
            for cell in pending {
                if Interruption.requested || hooks.shouldStop?(finished) == true { interrupted = true; break }
                progress.starting(cell.description)
                let notice = "\ntestbed: stopped while preparing \(cell); " + interruptedNotice(kept: mine.count - pending.count + finished, of: mine.count)
                guard let (cellRecords, cellPasses) = try runCell(cell, cache: cache, notice: notice) else { interrupted = true; break }
                records += cellRecords
                passRecords += cellPasses
                try FileSystem.writeTextAtomically(PassesFile.text(passRecords, order: order), to: FileSystem.join(directory, PassesFile.name))
                try FileSystem.writeTextAtomically(TimingsFile.text(records, order: order, changes: experiment.changes != nil), to: FileSystem.join(directory, TimingsFile.name))
                finished += 1
                progress.finished(work: work(of: cell))
            }
            progress.clear()
            try FileSystem.writeTextAtomically(TimingsFile.text(records, order: order, changes: experiment.changes != nil), to: FileSystem.join(directory, TimingsFile.name))
        } catch {
            progress.clear()
            // Best effort (a full disk may refuse this too): run.txt no longer says running,
            // and counts the cells timings.csv keeps.
            try? writeState(.failed, done: mine.count - pending.count + finished, total: mine.count)
            throw error
        }
        let done = mine.count - pending.count + finished

        if !interrupted {
            // Until the summary and plots are written the run is not complete: a failure
            // from here on leaves `finishing`, which `--resume` finishes.
            try writeState(.finishing, done: done, total: mine.count)
        }
        let outcome: RunOutcome
        do {
            if !interrupted && experiment.plans && shard.index == 1 {
                try hooks.finishing?(.plans)
                try PlanWriter(experiment: experiment, directory: FileSystem.join(directory, "plans"), console: console).write(cache: cache)
                if Interruption.requested { interrupted = true }
            }
            var writer = ResultsWriter(experiment: experiment, directory: directory, console: console, plots: plots)
            writer.finishing = hooks.finishing
            writer.interruptible = true
            outcome = try writer.finish(records: records, equality: equality, cellsDone: done, cellsTotal: mine.count,
                                        interrupted: interrupted, shard: shard)
        } catch {
            // A full disk here left a run that said only "cannot write …/report.html".
            console.err("testbed: the cells that ran are kept in timings.csv, but the results were not all written; once the cause below is fixed, finish with: "
                + "testbed run \(configPath) --resume --out \(directory)" + (shard.isWhole ? "" : " --shard \(shard)") + "\n")
            throw error
        }
        interrupted = outcome.interrupted
        if interrupted {
            console.err("testbed: interrupted; " + interruptedNotice(kept: done, of: mine.count))
        }
        return outcome
    }

    private func interruptedNotice(kept done: Int, of total: Int) -> String {
        "kept \(done) of \(total) cells in \(directory)\n"
            + "continue with: testbed run \(configPath) --resume --out \(directory)"
            + (shard.isWhole ? "" : " --shard \(shard)") + "\n"
    }

    /// The cells of this shard that `existing` does not hold complete: what is left to run.
    func pendingCells(existing: [TimingRecord]) -> [Cell] {
        let kept = Self.keptCells(existing, experiment: experiment, shard: shard)
        return shard.select(experiment.cells).filter { !kept.contains($0) }
    }

    /// The cells of `shard` with every repetition recorded in `existing`: what a resumed run
    /// keeps (a cell cut short is run again).
    static func keptCells(_ existing: [TimingRecord], experiment: Experiment, shard: Shard) -> Set<Cell> {
        let complete = Dictionary(grouping: existing, by: \.cell).filter { $0.value.count == experiment.recordsPerCell }.keys
        return Set(complete).intersection(shard.select(experiment.cells))
    }

    private func work(of cell: Cell) -> Double {
        Double(cell.rows) * (Double(experiment.warmup) + Double(experiment.repetitions))
    }

    /// The repetitions of one cell after its warm-up runs, and their pass and hook times;
    /// nil if interrupted meanwhile.
    /// `notice` is printed should a signal end the process while the cell's data is
    /// generated or loaded (`Interruption.endingAtOnce`).
    private func runCell(_ cell: Cell, cache: DatasetCache, notice: String) throws -> ([TimingRecord], [PassRecord])? {
        let data = try Interruption.endingAtOnce(notice: notice) { try cache.data(rows: cell.rows) }
        if let stream = experiment.changes, cell.isTestbed {
            guard let query = experiment.query(named: cell.query), let set = experiment.flagSet(named: cell.flagset) else {
                throw ExperimentFailure.usage("\(cell) is not a cell of the experiment")
            }
            var engine = QueryEngine(flags: set.flags)
            engine.disabledPasses = Set(experiment.disabledPasses + disabledPasses)
            if let checked { engine.checked = checked }
            var runner = ChangeCellRunner(experiment: experiment, stream: stream, cell: cell, query: query, engine: engine,
                                          data: data, notice: notice)
            runner.tamper = hooks.changes
            var equality = self.equality
            defer { self.equality = equality }
            return try runner.run { cell, group, hash, results in equality.keep(cell, group: group, hash: hash, results: results) }
                .map { ($0, []) }
        }
        var executor = try Interruption.endingAtOnce(notice: notice) { try makeExecutor(cell, data: data) }
        if let replace = hooks.executor { executor = replace(cell, executor) }
        for _ in 0..<experiment.warmup {
            if Interruption.requested { return nil }
            _ = try executor.execute()
        }
        var out: [TimingRecord] = []
        var passes: [PassRecord] = []
        for repetition in 1...experiment.repetitions {
            if Interruption.requested { return nil }
            let m = try executor.execute()
            let hash = ResultHash.of(m.results)
            equality.keep(cell, hash: hash, results: m.results)
            out.append(TimingRecord(
                experiment: experiment.name, query: cell.query, shape: experiment.shape.rawValue, rows: cell.rows,
                seed: experiment.seed, backend: cell.backend, engine: cell.engine, flags: experiment.flags(of: cell),
                flagset: cell.flagset, repetition: repetition, planMicroseconds: m.planMicroseconds,
                optimizeMicroseconds: m.optimizeMicroseconds, runMicroseconds: m.runMicroseconds,
                resultRows: m.results.reduce(0) { $0 + $1.count }, resultHash: hash,
                counters: m.counters.map { $0.columns.map { Optional($0.value) } }
                    ?? Array(repeating: nil, count: RunCounters.columnNames.count)))
            passes += PassRecord.records(
                experiment: experiment.name, cell: cell, flags: experiment.flags(of: cell), repetition: repetition,
                passes: m.passes, hooks: m.hooks)
        }
        return (out, passes)
    }

    private func makeExecutor(_ cell: Cell, data: SizedData) throws -> any CellExecutor {
        guard let query = experiment.query(named: cell.query) else {
            throw ExperimentFailure.usage("no query named \(cell.query) in the experiment")
        }
        if !cell.isTestbed {
            guard let spec = experiment.baseline(named: cell.engine) else {
                throw ExperimentFailure.usage("no baseline engine named \(cell.engine) in the experiment")
            }
            let (engine, catalog) = try data.engine(spec)
            return EngineExecutor(query: query, catalog: catalog, engine: engine)
        }
        guard let set = experiment.flagSet(named: cell.flagset) else {
            throw ExperimentFailure.usage("no flag set named \(cell.flagset) in the experiment")
        }
        guard let backend = Backend(rawValue: cell.backend) else {
            throw ExperimentFailure.usage("no backend named \(cell.backend)")
        }
        let catalog = try data.catalog(backend)
        var engine = QueryEngine(flags: set.flags)
        engine.disabledPasses = Set(experiment.disabledPasses + disabledPasses)
        if let checked { engine.checked = checked }
        return TestbedExecutor(query: query, catalog: catalog, engine: engine)
    }

    private func writeState(_ status: RunState.Status, done: Int, total: Int) throws {
        let state = RunState(experiment: experiment.name, shard: shard, status: status, cellsDone: done, cellsTotal: total)
        try FileSystem.writeTextAtomically(state.text, to: FileSystem.join(directory, RunState.fileName))
    }
}
