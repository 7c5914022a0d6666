import FileSupport

/// `testbed report DIR`: (re)writes `DIR/report.html` from the files of a run directory.
public struct ReportInvocation {
    public var directory: String
    public var catalogDirectory: String?

    public init(directory: String) {
        self.directory = directory
    }

    public func execute(console: Console) -> Int32 {
        do {
            let (path, mismatches) = try writeCounting()
            console.out("wrote \(path)\n")
            // As merge: results that disagree are exit 1, said on stderr, not only on the page.
            guard mismatches == 0 else {
                console.err("testbed: \(mismatches) result mismatch(es) in \(Printable.quoted(directory))/timings.csv; see the report's verdict\n")
                return 1
            }
            return 0
        } catch {
            return ExitStatus.code(for: error, console: console)
        }
    }

    @discardableResult
    public func write() throws -> String { try writeCounting().path }

    /// Writes the page; returns its path and how many query and size groups disagree.
    func writeCounting() throws -> (path: String, mismatches: Int) {
        guard FileSystem.isDirectory(directory) else {
            throw ExperimentFailure.usage("report: \(Printable.quoted(directory)) is not a directory; give a run's output directory")
        }
        let config = FileSystem.join(directory, "config.yaml")
        guard FileSystem.exists(config) else {
            throw ExperimentFailure.usage("report: \(Printable.quoted(directory)) has no config.yaml; give a run's output directory")
        }
        // A run still going holds the lock; its report is written when it ends. Held while
        // the page is written, so no run starts meanwhile.
        let lock = try DirectoryLock.acquire(directory, create: false)
        defer { lock?.release() }
        let experiment = try ExperimentResolver.resolve(text: try FileSystem.readText(config), file: config, catalogDirectory: catalogDirectory)
        try checkResultFilesPresent()
        let writer = ReportWriter(directory: directory, experiment: experiment)
        let path = try writer.write()
        return (path, writer.mismatches(try writer.readRecords()).count)
    }

    /// `timings.csv` is what the page's checks read the summary against (and its verdict
    /// from): without it, where cells ran, an edited `summary.csv` was shown as measured
    /// beside "No cells have run yet". A complete run without `summary.csv` showed "No cells".
    private func checkResultFilesPresent() throws {
        let state = FileSystem.exists(FileSystem.join(directory, RunState.fileName)) ? try RunState.read(directory: directory) : nil
        let ran = state.map { "its \(RunState.fileName) says \($0.cellsDone) cells ran" }
        let hasSummary = FileSystem.exists(FileSystem.join(directory, Summary.fileName))
        if !FileSystem.exists(FileSystem.join(directory, TimingsFile.name)), (state?.cellsDone ?? 0) > 0 || hasSummary {
            throw ExperimentFailure.usage("report: \(Printable.quoted(directory)) has no \(TimingsFile.name), though "
                + (ran ?? "it holds a \(Summary.fileName)") + "; the directory was changed after the run")
        }
        if !hasSummary, let state, state.status == .complete, state.cellsDone > 0 {
            throw ExperimentFailure.usage("report: \(Printable.quoted(directory)) has no \(Summary.fileName), though its "
                + "\(RunState.fileName) says the run is complete; the directory was changed after the run")
        }
    }
}
