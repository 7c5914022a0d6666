import FileSupport

/// `testbed merge DIR… [--out DIR]`: joins the output directories of `--shard K/N` runs of
/// one config into one result, identical (apart from measured times and the environment)
/// to an unsharded run: the same timings in the same order, the same summary and checks.
public struct MergeInvocation: ExperimentInvocation {
    public var directories: [String]
    public var out: String?
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
        let configText = try FileSystem.readText(FileSystem.join(first, "config.yaml"))
        for directory in directories.dropFirst() where try FileSystem.readText(FileSystem.join(directory, "config.yaml")) != configText {
            throw ExperimentFailure.usage("merge: \(Printable.quoted(directory)) was run with another config than \(Printable.quoted(first)) (config.yaml differs)")
        }
        let experiment = try ExperimentResolver.resolve(text: configText, file: FileSystem.join(first, "config.yaml"), catalogDirectory: catalogDirectory)

        var records: [TimingRecord] = []
        var passes: [PassRecord] = []
        var owner: [Cell: String] = [:]
        var shards: [Shard] = []
        for directory in directories {
            let state = try RunState.read(directory: directory)
            if shards.contains(state.shard) {
                throw ExperimentFailure.usage("merge: shard \(state.shard) is given twice (\(Printable.quoted(directory)))")
            }
            shards.append(state.shard)
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
            records += found
            passes += try PassesFile.read(FileSystem.join(directory, PassesFile.name), experiment: experiment,
                                          keep: Set(found.map(\.cell)))
        }

        let all = experiment.cells
        let complete = Set(Dictionary(grouping: records, by: \.cell).filter { $0.value.count == experiment.repetitions }.keys)
        let missing = all.filter { !complete.contains($0) }
        if !missing.isEmpty {
            console.err("testbed: warning: \(missing.count) of \(all.count) cells are missing, e.g. \(missing[0]); "
                + "run the missing shards (with --resume for interrupted ones) and merge again\n")
        }

        let directory: String
        let lock: DirectoryLock?
        if let out {
            directory = out
            lock = try OutputLocation.claim(out, hint: "choose another --out")
        } else {
            directory = try OutputLocation.claimDefaultDirectory(resultsRoot: resultsRoot, name: experiment.name, suffix: "-merged")
            lock = try DirectoryLock.acquire(directory)
        }
        defer { lock?.release() }
        try FileSystem.writeTextAtomically(configText, to: FileSystem.join(directory, "config.yaml"))
        try FileSystem.writeTextAtomically(Environment.text(configPath: FileSystem.join(first, "config.yaml"))
            + "merged from: \(directories.joined(separator: " "))\n", to: FileSystem.join(directory, "environment.txt"))
        try FileSystem.writeTextAtomically(TimingsFile.text(records, order: all), to: FileSystem.join(directory, TimingsFile.name))
        try FileSystem.writeTextAtomically(PassesFile.text(passes, order: all), to: FileSystem.join(directory, PassesFile.name))
        if let plans = directories.map({ $0 + "/plans" }).first(where: FileSystem.isDirectory) {
            try FileSystem.copyDirectory(plans, to: FileSystem.join(directory, "plans"))
        }
        return try ResultsWriter(experiment: experiment, directory: directory, console: console, plots: plots)
            .finish(records: records, equality: EqualityCheck(), cellsDone: complete.count, cellsTotal: all.count,
                    interrupted: false, shard: .whole)
    }
}
