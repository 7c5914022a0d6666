import FileSupport
import Foundation
@testable import Experiments

/// A temporary directory per test, removed afterwards.
final class Scratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "experiments-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ text: String, to name: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    var resultsRoot: String { path + "/Results" }

    /// Everything under Results/ (empty when a failed run left nothing behind).
    func resultsEntries() -> [String] {
        (FileManager.default.enumerator(atPath: resultsRoot)?.allObjects as? [String]) ?? []
    }
}

/// Captures what a command prints.
final class CapturedConsole {
    var out = ""
    var err = ""

    var console: Console {
        Console(out: { self.out += $0 }, err: { self.err += $0 }, showProgress: false)
    }
}

/// A small experiment that runs in well under a second: 2 sizes, 2 queries, 2 flag sets,
/// one SQLite baseline, 2 repetitions.
func tinyConfig(name: String = "tiny", baselines: String = "[sqlite]") -> String {
    """
    name: \(name)
    description: A tiny experiment for tests.
    dataset:
      shape: documents
      rows: [40, 120]
      seed: 7
      params: {roots: 0.1}
    backend: memory
    queries:
      - selected-document-parent
      - name: selected-inline
        text: |
          output selected_documents join documents
    flagsets:
      all-on: {preset: all-on}
      no-copying: {preset: all-on, disable: [subtree-copying]}
    baselines: \(baselines)
    baseline: no-copying
    repetitions: 2
    warmup: 0
    """
}

/// Runs a config through the command-level function (plots off).
func runConfig(
    _ text: String, in scratch: Scratch, out: String? = nil, resume: Bool = false, shard: String? = nil,
    hooks: RunHooks = RunHooks(), console: CapturedConsole = CapturedConsole()
) throws -> Int32 {
    let config = try scratch.write(text, to: "config-\(UUID().uuidString).yaml")
    var invocation = RunInvocation(configPath: config, out: out, resume: resume, shard: shard)
    invocation.resultsRoot = scratch.resultsRoot
    invocation.hooks = hooks
    invocation.plots = false
    return invocation.execute(console: console.console)
}

/// `merge DIRECTORIES --out OUT` through the command-level function (plots off): its exit
/// status and what it printed on standard error.
func mergeRuns(_ directories: [String], out: String) -> (status: Int32, err: String) {
    var merge = MergeInvocation(directories: directories, out: out)
    merge.plots = false
    let console = CapturedConsole()
    return (merge.execute(console: console.console), console.err)
}

/// A CSV file's rows without the measured-time columns (for comparing runs).
func deterministicColumns(_ path: String) throws -> [[String]] {
    let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
    let keep = table.header.enumerated().filter { index, name in
        !TimingRecord.timingColumns.contains(name) && !name.hasPrefix("plan_us") && !name.hasPrefix("optimize_us")
            && !name.hasPrefix("run_us") && !name.hasPrefix("total_us") && !name.hasPrefix("speedup")
    }.map(\.offset)
    return ([table.header] + table.rows).map { row in keep.map { row[$0] } }
}

/// A run's `timings.csv`, read as resume and merge read it: checked against the run's config.yaml.
func readTimings(_ path: String) throws -> [TimingRecord] {
    let config = FileSystem.parentDirectory(of: path) + "/config.yaml"
    let experiment = try ExperimentResolver.resolve(text: try FileSystem.readText(config), file: config)
    return try TimingsFile.read(path, experiment: experiment)
}

/// Every file under `directory` with its bytes, to show that a refused command wrote nothing.
func snapshot(_ directory: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for case let name as String in FileManager.default.enumerator(atPath: directory)?.allObjects ?? [] {
        let path = directory + "/" + name
        if !FileSystem.isDirectory(path) { files[name] = try Data(contentsOf: URL(fileURLWithPath: path)) }
    }
    return files
}
