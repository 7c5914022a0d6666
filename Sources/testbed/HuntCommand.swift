import ArgumentParser
import Experiments
import FileSupport
import Foundation
import QueryEngine
import Verification
import Workloads

struct HuntCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hunt",
        abstract: "Search random queries for flag sets that read far more rows than the best one.",
        discussion: """
            Generates --random N queries (the fuzzer's random DAGs with shared subexpressions, \
            self-joins, set operations, closures) over tables of up to --rows rows (some small \
            beside them, indexed and not) and runs each, on the memory backend, under every flag \
            set of the grid. The default grid is the presets all-on, seed and all-off plus, for \
            every heuristic, all-on with that heuristic alone at its all-off value (no-NAME). \
            For cases with at most 4 sources the seed preset also runs with every initiator \
            order forced, so the best the seed's mechanisms can do is known.

            A flag set's regret on a case is its rows read over the least rows read by any run of \
            the case (counts of zero taken as one); time regret likewise with wall time. Cases \
            where the --reduce-flagset's regret is at least --min-regret are shrunk with the \
            delta-debugging reducer, keeping that regret, and written to DIR/repro/<id>/ \
            (replay with --repro). Every case's sources also get CERT-style estimate checks (an \
            estimate under a filter is never larger than under a weaker one) and random \
            initiator orders for the robustness report (slowest/fastest across orders).

            Writes DIR/regret.csv (one row per case and flag set: case, flagset, flags, \
            source_rows_read, best_rows_read, regret, ...), DIR/summary.csv (regret median, \
            p90, p99, max per flag set, the order ratios beside them), \
            DIR/estimate-violations.csv and DIR/plots/regret-cdf.svg (with matplotlib). \
            Deterministic by --seed, times aside.

            Exit status: 0 on success (regret is a finding, not a failure), 1 when flag sets \
            disagreed on a result or a replayed repro still shows its regret, 2 for bad usage.
            """
    )

    @Option(help: "Number of random queries, \(WorkCounts.huntQueries.lowerBound) to \(WorkCounts.huntQueries.upperBound).")
    var random: Int?

    @Option(help: "Seed of the random queries.")
    var seed: UInt64 = 1

    @Option(help: "Largest table, in rows (1 to \(RandomCaseGenerator.rowLimit)).")
    var rows: Int = Hunter.defaultRows

    @Option(help: "Reduce cases whose regret is at least this (a number >= 1).")
    var minRegret: Double = 2

    @Option(help: "Flag sets, comma-separated: all-on, seed, all-off, no-NAME, NAME=VALUE. (default: the presets and no-NAME for every heuristic)")
    var flagsets: String?

    @Option(help: "The flag set whose regret selects cases to reduce.")
    var reduceFlagset: String = "all-on"

    @Option(help: "Reduce (and write) at most this many cases.")
    var maxReductions: Int = 10

    @Option(help: "Reduce only cases where the --reduce-flagset reads at least this many rows more than the best, and keep that excess while reducing.")
    var minExcessRows: Int = 20

    @Option(help: "Random initiator orders per case for the robustness report, \(WorkCounts.huntOrders.lowerBound) (none) to \(WorkCounts.huntOrders.upperBound).")
    var orders: Int = 3

    @Option(help: "Output directory, new or empty (default: Results/hunt/s<seed>-n<N>; --case adds to any DIR).")
    var out: String?

    @Option(help: "Replay a regret repro directory written by an earlier hunt.")
    var repro: String?

    @Option(help: "With --random: measure only case N (from 0) of the seed and write it whole, unreduced, to DIR/repro/hunt-s<seed>-case<N>/.")
    var `case`: Int?

    @Option(help: "With --repro: write every flag set's plan graphs (<flag set>-final.svg: the runner's final graph, each node's filter and rows), and for small cases those of the best forced initiator order (seed+best-order-final.svg), to this directory.")
    var plans: String?

    @Flag(help: "Do not reduce cases.")
    var noReduce = false

    func validate() throws {
        if repro != nil, random != nil {
            throw ValidationError("--repro replays one directory; it cannot be combined with --random")
        }
        if repro == nil, random == nil {
            throw ValidationError("give --random N (queries to hunt) or --repro DIR")
        }
        if let index = `case`, index < 0 || index >= (random ?? 0) {
            throw ValidationError("--case: '\(index)' is not valid; expected a case from 0 to --random minus 1")
        }
        // Options the mode does not use would be ignored without a word.
        let unused = repro != nil
            ? ["--seed", "--rows", "--min-regret", "--reduce-flagset", "--max-reductions", "--min-excess-rows", "--orders", "--no-reduce", "--out"]
            : `case` != nil ? ["--max-reductions", "--min-excess-rows", "--orders", "--no-reduce"]
            : noReduce ? ["--max-reductions", "--min-excess-rows"] : []
        if let option = unused.first(where: givenOnCommandLine) {
            throw ValidationError(repro != nil
                ? "\(option) does not apply to --repro DIR, which replays the directory's own case and threshold (regret.txt)"
                : `case` != nil ? "\(option) does not apply to --case N, which measures the case whole and reduces nothing"
                : "\(option) selects cases to reduce; --no-reduce reduces none (--min-regret and --reduce-flagset still set "
                    + "summary.csv's cases_at_least_min_regret and more_rows_than_chosen)")
        }
        if plans != nil, repro == nil { throw ValidationError("--plans goes with --repro DIR") }
        if let plans, let repro, OutputLocation.isInside(plans, repro) {
            throw ValidationError("--plans: '\(Printable.escaped(plans))' is inside the repro directory '\(Printable.escaped(repro))' it reads; "
                + "give a directory outside it")
        }
        if let plans {
            do { _ = try FileSystem.checkedOutputPath(plans, option: "--plans", directory: true) } catch {
                throw ValidationError("\(error)")
            }
        }
        if let random { try WorkCounts.check("--random", random, WorkCounts.huntQueries) }
        guard rows >= 1, rows <= RandomCaseGenerator.rowLimit else {
            throw ValidationError("--rows: '\(rows)' is not valid; expected an integer from 1 to \(RandomCaseGenerator.rowLimit)")
        }
        guard minRegret >= 1, minRegret.isFinite, commandLineText(of: "--min-regret").map({ DecimalText.double($0) != nil }) ?? true else {
            throw ValidationError("--min-regret: '\(commandLineText(of: "--min-regret").map(Printable.escaped) ?? "\(minRegret)")' is not valid; "
                + "expected a decimal number >= 1")
        }
        if maxReductions < 0 { throw ValidationError("--max-reductions: '\(maxReductions)' is not a non-negative integer") }
        if minExcessRows < 1 { throw ValidationError("--min-excess-rows: '\(minExcessRows)' is not valid; expected an integer >= 1") }
        if orders < 0 { throw ValidationError("--orders: '\(orders)' is not a non-negative integer") }
        try WorkCounts.check("--orders", orders, WorkCounts.huntOrders)
        if let out {
            do { _ = try FileSystem.checkedOutputPath(out, option: "--out", directory: true) } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func makeGrid() throws -> HuntGrid {
        let names = flagsets.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) } }
        // An empty item or a flag set named twice would be a column of the grid by mistake
        // (or none at all), not one the researcher asked for.
        if let flagsets, let names {
            if names.contains("") { throw usageFailure("--flagsets: '\(flagsets)' has an empty item; separate names by single commas") }
            if let twice = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) }) {
                throw usageFailure("--flagsets: '\(twice.element)' is listed twice")
            }
        }
        do {
            return try HuntGrid(names: names)
        } catch let error as FlagError {
            throw usageFailure("--flagsets: \(error)")
        } catch {
            throw usageFailure("\(error)")
        }
    }

    func run() throws {
        let grid = try makeGrid()
        if let repro {
            try replay(repro, grid: grid)
            return
        }
        guard let random else { return }
        var hunter: Hunter
        do {
            hunter = try Hunter(cases: random, seed: seed, maxRows: rows, minRegret: minRegret, grid: grid, chosen: reduceFlagset)
        } catch {
            throw usageFailure("\(error)")
        }
        hunter.reduce = !noReduce
        hunter.maxReductions = maxReductions
        hunter.minExcessRows = minExcessRows
        hunter.robustnessOrders = orders
        let directory = out ?? "Results/hunt/s\(seed)-n\(random)"
        let existed = FileSystem.exists(directory)
        // Nothing is written until the hunt ends, so a hunt stopped by a signal leaves the
        // directory as it found it (nothing that would refuse a rerun). The claim and its
        // removal's registration are one step to a signal.
        let (lock, cleanup) = try SignalCleanup.shared.holdingActions {
            let lock = try claimOutput(directory)
            return (lock, SignalCleanup.shared.add { DirectoryLock.removeIfOnlyLocked(directory, keepDirectory: existed) })
        }
        defer {
            SignalCleanup.shared.remove(cleanup)
            lock?.release()
        }
        if let index = `case` {
            let whole = try hunter.wholeCase(index)
            let path = try RegretRepro.write(whole, grid: grid, chosen: reduceFlagset, minRegret: minRegret,
                                             id: "hunt-s\(seed)-case\(index)", under: FileSystem.join(directory, "repro"))
            for line in RegretRepro.describe(whole.regret, grid: grid) { print(line) }
            print("hunt: wrote case \(index) whole to \(path)")
            try warnOfDrift(path, recorded: whole.regret, grid: grid)
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        let report = try hunter.run(progress: { done, total in
            writeToStandardError("hunt: \(done)/\(total) queries, \((clock.now - start).components.seconds)s\n")
        }, log: { writeToStandardError("hunt: \($0)\n") })
        let repros: [String]
        do {
            repros = try HuntFiles.write(report, grid: grid, to: directory)
        } catch {
            // As after a signal: a directory this hunt made holds nothing but its lock.
            lock?.release()
            DirectoryLock.removeIfOnlyLocked(directory, keepDirectory: existed)
            throw error
        }
        for (reduced, path) in zip(report.reduced, repros) { try warnOfDrift(path, recorded: reduced.regret, grid: grid) }
        Plotter.plot(directory: directory, console: .standard, scriptName: "scripts/plot_regret.py")
        print(HuntFiles.summaryCSV(report), terminator: "")
        print("hunt: \(report.cases.count) queries measured (\(report.skipped) skipped), \(report.reduced.count) reduced, "
            + "\(report.estimateViolations.count) estimate violations, seed \(seed), in \((clock.now - start).components.seconds)s")
        print("hunt: wrote \(directory)/regret.csv, summary.csv, estimate-violations.csv"
            + (report.reduced.isEmpty ? "" : ", repro/"))
        if report.disagreements > 0 {
            writeToStandardError("testbed: hunt: flag sets disagreed on \(report.disagreements) output(s); run testbed verify --random \(random) --seed \(seed) --rows \(rows)\n")
            throw ExitCode(1)
        }
    }

    /// Takes the output directory before any case runs, so a path that cannot be one fails
    /// first, and holds its lock until the hunt ends. `--out DIR` must be new or empty, as
    /// for `run` and `merge`; the default directory of a seed and count is written over,
    /// and `--case` adds its repro directory to any DIR.
    private func claimOutput(_ directory: String) throws -> DirectoryLock? {
        do {
            if out != nil && `case` == nil { return try OutputLocation.claim(directory, hint: "choose another --out") }
            try FileSystem.makeDirectories(directory)
            try FileSystem.refuseLinkedSubdirectory("repro", of: directory)
            // A repro this hunt may replace must not be a link (checked again as it is written),
            // so a hunt refused for one is refused before it runs.
            let repro = FileSystem.join(directory, "repro")
            for name in FileSystem.entries(of: repro) ?? [] where name.hasPrefix("hunt-s") {
                try FileSystem.refuseLinkedSubdirectory(name, of: repro)
            }
            return try DirectoryLock.acquire(directory)
        } catch let error as FileSystemError where out != nil {
            throw usageFailure("--out: \(error)")
        } catch {
            throw usageFailure("\(error)")
        }
    }

    /// Says so on standard error when a written repro replays other rows than were measured
    /// (`RegretRepro.drift`): the repro is kept, but it is not the case the hunt reported.
    private func warnOfDrift(_ path: String, recorded: CaseRegret, grid: HuntGrid) throws {
        let lines = try RegretRepro.drift(of: path, recorded: recorded, measurer: RegretMeasurer(grid: grid))
        guard !lines.isEmpty else { return }
        writeToStandardError("hunt: warning: \(path) does not replay as measured (a testbed bug; the printed query or "
            + "tables lose part of the case): " + lines.joined(separator: "; ") + "\n")
    }

    private func replay(_ path: String, grid: HuntGrid) throws {
        guard FileSystem.isDirectory(path) else {
            throw usageFailure("--repro: \(Printable.quoted(path)) is not a directory; give a repro directory written by `testbed hunt`")
        }
        let contents: RegretRepro.Contents
        do { contents = try RegretRepro.read(path) } catch { throw usageFailure("\(error)") }
        guard let chosen = grid.index(of: contents.flagSet) else {
            throw usageFailure("\(path)/regret.txt: flag set '\(contents.flagSet)' is not in the grid")
        }
        // The flags are the flag set's, written beside it; a replay measures the grid's.
        guard contents.flags == grid.flagSets[chosen].flags else {
            throw usageFailure("\(contents.flagsLocation): flags: \(contents.flags.canonical) are not flag set "
                + "'\(contents.flagSet)''s (\(grid.flagSets[chosen].flags.canonical)); the replay measures the flag sets of the grid")
        }
        var measurer = RegretMeasurer(grid: grid)
        measurer.batchSize = contents.batchSize
        let regret = try measurer.measure(contents.graph)
        if let plans {
            let written: [String]
            do {
                written = try measurer.writePlans(contents.graph, bestOrder: regret.bestOrder, to: plans)
            } catch let error as FileSystemError {
                // As `plan --out`: a read-only volume was "the command failed", exit 1.
                throw usageFailure("--plans: cannot write plans to \(Printable.quoted(plans)): \(error)")
            }
            print("hunt: wrote \(written.count) plan files to \(plans)")
        }
        for line in RegretRepro.describe(regret, grid: grid) { print(line) }
        let r = regret.regret(regret.runs[chosen])
        let stands = r >= contents.minRegret
        print("hunt: repro \(Printable.escaped(path)): \(contents.flagSet) regret \(r) "
            + (stands ? "is still at least" : "is now below") + " \(contents.minRegret)")
        if stands { throw ExitCode(1) }
    }
}
