import FileSupport
import Foundation

/// What a shard's `environment.txt` says about where and how it ran, read back by `merge`.
/// Every field is optional: a run written before a field existed simply lacks it.
public struct ShardEnvironment {
    public var directory: String
    public var shard: Shard
    public var host: String?
    public var cpuModel: String?
    public var cores: Int?
    public var cpusAllowed: String?
    public var commit: String?
    /// The 1-minute load average at the start and at the end of the run.
    public var loadAtStart: Double?
    public var loadAtEnd: Double?
    public var started: Date?
    public var finished: Date?
    /// The calibration time when it is a plausible one (`calibrationRange`), else nil.
    public var calibrationMicroseconds: Double?
    /// The `calibration_us` value as written, so that an implausible one can be named.
    public var calibrationText: String?
    /// Calibration times `merge --normalise` accepts, in microseconds: the calibration query
    /// takes microseconds to milliseconds, and a value far outside (`1e-300`) would scale the
    /// shard's times past what any reader of the results accepts.
    public static let calibrationRange = 0.01...1e8

    public init(directory: String, shard: Shard, text: String) {
        self.directory = directory
        self.shard = shard
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            // The first value of a key wins, but for the end of the run the last does: a
            // resumed run appends its own finish after the interrupted one's.
            if values[key] == nil || key == "finished (UTC)" || key == "load at end" {
                values[key] = String(line[line.index(after: colon)...]).trimmingEvery(" ")
            }
        }
        host = values["host"]
        cpuModel = values["cpu model"]
        cores = values["cores"].flatMap { Int($0) }
        cpusAllowed = values["cpus allowed"]
        commit = values["git commit"]
        loadAtStart = values["load at start"].flatMap(Self.firstLoad)
        loadAtEnd = values["load at end"].flatMap(Self.firstLoad)
        started = values["date (UTC)"].flatMap(Environment.parseDate)
        finished = values["finished (UTC)"].flatMap(Environment.parseDate)
        calibrationText = values["calibration_us"]
        calibrationMicroseconds = calibrationText.flatMap { Double($0) }.flatMap { Self.calibrationRange.contains($0) ? $0 : nil }
    }

    /// Reads `DIR/environment.txt`; a shard without one has every field nil.
    public static func read(directory: String, shard: Shard) throws -> ShardEnvironment {
        let path = FileSystem.join(directory, Environment.fileName)
        let text = FileSystem.exists(path) ? try FileSystem.readText(path) : ""
        return ShardEnvironment(directory: directory, shard: shard, text: text)
    }

    private static func firstLoad(_ text: String) -> Double? {
        text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// One line for the merged `environment.txt`.
    public var summaryLine: String {
        func text(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "unknown" }
        return "shard \(shard): \(directory); host \(host ?? "unknown"); cpu \(cpuModel ?? "unknown"); "
            + "\(cores.map(String.init) ?? "unknown") cores (allowed: \(cpusAllowed ?? "unknown")); load \(text(loadAtStart)) at start, \(text(loadAtEnd)) at end; "
            + "calibration_us \(calibrationMicroseconds.map(TimingRecord.format) ?? "unknown")"
    }
}

/// Why shards' measured times may not be comparable: they ran on different hosts or CPU
/// models, under load, or more of them at once on one host than it has cores. Counters are
/// deterministic and need none of this; they are compared exactly by the equality check.
public enum ShardComparability {
    public static func warnings(_ shards: [ShardEnvironment]) -> [String] {
        var out: [String] = []
        let hosts = Set(shards.compactMap(\.host))
        if hosts.count > 1 {
            out.append("shards ran on \(hosts.count) hosts (\(hosts.sorted().joined(separator: ", "))); "
                + "their times are comparable only as far as the hosts are (see calibration_us, merge --normalise)")
        }
        let models = Set(shards.compactMap(\.cpuModel))
        if models.count > 1 {
            out.append("shards ran on \(models.count) CPU models (\(models.sorted().joined(separator: "; ")))")
        }
        for shard in shards {
            guard let cores = shard.cores else { continue }
            let loads = [("start", shard.loadAtStart), ("end", shard.loadAtEnd)].compactMap { name, load in
                load.flatMap { $0 > Double(cores) ? "\(String(format: "%.2f", $0)) at its \(name)" : nil }
            }
            if !loads.isEmpty {
                out.append("shard \(shard.shard) (\(Printable.quoted(shard.directory))) ran under load: load average "
                    + loads.joined(separator: " and ") + " on \(cores) cores")
            }
        }
        for (host, count, cores) in crowdedHosts(shards) {
            out.append("\(count) shards ran at once on host \(host), which has \(cores) cores; "
                + "they shared cores (use sweep.sh --cpus-per-shard or fewer --jobs)")
        }
        return out
    }

    /// Hosts where more shards overlapped in time than the host has cores: (host, most
    /// shards at once, cores). Shards without start and finish times are left out.
    static func crowdedHosts(_ shards: [ShardEnvironment]) -> [(String, Int, Int)] {
        var out: [(String, Int, Int)] = []
        let byHost = Dictionary(grouping: shards.filter { $0.host != nil }, by: { $0.host ?? "" })
        for host in byHost.keys.sorted() {
            let timed = (byHost[host] ?? []).compactMap { shard -> (Date, Date, Int)? in
                guard let start = shard.started, let end = shard.finished, let cores = shard.cores else { return nil }
                return (start, end, cores)
            }
            guard let cores = timed.map(\.2).min() else { continue }
            // Ends sort before starts at the same instant, so back-to-back shards do not count as overlapping.
            var events: [(date: Date, step: Int)] = []
            for (start, end, _) in timed {
                events.append((start, 1))
                events.append((end, -1))
            }
            events.sort { a, b in a.date != b.date ? a.date < b.date : a.step < b.step }
            var current = 0, most = 0
            for (_, step) in events {
                current += step
                most = max(most, current)
            }
            if most > cores { out.append((host, most, cores)) }
        }
        return out
    }
}
