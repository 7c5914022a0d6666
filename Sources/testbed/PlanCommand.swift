import ArgumentParser
import Experiments
import FileSupport
import Foundation
import QueryEngine
import Workloads

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Write a query's plan graphs (DOT and SVG) under one flag set.",
        discussion: """
            Writes four graphs to --out: <query>-relation (the lazy relation graph), \
            <query>-planned (the planner's node graph), <query>-optimized (after the optimizer \
            passes) and <query>-final (the runner's graph after the run: copies, each node's \
            parental filter and remaining-parent count, rows in and out). SVG is rendered \
            in-process with libgraphviz.
            """
    )

    @Argument(help: "A catalog query name (`testbed queries`) or a path to a query file.")
    var query: String

    @OptionGroup var dataset: DatasetOptions
    @OptionGroup var flags: HeuristicFlagOptions

    @Option(help: "Directory for the .dot and .svg files (created if missing).")
    var out: String

    /// An empty, blank or root `--out` (or an existing file) is refused before any work.
    func validate() throws {
        do {
            _ = try FileSystem.checkedOutputPath(out, option: "--out", directory: true)
        } catch {
            throw ValidationError("\(error)")
        }
        // Plans written into the database read would be taken for its files (a stray file in
        // a directory relation is refused), so the database would no longer open.
        if let plist = dataset.plist, OutputLocation.isInside(out, plist) {
            throw ValidationError("--out: '\(Printable.escaped(out))' is inside the --plist database '\(Printable.escaped(plist))' "
                + "it reads; give the plans a directory of their own")
        }
    }

    func run() throws {
        let flagSet = try flags.flagSet()
        let (catalogQuery, _, parsed) = try dataset.loadAndParse(query: query)
        let run = try QueryEngine(flags: flagSet).run(parsed.relations, capture: true)
        guard let snapshots = run.snapshots else { return }
        let written: [String]
        do {
            written = try PlanExport.writePlans(snapshots, to: out, baseName: catalogQuery.name)
        } catch let error as FileSystemError {
            throw usageFailure("--out: cannot write plans to \(Printable.quoted(out)): \(error)")
        }
        print("flags \(flagSet.canonical)")
        for path in written { print("wrote \(path)") }
        let withoutSVG = written.filter { $0.hasSuffix(".dot") && !written.contains(String($0.dropLast(4)) + ".svg") }
        if !withoutSVG.isEmpty {
            print("no SVG for \(withoutSVG.map { Printable.quoted($0) }.joined(separator: ", ")): too large for Graphviz to lay out "
                + "(more than \(PlanExport.svgNodeLimit) nodes, or a layout size over \(PlanExport.svgLayoutLimit) counting "
                + "the bends of long edges); render the DOT with `dot -Tsvg` if you must")
        }
    }
}
