import FileSupport

/// `testbed merge DIR… [--out DIR]`: joins the output directories of `--shard K/N` runs of
/// one config into one result, identical (apart from measured times and the environment)
/// to an unsharded run: the same timings in the same order, the same summary and checks.
/// Shards must come from one config, one commit and one split (`K/N` with one N). Whether
/// their times are comparable (hosts, CPU models, load, cores shared) is reported on stderr
/// and in the merged `environment.txt`; `normalise` scales each shard's times by the ratio of
/// the first shard's calibration to its own.
public struct MergeInvocation: ExperimentInvocation {
    public var directories: [String]
    public var out: String?
    public var normalise = false
    public var resultsRoot = "Results"
    public var catalogDirectory: String?
    public var plots = true

    public init(directories: [String], out: String? = nil) {
        self.directories = directories
        self.out = out
    }

    public func run(console: Console) throws -> RunOutcome {
        guard let first = directories.first else { throw ExperimentFailure.usage("merge: give the shard directories to join") }
        let out = try self.out.map { try FileSystem.checkedOutputPath($0, option: "--out", directory: true) }
        if let out, let input = directories.first(where: { OutputLocation.isInside(out, $0) }) {
            throw ExperimentFailure.usage("merge: --out \(Printable.quoted(out)) is inside the shard directory \(Printable.quoted(input)); "
                + "give an --out outside every shard merged")
        }
        let configText = try FileSystem.readText(FileSystem.join(first, "config.yaml"))
        for directory in directories.dropFirst() where try FileSystem.readText(FileSystem.join(directory, "config.yaml")) != configText {
            throw ExperimentFailure.usage("merge: \(Printable.quoted(directory)) was run with another config than \(Printable.quoted(first)) (config.yaml differs)")
        }
        let experiment = try ExperimentResolver.resolve(text: configText, file: FileSystem.join(first, "config.yaml"), catalogDirectory: catalogDirectory)
        for directory in directories { try RunInputs.check(directory, against: experiment, role: "merge") }

        var records: [TimingRecord] = []
        var passes: [PassRecord] = []
        var owner: [Cell: String] = [:]
        var shards: [Shard] = []
        var experiments: [String] = []
        var environments: [ShardEnvironment] = []
        // Each shard's lock, held until the merge is written: a shard whose run is still going
        // is refused (its files are changing), and none can start while it is read.
        var inputLocks: [DirectoryLock] = []
        defer { for lock in inputLocks { lock.release() } }
        for directory in directories {
            let state = try RunState.read(directory: directory)
            if let index = shards.firstIndex(of: state.shard) {
                throw ExperimentFailure.usage("merge: shard \(state.shard) is given twice (\(Printable.quoted(directory)) "
                    + "and \(Printable.quoted(directories[index])))")
            }
            if let lock = try DirectoryLock.acquire(directory, create: false) { inputLocks.append(lock) }
            if let other = shards.first, other.count != state.shard.count {
                throw ExperimentFailure.usage("merge: \(Printable.quoted(directory)) holds shard \(state.shard), but "
                    + "\(Printable.quoted(first)) holds shard \(other): shards of different splits overlap; "
                    + "merge shards of one --shard K/N split")
            }
            if let other = experiments.first, other != state.experiment {
                throw ExperimentFailure.usage("merge: \(Printable.quoted(directory)) holds experiment \(Printable.quoted(state.experiment)), but "
                    + "\(Printable.quoted(first)) holds \(Printable.quoted(other)) (run.txt); merge shards of one experiment")
            }
            experiments.append(state.experiment)
            shards.append(state.shard)
            let environment = try ShardEnvironment.read(directory: directory, shard: state.shard)
            if let commit = environment.commit, let firstCommit = environments.first?.commit,
               commit != firstCommit, commit != "unknown", firstCommit != "unknown" {
                throw ExperimentFailure.usage("merge: \(Printable.quoted(directory)) was run at commit \(commit), "
                    + "\(Printable.quoted(first)) at \(firstCommit) (environment.txt); merge shards of one commit")
            }
            if normalise && environment.calibrationMicroseconds == nil {
                if let text = environment.calibrationText {
                    let range = ShardEnvironment.calibrationRange
                    throw ExperimentFailure.usage("merge: --normalise: \(Printable.quoted(FileSystem.join(directory, Environment.fileName))): "
                        + "calibration_us \(Printable.excerpt(text)) is not a time in microseconds from "
                        + "\(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound)); merge without --normalise")
                }
                throw ExperimentFailure.usage("merge: --normalise: \(Printable.quoted(directory)) records no calibration_us "
                    + "in its environment.txt (run by an older testbed?); merge without --normalise")
            }
            environments.append(environment)
            if state.status != .complete {
                console.err("testbed: warning: \(Printable.quoted(directory)) (shard \(state.shard)) is \(state.status.rawValue): \(state.cellsDone)/\(state.cellsTotal) cells\n")
            }
            let path = FileSystem.join(directory, TimingsFile.name)
            guard FileSystem.exists(path) || state.cellsDone == 0 else {
                throw ExperimentFailure.usage("merge: \(Printable.quoted(directory)) has no \(TimingsFile.name), "
                    + "though its \(RunState.fileName) says \(state.cellsDone) cells are done")
            }
            let found = FileSystem.exists(path) ? try TimingsFile.read(path, experiment: experiment) : []
            for cell in Set(found.map(\.cell)) {
                if let other = owner[cell] {
                    throw ExperimentFailure.usage("merge: cell \(cell) is in both \(Printable.quoted(other)) and \(Printable.quoted(directory))")
                }
                owner[cell] = directory
            }
            if let ratio = normaliseRatio(environment, reference: environments[0]) {
                let scaled = found.map { $0.scaled(by: ratio) }
                // The results' readers accept times up to `maximumMicroseconds`: refused here,
                // before anything is written, rather than written and refused by `compare`.
                if let over = scaled.first(where: { max($0.planMicroseconds, $0.optimizeMicroseconds, $0.runMicroseconds)
                    > CSVRecord.maximumMicroseconds }) {
                    throw ExperimentFailure.usage("merge: --normalise: scaling \(Printable.quoted(directory))'s times by "
                        + "\(String(format: "%g", ratio)) (the calibration ratio) puts cell \(over.cell) past "
                        + "\(String(format: "%g", CSVRecord.maximumMicroseconds)) µs; merge without --normalise")
                }
                records += scaled
            } else {
                records += found
            }
            passes += try PassesFile.read(FileSystem.join(directory, PassesFile.name), experiment: experiment,
                                          keep: Set(found.map(\.cell)))
        }
        let warnings = ShardComparability.warnings(environments)
        for warning in warnings { console.err("testbed: warning: \(warning)\n") }

        let all = experiment.cells
        let complete = Set(Dictionary(grouping: records, by: \.cell).filter { $0.value.count == experiment.recordsPerCell }.keys)
        let missing = all.filter { !complete.contains($0) }
        if !missing.isEmpty {
            console.err("testbed: warning: \(missing.count) of \(all.count) cells are missing, e.g. \(missing[0]); "
                + "run the missing shards (with --resume for interrupted ones) and merge again\n")
        }

        // The plans copied are checked before anything is written (a link in them looped).
        let plans = directories.map { $0 + "/plans" }.first(where: FileSystem.isDirectory)
        if let plans {
            do { try FileSystem.refuseSpecialEntries(in: plans) } catch { throw ExperimentFailure.usage("\(error)") }
        }

        let directory: String
        let lock: DirectoryLock?
        let existed = out.map(FileSystem.exists) ?? false
        if let out {
            directory = out
            lock = try OutputLocation.claim(out, hint: "choose another --out")
        } else {
            directory = try OutputLocation.claimDefaultDirectory(resultsRoot: resultsRoot, name: experiment.name, suffix: "-merged")
            lock = try DirectoryLock.acquire(directory)
        }
        defer { lock?.release() }
        // A merge that fails or is stopped by a signal takes back what it wrote: the
        // directory was new or empty, and half a merge could be neither merged into nor
        // resumed (`report` read it as a run of unknown status).
        let takeBack: @Sendable () -> Void = {
            for name in FileSystem.entries(of: directory) ?? [] where name != DirectoryLock.fileName {
                FileSystem.removeTree(FileSystem.join(directory, name))
            }
            DirectoryLock.removeIfOnlyLocked(directory, keepDirectory: existed)
        }
        let token = SignalCleanup.shared.add(takeBack)
        defer { SignalCleanup.shared.remove(token) }
        do {
            try FileSystem.writeTextAtomically(configText, to: FileSystem.join(directory, "config.yaml"))
            // The first shard's record (checked against every shard), as its origins name the run's files.
            let inputs = FileSystem.join(first, RunInputs.fileName)
            try FileSystem.writeTextAtomically(FileSystem.exists(inputs) ? try FileSystem.readText(inputs) : RunInputs.text(experiment),
                                               to: FileSystem.join(directory, RunInputs.fileName))
            try FileSystem.writeTextAtomically(Environment.text(configPath: FileSystem.join(first, "config.yaml"))
                + "merged from: \(directories.joined(separator: " "))\n" + environmentLines(environments, warnings: warnings),
                to: FileSystem.join(directory, "environment.txt"))
            try FileSystem.writeTextAtomically(TimingsFile.text(records, order: all, changes: experiment.changes != nil), to: FileSystem.join(directory, TimingsFile.name))
            try FileSystem.writeTextAtomically(PassesFile.text(passes, order: all), to: FileSystem.join(directory, PassesFile.name))
            if let plans { try FileSystem.copyDirectory(plans, to: FileSystem.join(directory, "plans")) }
            return try ResultsWriter(experiment: experiment, directory: directory, console: console, plots: plots)
                .finish(records: records, equality: EqualityCheck(), cellsDone: complete.count, cellsTotal: all.count,
                        interrupted: false, shard: .whole)
        } catch {
            lock?.release()
            takeBack()
            throw error
        }
    }
}

extension MergeInvocation {
    /// The factor a shard's times are multiplied by: 1 without `normalise`, else the first
    /// shard's calibration over this shard's (nil when either was not recorded; refused above).
    func normaliseRatio(_ shard: ShardEnvironment, reference: ShardEnvironment) -> Double? {
        guard normalise, let own = shard.calibrationMicroseconds, let base = reference.calibrationMicroseconds else { return nil }
        return base / own
    }

    /// What the merged `environment.txt` records about the shards: each one's host, CPU,
    /// load and calibration, the comparability warnings, and whether times were normalised.
    func environmentLines(_ shards: [ShardEnvironment], warnings: [String]) -> String {
        var lines = shards.map(\.summaryLine)
        if let reference = shards.first, let base = reference.calibrationMicroseconds {
            // The factor --normalise applies (or would apply) to each shard's times.
            let ratios = shards.map { shard in
                "shard \(shard.shard) " + (shard.calibrationMicroseconds.map { "x" + String(format: "%.6f", base / $0) } ?? "unknown")
            }
            lines.append("calibration ratios (to shard \(reference.shard)): " + ratios.joined(separator: ", "))
        }
        lines.append(normalise ? "times normalised: yes, by the calibration ratios" : "times normalised: no (as measured)")
        lines += warnings.map { "warning: \($0)" }
        return lines.map { $0 + "\n" }.joined()
    }
}

extension TimingRecord {
    /// This record with each measured phase multiplied by `ratio` (counters unchanged).
    func scaled(by ratio: Double) -> TimingRecord {
        var copy = self
        copy.planMicroseconds = Self.round(planMicroseconds * ratio)
        copy.optimizeMicroseconds = Self.round(optimizeMicroseconds * ratio)
        copy.runMicroseconds = Self.round(runMicroseconds * ratio)
        return copy
    }
}
