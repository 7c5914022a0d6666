import FileSupport
import QueryEngine
import Relational
import Workloads

/// A reduced regret case on disk, `DIR/repro/<id>/`, laid out like the fuzzer's repros
/// (`query.rq`, one CSV per table, `manifest.txt` with the flag set, `command.txt`) plus
/// `regret.txt`: the flag set's grid name, the minimum regret it was reduced to keep, and
/// each flag set's rows read and regret when it was written. `testbed hunt --repro DIR`
/// measures it again.
public enum RegretRepro {
    @discardableResult
    public static func write(
        _ reduced: ReducedRegret, grid: HuntGrid, chosen: String, minRegret: Double, id: String, under parent: String
    ) throws -> String {
        let loaded = try LoadedCase(reduced.graph)
        return try ReproFiles.publish(id: id, under: parent) { temporary, path in
            let header = "# Reduced regret case: \(chosen) reads at least \(format(minRegret))x the best flag set's rows "
                + "(replay: testbed hunt --repro DIR)\n# flags: \(reduced.flags.canonical)\n"
            try FileSystem.writeText(header + loaded.queryText, to: FileSystem.join(temporary, "query.rq"))
            try ReproFiles.writeTables(reduced.graph.tables, in: temporary)
            let manifest = ["flags: \(reduced.flags.canonical)", "backend: memory", "batch-size: \(CaseChecker.defaultBatchSize)"]
                + ReproFiles.manifestLines(reduced.graph.tables)
            try FileSystem.writeText(manifest.joined(separator: "\n") + "\n", to: FileSystem.join(temporary, "manifest.txt"))
            try FileSystem.writeText(regretText(reduced.regret, grid: grid, chosen: chosen, minRegret: minRegret),
                                     to: FileSystem.join(temporary, "regret.txt"))
            try FileSystem.writeText("swift run -c release testbed hunt --repro \(path)\n", to: FileSystem.join(temporary, "command.txt"))
        }
    }

    /// `flagset: NAME` and `min-regret: F`, then one informational line per flag set.
    static func regretText(_ regret: CaseRegret, grid: HuntGrid, chosen: String, minRegret: Double) -> String {
        var lines = ["flagset: \(chosen)", "min-regret: \(format(minRegret))"]
        lines += describe(regret, grid: grid).map { "# " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per flag set: rows read and regret (and the best forced order, if tried).
    public static func describe(_ regret: CaseRegret, grid: HuntGrid) -> [String] {
        var lines = zip(grid.flagSets, regret.runs).map { set, run in
            "\(set.name): \(run.rowsRead) rows read, regret \(format(regret.regret(run)))"
        }
        if let best = regret.bestOrder {
            lines.append("seed+best-order (order \(best + 1) of \(regret.orderRuns.count)): "
                + "\(regret.orderRuns[best].rowsRead) rows read, regret \(format(regret.regret(regret.orderRuns[best])))")
        }
        return lines
    }

    /// Reads a written repro back and measures it: one line per flag set whose rows read
    /// differ from `recorded`, the measurement it was written from (empty when the repro is
    /// faithful). A repro is the case as its printed query and CSV tables rebuild it; a case
    /// that does not survive that round trip (held-out seed 360 case 261 read 17 rows and
    /// its repro 2) would send a researcher after a loss no replay shows.
    public static func drift(of path: String, recorded: CaseRegret, measurer: RegretMeasurer) throws -> [String] {
        let replayed = try measurer.measure(try read(path).graph)
        return zip(measurer.grid.flagSets, zip(recorded.runs, replayed.runs)).compactMap { set, runs in
            runs.0.rowsRead == runs.1.rowsRead ? nil
                : "\(set.name) reads \(runs.1.rowsRead) rows replayed, \(runs.0.rowsRead) as measured"
        }
    }

    /// What a regret repro records: the case, the grid name of its flag set and the
    /// minimum regret.
    public struct Contents {
        public let graph: CaseGraph
        public let flagSet: String
        public let minRegret: Double
        /// The flag set's flags as written (`manifest.txt`), and where.
        public let flags: FlagSet
        public let flagsLocation: String
        public let batchSize: Int
    }

    /// Reads a regret repro. A manifest line the replay could not honour is refused rather
    /// than ignored: `hunt` measures on memory tables (the `backend` it writes), and a
    /// `kind` or a change script belongs to a verification repro (`testbed verify --repro`).
    public static func read(_ path: String, catalog: HeuristicCatalog = .standard) throws -> Contents {
        if FileSystem.exists(FileSystem.join(path, ChangeReproDirectory.scriptFile)) {
            throw VerificationError.repro(path: FileSystem.join(path, ChangeReproDirectory.scriptFile),
                message: "a change repro's script: this is not a regret repro; replay it with `testbed verify --repro \(path)`")
        }
        let repro = try ReproDirectory.read(path, catalog: catalog)
        let manifestPath = FileSystem.join(path, "manifest.txt")
        let manifest = try ReproManifest(try FileSystem.readUTF8Text(manifestPath), path: manifestPath)
        if manifest.lines["kind"] != nil {
            throw VerificationError.repro(path: manifest.location(of: "kind", path: manifestPath),
                message: "'kind' belongs to a verification repro (replay it with `testbed verify --repro`); a regret repro has none")
        }
        guard repro.backend == .memory else {
            throw VerificationError.repro(path: manifest.location(of: "backend", path: manifestPath),
                message: "backend \(repro.backend.rawValue): `hunt` measures regret on memory tables only (backend: memory)")
        }
        let file = FileSystem.join(path, "regret.txt")
        var flagSet: String?
        var minRegret: Double?
        for (i, raw) in try FileSystem.readText(file).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw).trimmed
            if line.isEmpty || line.hasPrefix("#") { continue }
            // A key given twice was read as its last value (manifest.txt refuses that).
            let twice = { (key: String) in VerificationError.repro(path: "\(file):\(i + 1)", message: "\(key) is given twice") }
            if line.hasPrefix("flagset:") {
                if flagSet != nil { throw twice("flagset") }
                flagSet = String(line.dropFirst("flagset:".count)).trimmed
            } else if line.hasPrefix("min-regret:") {
                if minRegret != nil { throw twice("min-regret") }
                guard let f = DecimalText.double(String(line.dropFirst("min-regret:".count)).trimmed), f >= 1 else {
                    throw VerificationError.repro(path: "\(file):\(i + 1)", message: "min-regret is not a finite number >= 1")
                }
                minRegret = f
            } else {
                throw VerificationError.repro(path: "\(file):\(i + 1)", message: "expected `flagset: NAME` or `min-regret: F`")
            }
        }
        guard let flagSet, let minRegret else {
            throw VerificationError.repro(path: file, message: "needs a `flagset: NAME` line and a `min-regret: F` line")
        }
        return Contents(graph: repro.graph, flagSet: flagSet, minRegret: minRegret, flags: repro.flags,
                        flagsLocation: manifest.location(of: "flags", path: manifestPath), batchSize: repro.batchSize)
    }
}
