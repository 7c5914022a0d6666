import ArgumentParser
import Engines
import FileSupport
import QueryEngine
import Relational
import SQLiteStore
import Workloads

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one query (a catalog name or a .rq file) on a generated dataset; print its result tables and counters.",
        discussion: """
            With --verify the result is also checked against the reference evaluator (exit 1 on a mismatch). \
            With --engine NAME (a registered baseline engine: sqlite, sqlite-analyzed, duckdb, …) the query runs \
            there instead, as SQL on the same data; its SQL, result, plan and times are printed.
            """
    )

    @Argument(help: "A catalog query name (`testbed queries`) or a path to a query file.")
    var query: String

    @OptionGroup var dataset: DatasetOptions
    @OptionGroup var flags: HeuristicFlagOptions
    @OptionGroup var engineOptions: EngineOptions

    @Flag(help: "Check the result against the reference evaluator.")
    var verify = false

    @Option(help: "Run on this baseline engine instead of the testbed (e.g. duckdb).")
    var engine: String?

    func run() throws {
        if let engine {
            try runOnEngine(engine)
            return
        }
        var engine = QueryEngine(flags: try flags.flagSet())
        try engineOptions.apply(to: &engine)
        let (catalogQuery, loaded, parsed) = try dataset.loadAndParse(query: query)
        for relation in loaded.plist?.database.relations ?? [] { relation.resetStatistics() }
        let run = try engine.run(parsed.relations)
        print("query \(Printable.escaped(catalogQuery.name)) on " + dataset.describe(loaded) + ", "
            + "backend \(loaded.backend.rawValue), flags \(engine.flags.canonical)\n")
        print(renderRun(parsed, run), terminator: "")
        if let files = loaded.plist?.database {
            print("== property-list files opened by the run\n\(files.filesOpened)")
        }
        if verify {
            let evaluator = ReferenceEvaluator()
            let results = run.results  // decodes every output's rows: once, not per output
            for (i, relation) in parsed.relations.enumerated() {
                // Compared as lists sorted in the oracle's own order, not through Value's
                // hashing, so a hashing bug cannot hide itself (as the fuzzer's checks do).
                let expected = try evaluator.rows(of: relation)
                let got = ReferenceOrder.sorted(results[i])
                if got.count != expected.count || !zip(got, expected).allSatisfy({ ReferenceOrder.equal($0, $1) }) {
                    let repeated = ReferenceOrder.duplicateCount(sorted: got)
                    writeToStandardError("testbed: output \(parsed.outputNames[i]) differs from the reference evaluator "
                        + "(\(got.count) rows\(repeated > 0 ? ", \(repeated) delivered twice" : ""), expected \(expected.count))\n")
                    throw ExitCode(1)
                }
            }
            print("verified: every output equals the reference evaluator's")
        }
    }

    /// `--engine NAME`: the query as SQL on a baseline engine, loaded with the same dataset.
    private func runOnEngine(_ name: String) throws {
        let spec: EngineSpec
        do { spec = try EngineRegistry.parseList(name, option: "--engine")[0] } catch { throw usageFailure("\(error)") }
        // The engine loads the generated tables itself: where the testbed's sources would
        // live does not apply, and a property-list database is not handed to engines.
        if dataset.plist != nil { throw usageFailure("--engine runs on generated data; it cannot be combined with --plist") }
        if dataset.backend != nil || dataset.analyze {
            throw usageFailure("--engine loads the generated data into the engine; it cannot be combined with --backend or --analyze (use --engine sqlite-analyzed for ANALYZE)")
        }
        // The testbed's own options would be ignored without a word on another engine.
        let ignored = [("--preset", givenOnCommandLine("--preset")), ("--enable", !flags.enable.isEmpty), ("--disable", !flags.disable.isEmpty),
                       ("--set", !flags.assignments.isEmpty), ("--disable-pass", !engineOptions.disabledPasses.isEmpty),
                       ("--validate", engineOptions.validate), ("--verify", verify)].filter(\.1).map(\.0)
        if !ignored.isEmpty {
            throw usageFailure("--engine runs the query on \(spec.label), where \(ignored.joined(separator: ", ")) "
                + (ignored.count == 1 ? "does" : "do") + " nothing; drop " + (ignored.count == 1 ? "it" : "them")
                + " (they set up the testbed's own engine)")
        }
        let (catalogQuery, loaded, parsed) = try dataset.loadAndParse(query: query)
        let running: any BaselineEngine
        do { running = try spec.start() } catch let error as EngineError where error.isMissing {
            throw usageFailure("--engine: \(error)")
        }
        defer { running.stop() }
        let statement: EngineStatement
        do {
            let catalog = try running.load(loaded.dataset.tables)
            statement = try running.prepare(try catalogQuery.parse(catalog: catalog).relations)
        } catch let error as EngineError {
            if case .unsupported = error { throw usageFailure("\(error)") }
            if error.isMissing { throw usageFailure("--engine: \(error)") }
            throw error
        } catch let error as SQLiteError where error.kind == .translation || error.kind == .prepare {
            // A query the engine cannot take as one statement (too many table references once
            // shared parts are expanded, an expression too deep): the query, not a result.
            throw usageFailure("--engine \(spec.label) cannot run this query: \(error)")
        }
        let clock = ContinuousClock()
        var result = EngineRun(results: [], engineMicroseconds: nil)
        let wall: Duration
        do {
            wall = try clock.measure { result = try running.run(statement) }
        } catch let error as SQLiteError where error.kind == .prepare {
            // SQLite prepares the statement when it first runs it: a limit met there (2,000
            // result columns) is the query's, as at `prepare` above (which only translates).
            throw usageFailure("--engine \(spec.label) cannot run this query: \(error)")
        } catch let error as EngineError {
            // A value the engine cannot hold, met when the statement is bound (NUL in
            // PostgreSQL text): the query's or the data's, as at `prepare` above.
            if case .unsupported = error { throw usageFailure("\(error)") }
            throw error
        }
        print("query \(Printable.escaped(catalogQuery.name)) on \(loaded.dataset.shape) rows \(dataset.rows) seed \(dataset.seed), engine \(spec.label)\n")
        let names = parsed.outputNames
        for (i, output) in parsed.outputs.enumerated() {
            let rows = i < result.results.count ? result.results[i] : []
            print("== \(names[i]) (\(rows.count) row\(rows.count == 1 ? "" : "s"))")
            print(TablePrinter.render(scheme: output.relation.scheme, rows: rows))
        }
        for (i, (sql, plan)) in zip(statement.outputs, try running.explain(statement)).enumerated() {
            print("== SQL of \(names[i]) (\(sql.parameters.count) parameter\(sql.parameters.count == 1 ? "" : "s"))\n\(sql.sql)\n")
            print("== plan of \(names[i]) (\(plan.format))\n\(plan.text)")
        }
        let wallMicroseconds = Double(wall.components.seconds) * 1e6 + Double(wall.components.attoseconds) / 1e12
        print("time (µs)  engine \(result.engineMicroseconds.map { String(Int($0)) } ?? "-"), call \(Int(wallMicroseconds))")
        if verify {
            let evaluator = ReferenceEvaluator()
            for (i, relation) in parsed.relations.enumerated() {
                let expected = Set(try evaluator.rows(of: relation))
                let rows = i < result.results.count ? result.results[i] : []
                if Set(rows) != expected || rows.count != expected.count {
                    writeToStandardError("testbed: output \(names[i]) on \(spec.label) differs from the reference evaluator "
                        + "(\(rows.count) rows, expected \(expected.count))\n")
                    throw ExitCode(1)
                }
            }
            print("verified: every output equals the reference evaluator's")
        }
    }
}
