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

    /// The newest run directory of an experiment, for `--resume` without `--out`. Only
    /// directories named by `timestamp(_:)` count: a curated run kept beside them (the
    /// committed `reference`, which sorts after every timestamp) is never resumed into.
    public static func latestRun(resultsRoot: String, name: String) -> String? {
        guard validateName(name) == nil else { return nil }
        let parent = resultsRoot + "/" + name
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        return entries.filter { isTimestamp($0) && FileManager.default.fileExists(atPath: parent + "/" + $0 + "/" + RunState.fileName) }
            .sorted().last.map { parent + "/" + $0 }
    }

    /// Whether `name` has the form `timestamp(_:)` gives, `yyyyMMdd'T'HHmmss'Z'`.
    public static func isTimestamp(_ name: String) -> Bool {
        let characters = Array(name.utf8)
        guard characters.count == 16, characters[8] == UInt8(ascii: "T"), characters[15] == UInt8(ascii: "Z") else { return false }
        return characters.enumerated().allSatisfy { index, c in
            index == 8 || index == 15 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
        }
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
