import ArgumentParser
import Workloads

struct QueriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queries",
        abstract: "List the query catalog (Workloads/queries/*.rq) with the shape each needs and what it exercises.",
        discussion: "Every query is parsed against its shape first; the first that does not parse is reported at file:line:column (exit 2)."
    )

    @Option(help: "Catalog directory (default: $TESTBED_QUERIES, else Workloads/queries).")
    var directory: String?

    @Flag(help: "Print each query's text too.")
    var text = false

    func run() throws {
        let queries: [CatalogQuery]
        do {
            queries = try QueryCatalog.load(directory: directory)
            // Listing a catalog vouches for it: every query must parse against its shape.
            try QueryCatalog.check(queries)
        } catch {
            throw usageFailure("\(error)")
        }
        let nameWidth = queries.map(\.name.count).max() ?? 0
        let shapeWidth = queries.map { ($0.shape?.rawValue ?? "?").count }.max() ?? 0
        for q in queries {
            let shape = q.shape?.rawValue ?? "?"
            print(q.name + String(repeating: " ", count: nameWidth - q.name.count) + "  "
                + shape + String(repeating: " ", count: shapeWidth - shape.count) + "  " + q.description)
            if text { print(q.text) }
        }
    }
}
