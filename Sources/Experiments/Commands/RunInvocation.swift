import FileSupport
import QueryEngine
import Workloads
import Foundation

/// `testbed run CONFIG [--out DIR] [--resume] [--shard K/N]` as a function returning the
/// exit code, so tests drive exactly what the command does.
public struct RunInvocation: ExperimentInvocation {
    public var configPath: String
    public var out: String?
    public var resume = false
    public var shard: String?
    /// Parent of default output directories.
    public var resultsRoot = "Results"
    public var catalogDirectory: String?
    public var hooks = RunHooks()
    public var plots = true
    /// `--disable-pass NAME` (repeatable): optimizer passes skipped by name, beside the
    /// config's `disabled-passes`.
    public var disabledPasses: [String] = []
    /// `--validate`: checked mode for every engine run (see `EngineChecks`).
    public var validate = false

    public init(configPath: String, out: String? = nil, resume: Bool = false, shard: String? = nil) {
        self.configPath = configPath
        self.out = out
        self.resume = resume
        self.shard = shard
    }

    /// The clock naming default output directories (tests fix it to start two runs in
    /// the same second).
    public var now: () -> Date = Date.init

    /// Everything is checked before the output directory is created, so a bad config or
    /// option leaves nothing behind. The directory's lock is held until the run returns.
    public func run(console: Console) throws -> RunOutcome {
        let shard = try self.shard.map(Shard.init(parsing:)) ?? .whole
        let out = try self.out.map { try FileSystem.checkedOutputPath($0, option: "--out", directory: true) }
        let experiment = try ExperimentResolver.load(path: configPath, catalogDirectory: catalogDirectory)
        do { try HeuristicCatalog.standard.checkPassNames(disabledPasses) } catch {
            throw ExperimentFailure.usage("--disable-pass: \(error)")
        }
        // A shard past the config's cells would run nothing and call that complete.
        if !shard.isWhole, shard.select(experiment.cells).isEmpty {
            throw ExperimentFailure.usage("--shard \(shard): the config has \(experiment.cells.count) cell"
                + (experiment.cells.count == 1 ? "" : "s") + ", so shard \(shard.index) of \(shard.count) holds none; "
                + "split it into at most \(experiment.cells.count) shards")
        }
        let directory: String
        let lock: DirectoryLock?
        /// Whether the output directory was there (empty) before this run claimed it.
        var keepDirectory = false
        var existing: [TimingRecord] = []
        var existingPasses: [PassRecord] = []
        if resume {
            guard let found = out ?? OutputLocation.latestRun(resultsRoot: resultsRoot, name: experiment.name) else {
                throw ExperimentFailure.usage("--resume: no run of '\(experiment.name)' to resume under \(resultsRoot)/\(experiment.name) "
                    + "(looked for <UTC timestamp> directories holding \(RunState.fileName); a kept run such as reference "
                    + "is never resumed); give --out DIR")
            }
            directory = found
            guard FileSystem.exists(FileSystem.join(directory, RunState.fileName)) else {
                throw ExperimentFailure.usage("--resume: \(Printable.quoted(directory)) holds no run (no \(RunState.fileName))")
            }
            // Refuse a wrong config or shard, and leave a complete run as it is, before the
            // lock file is written.
            let (state, _, _) = try ResumeCheck.previous(directory: directory, experiment: experiment, shard: shard)
            if state.status == .complete { return alreadyComplete(directory, state, console: console) }
            try MachineCheck.checkMemory(experiment, cells: shard.select(experiment.cells), file: configPath)
            try MachineCheck.checkEngines(experiment, cells: shard.select(experiment.cells), file: configPath)
            lock = try DirectoryLock.acquire(directory)
        } else if let out {
            try MachineCheck.checkMemory(experiment, cells: shard.select(experiment.cells), file: configPath)
            try MachineCheck.checkEngines(experiment, cells: shard.select(experiment.cells), file: configPath)
            keepDirectory = FileSystem.isDirectory(out)
            directory = out
            lock = try OutputLocation.claim(out, hint: "pass --resume to continue it or choose another --out")
        } else {
            try MachineCheck.checkMemory(experiment, cells: shard.select(experiment.cells), file: configPath)
            try MachineCheck.checkEngines(experiment, cells: shard.select(experiment.cells), file: configPath)
            directory = try OutputLocation.claimDefaultDirectory(resultsRoot: resultsRoot, name: experiment.name, date: now())
            lock = try DirectoryLock.acquire(directory)
        }
        defer { lock?.release() }
        let runner = ExperimentRunner(experiment: experiment, directory: directory, shard: shard, console: console)
        runner.hooks = hooks
        runner.plots = plots
        runner.configPath = configPath
        runner.disabledPasses = disabledPasses
        if validate { runner.checked = true }
        if resume {
            let (state, records, passes) = try ResumeCheck.previous(directory: directory, experiment: experiment, shard: shard)
            // Read again under the lock: the holder it waited for may have completed the run.
            if state.status == .complete { return alreadyComplete(directory, state, console: console) }
            existing = records
            existingPasses = passes
            let environment = FileSystem.join(directory, Environment.fileName)
            let started = FileSystem.exists(environment) ? try FileSystem.readText(environment) : ""
            try FileSystem.writeTextAtomically(started + Environment.resumedLine(), to: environment)
        }
        let outcome: RunOutcome
        do {
            if !resume {
                try FileSystem.writeTextAtomically(experiment.configText, to: FileSystem.join(directory, "config.yaml"))
                try FileSystem.writeTextAtomically(RunInputs.text(experiment), to: FileSystem.join(directory, RunInputs.fileName))
                // The load is read before the calibration adds its own.
                let environment = Environment.text(configPath: configPath)
                try FileSystem.writeTextAtomically(environment + Environment.calibrationLine(try Calibration.measure()),
                                                   to: FileSystem.join(directory, Environment.fileName))
            }
            console.err("testbed: running \(experiment.name) (\(shard.select(experiment.cells).count) cells"
                + (shard.isWhole ? "" : ", shard \(shard)") + ") into \(directory)\n")
            outcome = try runner.run(existing: existing, passes: existingPasses)
        } catch let error as QueryError where !resume {
            // A change script that the data refuses (a key clash, a merging update) is bad
            // input found only while applying it: the new run is removed, so the refusal
            // leaves nothing behind, as one found before the first write does.
            discardNewRun(directory, keepDirectory: keepDirectory)
            throw error
        } catch where !resume && !FileSystem.exists(FileSystem.join(directory, RunState.fileName)) {
            // A new run that failed before its first `run.txt` (a full disk writing it, the
            // config or the environment) has nothing to resume: removed, so that neither a
            // new run nor `--resume` finds a directory holding only its lock and files.
            discardNewRun(directory, keepDirectory: keepDirectory)
            throw error
        }
        let environment = FileSystem.join(directory, Environment.fileName)
        try FileSystem.writeTextAtomically(try FileSystem.readText(environment) + Environment.finishedLines(), to: environment)
        return outcome
    }
}

extension RunInvocation {
    /// Removes what a new run wrote (plain files only: the cells write no subdirectory),
    /// and the directory too unless it was there before.
    func discardNewRun(_ directory: String, keepDirectory: Bool) {
        if keepDirectory {
            for name in FileSystem.entries(of: directory) ?? [] { FileSystem.remove(FileSystem.join(directory, name)) }
        } else {
            FileSystem.removeDirectory(directory)
            // The default `Results/NAME/<timestamp>`: a `Results/NAME/` left empty goes too
            // (rmdir removes nothing that holds other runs; a given `--out`'s parent stays).
            if out == nil { FileSystem.removeEmptyDirectory(FileSystem.parentDirectory(of: directory)) }
        }
    }

    /// `--resume` of a complete run: nothing runs and no file changes. (A run whose cells
    /// are all done but whose summary or plots are not, `finishing` or `interrupted`, is
    /// finished instead.)
    func alreadyComplete(_ directory: String, _ state: RunState, console: Console) -> RunOutcome {
        console.err("testbed: --resume: \(Printable.quoted(directory)) is already complete (\(state.cellsDone)/\(state.cellsTotal) cells, "
            + "status \(state.status.rawValue)); nothing to run, nothing changed\n")
        return RunOutcome(directory: directory, cellsDone: state.cellsDone, cellsTotal: state.cellsTotal,
                          interrupted: false, mismatches: [])
    }
}

/// What `--resume` requires: the same config text, inputs and shard as the interrupted run.
enum ResumeCheck {
    /// The interrupted run's state, its timings, and the `passes.csv` rows of the cells a
    /// resume keeps: every file a resume reads back, checked before anything is written.
    static func previous(directory: String, experiment: Experiment, shard: Shard) throws -> (RunState, [TimingRecord], [PassRecord]) {
        guard FileSystem.exists(FileSystem.join(directory, RunState.fileName)) else {
            throw ExperimentFailure.usage("--resume: '\(directory)' holds no run (no \(RunState.fileName))")
        }
        let state = try RunState.read(directory: directory)
        let previous = try FileSystem.readText(FileSystem.join(directory, "config.yaml"))
        guard previous == experiment.configText else {
            throw ExperimentFailure.usage("--resume: the config differs from the one '\(directory)' was run with (its config.yaml); "
                + "resume with the same config or start a new run")
        }
        try RunInputs.check(directory, against: experiment, role: "--resume")
        for own in ["plots", "plans"] {
            do { try FileSystem.refuseLinkedSubdirectory(own, of: directory) } catch {
                throw ExperimentFailure.usage("--resume: \(error)")
            }
        }
        guard state.shard == shard else {
            throw ExperimentFailure.usage("--resume: '\(directory)' holds shard \(state.shard), not \(shard)")
        }
        let timings = FileSystem.join(directory, TimingsFile.name)
        let records = FileSystem.exists(timings) ? try TimingsFile.read(timings, experiment: experiment) : []
        let kept = ExperimentRunner.keptCells(records, experiment: experiment, shard: shard)
        // `complete` with cells missing from timings.csv (emptied, or deleted) was left as
        // complete, "nothing changed".
        let cellsOfShard = shard.select(experiment.cells).count
        if state.status == .complete, kept.count < cellsOfShard {
            throw ExperimentFailure.usage("--resume: \(RunState.fileName) in '\(directory)' says complete, but \(TimingsFile.name) holds "
                + "\(kept.count) of the \(cellsOfShard) cells; the directory was changed after the run: start a new run")
        }
        let passes = try PassesFile.read(FileSystem.join(directory, PassesFile.name), experiment: experiment, keep: kept)
        return (state, records, passes)
    }
}
