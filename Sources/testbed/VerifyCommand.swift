import ArgumentParser
import Engines
import FileSupport
import QueryEngine
import Verification
import Workloads

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that every heuristic combination gives the reference evaluator's and SQLite's answers.",
        discussion: """
            Without --random: every catalog query on generated datasets (--sizes × --seeds) of its \
            shape, with the default parameters and with a trigger variant (keys stored as equal \
            reals, null names, a root document as the selection), on the memory and SQLite backends \
            (--backend chooses others, the property-list ones among them), under every flag combination (on/off flags × \
            join-filter-threshold {0, 1, 2, 100, unlimited} × every initiator-ordering × \
            subtree-copy-limit {0, 1, 100}), compared with the reference evaluator and SQLite.

            With --random N: N random cases (small random tables with nulls and every value type, \
            random DAG-shaped queries with shared subexpressions, self-joins, renames, set operations \
            and selects) under random flag sets and backends, compared with the reference evaluator, \
            SQLite and the partition oracle (Q = Q select p ∪ Q select not p, disjointly). \
            Deterministic by --seed. With --rows R, the random tables are larger (up to R rows \
            each, some small beside them, keys from a domain that grows with R) and batches of 64 \
            rows are drawn too, so batching and join filters over many rows are exercised.

            With --random N --changes: each random case also gets random transactions (adds, \
            deletes and updates, some touching a row twice, some refused), propagated \
            incrementally under all-off and --runs-per-case random flag sets, then once by the \
            counted mode; after every transaction each output's RowChange must be exact and equal a requery by the \
            reference evaluator. A failure is reduced (graph and transaction list), printed and \
            written to Results/repro/changes-s<seed>-<case>/ (query.rq, CSVs, changes.changes, manifest.txt).

            With --engines sqlite,duckdb[,…]: the named baseline engines (registered names, see \
            `testbed run`'s baselines) are further oracles: each runs every case as SQL and must \
            equal the reference evaluator; a disagreement is a `baseline` mismatch naming the \
            engine, reduced like the others. sqlite is always an oracle. With an engine whose \
            columns are typed (duckdb), random cases get one storage class per column \
            (numbers may mix integers and reals), and a case an engine cannot hold is counted \
            as refused, not as a mismatch. A missing engine exits 2 with its install hint.

            A mismatch is reduced automatically and written to Results/repro/<id>/ (query.rq, one CSV \
            per table, manifest.txt, command.txt); --repro DIR replays such a directory.

            Verifying nothing is refused (exit 2): --random 0, a catalog directory that is missing \
            or holds no .rq files, a query without a `# shape:` line. Every catalog query is \
            parsed and every size checked against its shape before anything runs.

            Exit status: 0 when nothing differed, 1 when something did, 2 for bad usage or input.
            """
    )

    @Option(help: "Number of random cases (fuzzing mode), \(WorkCounts.verifyCases.lowerBound) to \(WorkCounts.verifyCases.upperBound).")
    var random: Int?

    @Option(help: "Seed of the random cases.")
    var seed: UInt64 = 1

    @Option(help: "With --random: tables of up to this many rows (default: the classic 0 to 6 rows).")
    var rows: Int?

    @Option(help: "Replay a repro directory written by an earlier run.")
    var repro: String?

    // A transformed option's help shows no default, so these say theirs as given on the command line.
    @Option(name: .customLong("sizes"),
            help: ArgumentHelp("Dataset sizes for the catalog run, comma-separated. (default: 20,200)", valueName: "sizes"),
            transform: commaSeparated)
    var givenSizes: [Int]?
    var sizes: [Int] { givenSizes ?? [20, 200] }

    @Option(name: .customLong("seeds"),
            help: ArgumentHelp("Dataset seeds for the catalog run, comma-separated. (default: 1,2)", valueName: "seeds"),
            transform: commaSeparated)
    var givenSeeds: [UInt64]?
    var seeds: [UInt64] { givenSeeds ?? [1, 2] }

    @Option(help: "Catalog directory (default: $TESTBED_QUERIES, else Workloads/queries).")
    var directory: String?

    @Option(help: "Engine runs per random case (random flag set and backend each), \(WorkCounts.verifyRunsPerCase.lowerBound) to \(WorkCounts.verifyRunsPerCase.upperBound).")
    var runsPerCase: Int = 3

    @Option(help: "Where reduced repros are written.")
    var reproDirectory: String = ReproDirectory.defaultParent

    @Option(help: "Reduce (and write) at most this many mismatches.")
    var maxReductions: Int = 10

    @Flag(help: "Do not reduce mismatches or write repro directories.")
    var noReduce = false

    @Option(help: ArgumentHelp("Baseline engines checked as further oracles, comma-separated (e.g. sqlite,duckdb).", valueName: "engines"))
    var engines: String?

    @Flag(help: "With --random: run random transactions on each case and check incremental change propagation after every one.")
    var changes = false

    @Option(help: ArgumentHelp("Backends the engine runs on, comma-separated: memory, sqlite, plist-file, plist-directory, "
        + "plist-database. (default: memory,sqlite)", valueName: "backends"))
    var backend: String?

    /// `--backend`'s list, or exit 2 naming it.
    func backends() throws -> [Backend] {
        guard let backend else { return Fuzzer.defaultBackends }
        var out: [Backend] = []
        for name in backend.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let b = Backend(rawValue: name) else {
                throw ValidationError("--backend: unknown backend '\(name)'; expected \(Backend.namesText)")
            }
            guard !out.contains(b) else { throw ValidationError("--backend: '\(name)' is listed twice") }
            out.append(b)
        }
        return out
    }

    func validate() throws {
        let counts: [(option: String, value: Int?)] =
            [("--random", random), ("--runs-per-case", runsPerCase), ("--max-reductions", maxReductions)]
        for (option, value) in counts {
            if let value, value < 0 { throw ValidationError("\(option): '\(value)' is not a non-negative integer") }
        }
        // One mode per run: an option of another mode would be silently ignored.
        if repro != nil, let other = random.map({ _ in "--random" }) ?? directory.map({ _ in "--directory" }) {
            throw ValidationError("--repro replays one directory; it cannot be combined with \(other)")
        }
        let unused: [(options: [String], why: String)] = [
            (repro != nil ? ["--seed", "--runs-per-case", "--max-reductions", "--no-reduce", "--repro-directory"] : [],
             "--repro replays the directory's own case and reduces nothing"),
            (repro == nil && random == nil ? ["--seed", "--runs-per-case"] : [],
             "the catalog run takes its datasets' seeds from --seeds and runs every flag set"),
            (noReduce ? ["--max-reductions", "--repro-directory"] : [], "--no-reduce writes no repro directory"),
        ]
        for (options, why) in unused {
            if let option = options.first(where: givenOnCommandLine) { throw ValidationError("\(option) does not apply: \(why)") }
        }
        if random != nil, directory != nil {
            throw ValidationError("--directory names the catalog to verify; it cannot be combined with --random")
        }
        for (option, given) in [("--sizes", givenSizes != nil), ("--seeds", givenSeeds != nil)] where given {
            if random != nil { throw ValidationError("\(option) sizes the catalog run's datasets; it cannot be combined with --random (use --rows and --seed)") }
            if repro != nil { throw ValidationError("\(option) sizes the catalog run's datasets; it cannot be combined with --repro") }
        }
        if let engines {
            do { _ = try EngineRegistry.parseList(engines) } catch { throw ValidationError("\(error)") }
            if changes { throw ValidationError("--engines checks query results; it cannot be combined with --changes") }
        }
        if changes, random == nil {
            throw ValidationError("--changes checks random cases; give --random N")
        }
        _ = try backends()
        if changes, backend != nil {
            throw ValidationError("--backend chooses the result checks' backends; the change fuzzer runs on memory tables")
        }
        if repro != nil, backend != nil {
            throw ValidationError("--repro replays one directory on its recorded backend; it cannot be combined with --backend")
        }
        if let rows {
            guard random != nil else {
                throw ValidationError("--rows sizes the random tables; it needs --random")
            }
            guard !changes else {
                throw ValidationError("--rows sizes the result fuzzer's tables; it cannot be combined with --changes")
            }
            guard rows >= 1, rows <= RandomCaseGenerator.rowLimit else {
                throw ValidationError("--rows: '\(rows)' is not valid; expected an integer from 1 to \(RandomCaseGenerator.rowLimit)")
            }
        }
        if random == 0 {
            throw ValidationError("--random: '0' is not valid; expected an integer >= 1 (zero cases would verify nothing)")
        }
        if let random { try WorkCounts.check("--random", random, WorkCounts.verifyCases) }
        for (option, count) in [("--sizes", sizes.count), ("--seeds", seeds.count)] where count == 0 {
            throw ValidationError("\(option): give at least one value")
        }
        if runsPerCase < 1 {
            throw ValidationError("--runs-per-case: '\(runsPerCase)' is not valid; expected an integer >= 1")
        }
        try WorkCounts.check("--runs-per-case", runsPerCase, WorkCounts.verifyRunsPerCase)
        if let size = sizes.first(where: { !Shape.rowRange.contains($0) }) {
            throw ValidationError("--sizes: '\(size)' is not a dataset size; expected integers from "
                + "\(Shape.rowRange.lowerBound) to \(Shape.rowRange.upperBound)")
        }
        do {
            _ = try FileSystem.checkedOutputPath(reproDirectory, option: "--repro-directory", directory: true)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        let oracles = try startEngines()
        defer { oracles?.stop() }
        if let repro {
            try replay(repro, oracles)
            return
        }
        let clock = ContinuousClock()
        let start = clock.now
        let log: (String) -> Void = { writeToStandardError("verify: \($0)\n") }
        if changes, let random {
            try runChanges(random)
            return
        }
        let report: VerificationReport
        if let random {
            var fuzzer = Fuzzer(cases: random, seed: seed)
            fuzzer.runsPerCase = runsPerCase
            fuzzer.reduce = !noReduce
            fuzzer.maxReductions = maxReductions
            fuzzer.reproParent = reproDirectory
            fuzzer.maxRows = rows
            fuzzer.backends = try backends()
            fuzzer.baselines = oracles
            fuzzer.typedColumns = oracles?.specs.contains { $0.kind.backend != "sqlite" } ?? false
            report = try fuzzer.run(progress: { p in
                let seconds = (clock.now - start).components.seconds
                writeToStandardError("verify: \(p.done)/\(p.total) random cases, \(p.mismatches) mismatches, \(seconds)s\n")
            }, log: log)
        } else {
            // Bad input (an unreadable or empty catalog, a query that does not parse, a size a
            // shape refuses) is thrown before anything runs; Testbed.main makes it exit 2.
            let queries = try QueryCatalog.load(directory: directory)
            var verification = CatalogVerification(
                queries: queries, sizes: sizes, seeds: seeds)
            verification.reduce = !noReduce
            verification.maxReductions = maxReductions
            verification.reproParent = reproDirectory
            verification.backends = try backends()
            verification.baselines = oracles
            report = try verification.run(progress: { p in
                let seconds = (clock.now - start).components.seconds
                writeToStandardError("verify: \(p.done)/\(p.total) query datasets, \(p.mismatches) mismatches, \(seconds)s\n")
            }, log: log)
        }
        let elapsed = clock.now - start
        for m in report.firstMismatches.prefix(3) { print(m, "\n") }
        for (failing, path) in report.reduced {
            print("reduced: \(failing.mismatch.kind.rawValue), \(failing.graph.nodeCount) nodes, \(failing.graph.rowCount) rows, flags \(failing.flags.canonical)"
                + (path.map { " -> \($0)" } ?? ""))
        }
        print("verify: \(report.summary) in \(elapsed.components.seconds)s")
        print("verify: \(report.comparisons) comparisons ran, \(report.mismatches) differed")
        if !report.passed { throw ExitCode(1) }
    }

    /// `--random N --changes`: the change fuzzer; reduced failures are printed and written
    /// as repro directories.
    private func runChanges(_ random: Int) throws {
        let clock = ContinuousClock()
        let start = clock.now
        var fuzzer = ChangeFuzzer(cases: random, seed: seed)
        fuzzer.runsPerCase = runsPerCase
        fuzzer.reduce = !noReduce
        fuzzer.maxReductions = maxReductions
        fuzzer.reproParent = reproDirectory
        let report = try fuzzer.run(progress: { p in
            let seconds = (clock.now - start).components.seconds
            writeToStandardError("verify: \(p.done)/\(p.total) random change cases, \(p.mismatches) failed, \(seconds)s\n")
        })
        for failure in report.reduced.prefix(3) { print(failure, "\n") }
        for path in report.reproPaths { print("reduced change case -> \(path)") }
        print("verify --changes: \(report.summary) in \((clock.now - start).components.seconds)s")
        if !report.passed { throw ExitCode(1) }
    }

    /// The `--engines` oracles, started (a missing engine is exit 2 with its install hint).
    private func startEngines() throws -> BaselineOracles? {
        guard let engines else { return nil }
        do {
            let oracles = try BaselineOracles(try EngineRegistry.parseList(engines))
            return oracles.isEmpty ? nil : oracles
        } catch {
            throw usageFailure("--engines: \(error)")
        }
    }

    private func replay(_ path: String, _ oracles: BaselineOracles?) throws {
        if ChangeReproDirectory.isChangeRepro(path) {
            let problems: [String]
            do { problems = try ChangeReproDirectory.replay(path) } catch { throw usageFailure("\(error)") }
            for p in problems { print(p) }
            print("verify: change repro \(Printable.escaped(path)): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            if !problems.isEmpty { throw ExitCode(1) }
            return
        }
        let mismatches: [Mismatch]
        do {
            mismatches = try ReproDirectory.replay(path, baselines: oracles)
        } catch {
            throw usageFailure("\(error)")
        }
        for m in mismatches { print(m, "\n") }
        for label in oracles?.labels ?? [] {
            guard let why = oracles?.lastRefusal[label] else { continue }
            print("verify: \(label) refused this case, so it was not compared: \(Printable.escaped(why))")
        }
        print("verify: repro \(Printable.escaped(path)): \(mismatches.count) mismatch\(mismatches.count == 1 ? "" : "es")")
        if !mismatches.isEmpty { throw ExitCode(1) }
    }
}

/// `20,200` as a list, for the comma-separated list options: every part a value, none twice
/// (a repeated size or seed would only run the same datasets again).
private func commaSeparated<Element: ExpressibleByArgument & Equatable>(_ text: String) throws -> [Element] {
    var out: [Element] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard !part.isEmpty else { throw ValidationError("'\(text)' has an empty item; separate values by single commas") }
        if !DecimalText.isDecimalInteger(part), let number = Int64(part).map(String.init) ?? UInt64(part).map(String.init) {
            throw ValidationError("'\(part)' is not written in decimal digits; write \(number) (no plus sign or leading zero)")
        }
        guard let value = Element(argument: String(part)) else {
            // A number, but not of the type: negative, or beyond its range.
            throw ValidationError(Int64(part) != nil || DecimalText.isDecimalInteger(part)
                ? "'\(part)' is out of this option's range" : "'\(part)' is not an integer")
        }
        guard !out.contains(value) else { throw ValidationError("'\(part)' is listed twice") }
        out.append(value)
    }
    return out
}
