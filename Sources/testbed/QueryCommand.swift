import ArgumentParser
import QueryEngine
import Relational
import Workloads

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run one query (a catalog name or a .rq file) on a generated dataset; print its result tables and counters.",
        discussion: "With --verify the result is also checked against the reference evaluator (exit 1 on a mismatch)."
    )

    @Argument(help: "A catalog query name (`testbed queries`) or a path to a query file.")
    var query: String

    @OptionGroup var dataset: DatasetOptions
    @OptionGroup var flags: HeuristicFlagOptions
    @OptionGroup var engineOptions: EngineOptions

    @Flag(help: "Check the result against the reference evaluator.")
    var verify = false

    func run() throws {
        var engine = QueryEngine(flags: try flags.flagSet())
        try engineOptions.apply(to: &engine)
        let (catalogQuery, loaded, parsed) = try dataset.loadAndParse(query: query)
        for relation in loaded.plist?.database.relations ?? [] { relation.resetStatistics() }
        let run = try engine.run(parsed.relations)
        print("query \(catalogQuery.name) on " + dataset.describe(loaded) + ", "
            + "backend \(loaded.backend.rawValue), flags \(engine.flags.canonical)\n")
        print(renderRun(parsed, run), terminator: "")
        if let files = loaded.plist?.database {
            print("== property-list files opened by the run\n\(files.filesOpened)")
        }
        if verify {
            let evaluator = ReferenceEvaluator()
            for (i, relation) in parsed.relations.enumerated() {
                // Compared as lists sorted in the oracle's own order, not through Value's
                // hashing, so a hashing bug cannot hide itself (as the fuzzer's checks do).
                let expected = try evaluator.rows(of: relation)
                let got = ReferenceOrder.sorted(run.results[i])
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
}
