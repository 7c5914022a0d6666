import ArgumentParser
import FileSupport
import QueryEngine
import Relational
import Workloads

/// `testbed observe`: a query's outputs observed while a change script runs.
struct ObserveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "observe",
        abstract: "Apply a change script to a generated dataset transaction by transaction; print each output's RowChange.",
        discussion: """
            Every output of QUERY is observed. For each transaction of the change script \
            (statements between `begin` and `commit`, or one statement alone) the command prints \
            each output's change as seed 001's observers do (`Added` / `Removed` rows, or \
            `(no change)`), the propagation's counters and its time. `--mode incremental` (the \
            default) runs derivative graphs of the transaction's deltas through the engine, \
            operator by operator with each operator's changes materialized as small tables; \
            `--mode incremental-single` runs the same rules as one graph (PLRelational's route); \
            `--mode requery` re-runs each output and diffs; these use the heuristic flags given. \
            `--mode counted` keeps counted state per operator, built when observing starts, and \
            updates it by hash probes with no engine run (closure excepted: re-evaluated when it \
            changes); flags do not change its work. \
            With --verify, after every transaction each change must be exact and the previous \
            state plus the change must equal a full requery by the reference evaluator (exit 1 \
            otherwise). A statement the database refuses (a key clash, a merging update, an \
            ambiguous write to a derived relation) exits 2 naming its file:line:column; its \
            transaction is rolled back.
            """
    )

    @Argument(help: "A catalog query name (`testbed queries`) or a path to a query file.")
    var query: String

    @Option(help: ArgumentHelp("The change script (.changes) to apply.", valueName: "file"))
    var changes: String

    @OptionGroup var dataset: DatasetOptions
    @OptionGroup var flags: HeuristicFlagOptions

    @Option(help: "How changes are computed: incremental | incremental-single | requery | counted.")
    var mode: String = "incremental"

    @Flag(help: "Check every change against a full requery and the RowChange invariants.")
    var verify = false

    @Option(help: ArgumentHelp(
        "Also keep each output as an array sorted by these attributes (ties by the whole row) and print index changes.",
        valueName: "attr,…"))
    var orderedBy: String?

    func run() throws {
        guard let chosenMode = TransactionalDatabase.Mode(rawValue: mode) else {
            throw usageFailure("--mode: '\(Printable.escaped(mode))' is not a mode; expected \(TransactionalDatabase.Mode.allCases.map(\.rawValue).joined(separator: " | "))")
        }
        let ordering = try orderingAttributes()
        let engine = QueryEngine(flags: try flags.flagSet())
        let text: String
        do {
            text = try FileSystem.readText(changes)
        } catch {
            throw usageFailure("--changes: \(error)")
        }
        try checkScriptBeforeGenerating(text, ordering: ordering)
        let (catalogQuery, loaded, parsed) = try dataset.loadAndParse(query: query)
        let session: ObserveSession
        do {
            let script = try ChangeScript.parse(
                text, targets: ChangeScript.targets(tables: loaded.catalog, query: parsed), file: changes)
            try refuseEmpty(script)
            session = try ObserveSession(
                query: parsed, script: script, engine: engine, mode: chosenMode, verify: verify, orderedBy: ordering)
        } catch let error as QueryError {
            throw usageFailure("\(error)")
        } catch let error as OrderedViewError {
            throw usageFailure("--ordered-by: \(error)")
        }
        print("observe \(Printable.escaped(catalogQuery.name)) on " + dataset.describe(loaded) + ", "
            + "backend \(loaded.backend.rawValue), mode \(chosenMode.rawValue), flags \(engine.flags.canonical)\n")
        let problems: [String]
        do {
            problems = try session.run { print($0) }
        } catch let error as QueryError {
            throw usageFailure("\(error)")
        }
        if !problems.isEmpty {
            for p in problems { writeToStandardError("testbed: verify: \(p)\n") }
            throw ExitCode(1)
        }
    }

    /// The `--ordered-by` list: attribute names separated by commas, none empty.
    private func orderingAttributes() throws -> [Attribute] {
        guard let orderedBy else { return [] }
        let names = orderedBy.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        guard !names.contains(where: \.isEmpty) else {
            throw usageFailure("--ordered-by: '\(Printable.escaped(orderedBy))' has an empty attribute name; expected attr[,attr…]")
        }
        return names.map { Attribute(stringLiteral: $0) }
    }

    /// Parses the change script (and checks `--ordered-by`) against a one-row probe of the
    /// query's shape, so a mistake in either is reported before a large dataset is generated. Problems with the query or the
    /// options are left for `loadAndParse`, which names them properly.
    /// A script without a transaction would observe nothing and exit 0: most likely the
    /// wrong file.
    private func refuseEmpty(_ script: ChangeScript) throws {
        guard script.transactions.isEmpty else { return }
        throw usageFailure("--changes: \(Printable.quoted(changes)) has no transactions; expected at least one add, delete or update")
    }

    private func checkScriptBeforeGenerating(_ text: String, ordering: [Attribute]) throws {
        guard let catalogQuery = try? QueryCatalog.find(query) else { return }
        var shape = catalogQuery.shape
        if let name = dataset.shape { shape = try? Shape.named(name) }
        guard let shape, let probe = try? shape.parsingProbe(), let probeQuery = try? catalogQuery.parse(catalog: probe)
        else { return }
        do {
            try refuseEmpty(try ChangeScript.parse(text, targets: ChangeScript.targets(tables: probe, query: probeQuery), file: changes))
            if !ordering.isEmpty {
                for relation in probeQuery.relations { _ = try RowOrdering(ordering, in: relation.scheme) }
            }
        } catch let error as QueryError {
            throw usageFailure("\(error)")
        } catch let error as OrderedViewError {
            throw usageFailure("--ordered-by: \(error)")
        }
    }
}
