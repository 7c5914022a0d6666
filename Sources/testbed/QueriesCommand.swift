import ArgumentParser
import Workloads

struct QueriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queries",
        abstract: "List the query catalog (Workloads/queries/*.rq) with the shape each needs and what it exercises."
    )

    @Option(help: "Catalog directory (default: $TESTBED_QUERIES, else Workloads/queries).")
    var directory: String?

    @Flag(help: "Print each query's text too.")
    var text = false

    func run() throws {
        let queries: [CatalogQuery]
        do {
            queries = try QueryCatalog.load(directory: directory)
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
