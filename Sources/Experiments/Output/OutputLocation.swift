import FileSupport
import Foundation

/// Where a run writes: `--out DIR`, or `Results/<name>/<UTC timestamp>/`. Names that come
/// from a config (experiment, flag set and query names become directory and file names)
/// must be plain names, so no config can make a run write outside `Results/`.
public enum OutputLocation {
    /// Why `name` cannot be used as a path component, or nil if it can.
    public static func validateName(_ name: String) -> String? {
        if name.isEmpty { return "must not be empty" }
        if name.hasPrefix("/") { return "'\(name)' is an absolute path; expected a plain name such as my-experiment" }
        if name.contains("..") { return "'\(name)' contains '..'; expected a plain name such as my-experiment" }
        if name.hasPrefix(".") { return "'\(name)' starts with '.'; expected a plain name such as my-experiment" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        if let bad = name.first(where: { !allowed.contains($0) }) {
            return "'\(name)' contains '\(bad)'; use letters, digits, '.', '_' and '-' only"
        }
        if name.count > 100 { return "'\(name)' is longer than 100 characters" }
        return nil
    }

    /// `<results>/<name>/<timestamp>`, refusing any name that would leave `<results>`.
    public static func defaultDirectory(resultsRoot: String, name: String, date: Date = Date()) throws -> String {
        if let problem = validateName(name) { throw ExperimentFailure.usage("experiment name: \(problem)") }
        let directory = resultsRoot + "/" + name + "/" + timestamp(date)
        let root = URL(fileURLWithPath: resultsRoot).standardizedFileURL.path
        let resolved = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard resolved.hasPrefix(root + "/") else {
            throw ExperimentFailure.usage("experiment name '\(name)' would write outside \(resultsRoot)/")
        }
        return directory
    }

    /// Creates and returns a fresh `<results>/<name>/<timestamp>` directory, exclusively:
    /// when a run started in the same second already holds that name, the next free of
    /// `<timestamp>-2`, `<timestamp>-3`, ... So two runs never share a directory.
    public static func claimDefaultDirectory(resultsRoot: String, name: String, suffix: String = "",
                                             date: Date = Date()) throws -> String {
        let base = try defaultDirectory(resultsRoot: resultsRoot, name: name, date: date) + suffix
        try FileSystem.makeDirectories(resultsRoot + "/" + name)
        for attempt in 1...maximumSameSecondRuns {
            let candidate = attempt == 1 ? base : base + "-\(attempt)"
            if mkdir(candidate, 0o755) == 0 { return candidate }
            guard errno == EEXIST else { throw FileSystemError("create directory", candidate, reason: String(cString: strerror(errno))) }
        }
        throw ExperimentFailure.usage("\(base): \(maximumSameSecondRuns) runs of '\(name)' already started in this second; "
            + "give --out DIR")
    }

    /// Takes `out` (given as `option`) as a fresh output directory: created if missing,
    /// locked, and refused when another process holds it (named as such) or when it already
    /// holds anything. A directory that cannot be made or locked (a read-only volume) is
    /// reported under the option's name.
    public static func claim(_ out: String, option: String = "--out", hint: String) throws -> DirectoryLock? {
        if FileSystem.isDirectory(out) { _ = try DirectoryLock.acquire(out, create: false) }
        if FileSystem.exists(out) && !FileSystem.isEmptyDirectory(out) {
            throw ExperimentFailure.usage("output directory \(Printable.quoted(out)) already exists and is not empty; \(hint)")
        }
        let lock: DirectoryLock?
        do {
            try FileSystem.makeDirectories(out)
            lock = try DirectoryLock.acquire(out)
        } catch let error as FileSystemError {
            throw ExperimentFailure.usage("\(option): \(error)")
        }
        // Another process may have claimed it between the check and the lock.
        if (FileSystem.entries(of: out) ?? []).contains(where: { $0 != DirectoryLock.fileName }) {
            throw ExperimentFailure.usage("output directory \(Printable.quoted(out)) was filled by another process; \(hint)")
        }
        return lock
    }

    /// Whether `path` is `directory` or lies inside it, once both are absolute with `.`, `..`
    /// and the symbolic links of their existing parts resolved (`path` need not exist yet).
    public static func isInside(_ path: String, _ directory: String) -> Bool {
        let inner = resolved(path), outer = resolved(directory)
        return inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    /// `path` made absolute and standard, symbolic links resolved in its longest existing prefix.
    static func resolved(_ path: String) -> String {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var missing: [String] = []
        while !FileSystem.exists(existing.path) && existing.path != "/" {
            missing.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var url = existing.resolvingSymlinksInPath()
        for part in missing { url = url.appendingPathComponent(part) }
        return url.path
    }

    /// How many runs of one experiment may start in one second under default directories.
    public static let maximumSameSecondRuns = 1000

    /// The newest run directory of an experiment, for `--resume` without `--out`. Only
    /// directories named by `timestamp(_:)` (with an optional same-second suffix `-N`)
    /// count: a curated run kept beside them (the committed `reference`, which sorts after
    /// every timestamp) is never resumed into.
    public static func latestRun(resultsRoot: String, name: String) -> String? {
        guard validateName(name) == nil else { return nil }
        let parent = resultsRoot + "/" + name
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        var best: (name: String, timestamp: String, suffix: Int)?
        for entry in entries {
            guard let order = runOrder(entry),
                  FileManager.default.fileExists(atPath: parent + "/" + entry + "/" + RunState.fileName) else { continue }
            if let current = best, (current.timestamp, current.suffix) >= (order.timestamp, order.suffix) { continue }
            best = (entry, order.timestamp, order.suffix)
        }
        return best.map { parent + "/" + $0.name }
    }

    /// Whether `name` has the form `claimDefaultDirectory` gives: `yyyyMMdd'T'HHmmss'Z'`,
    /// optionally followed by `-N` (N >= 2) for a later run in the same second.
    public static func isTimestamp(_ name: String) -> Bool { runOrder(name) != nil }

    /// The timestamp and same-second suffix (1 when none) of a default run directory name.
    static func runOrder(_ name: String) -> (timestamp: String, suffix: Int)? {
        let parts = name.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let stamp = Array(parts[0].utf8)
        guard stamp.count == 16, stamp[8] == UInt8(ascii: "T"), stamp[15] == UInt8(ascii: "Z") else { return nil }
        let digits = stamp.enumerated().allSatisfy { index, c in
            index == 8 || index == 15 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
        }
        guard digits else { return nil }
        guard parts.count == 2 else { return (String(parts[0]), 1) }
        let suffix = parts[1]
        guard !suffix.isEmpty, suffix.count <= 6, suffix.first != "0", suffix.allSatisfy({ ("0"..."9").contains($0) }),
              let n = Int(suffix), n >= 2 else { return nil }
        return (String(parts[0]), n)
    }

    /// `20240131T235959Z`: sorts by time, safe in paths.
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
