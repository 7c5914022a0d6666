import PostgresClient
import PostgresStore
import Relational
import Verification
import Workloads
import XCTest

/// Every catalog query on its shape's datasets (the plain one and the verification's
/// trigger variants: reals among the ids, null names, other selections), on PostgreSQL,
/// against the reference evaluator.
final class PostgresCatalogQueryTests: XCTestCase {
    func testEveryCatalogQueryAgreesWithTheReferenceEvaluator() throws {
        try PostgresStoreTestSupport.requireInstallation()
        let database = try PostgresDatabase.start()
        defer { database.stop() }
        let runner = PostgresCaseRunner(database: database)
        let queries = try QueryCatalog.load()
        XCTAssertGreaterThan(queries.count, 10)
        let verification = CatalogVerification(queries: queries, sizes: [300], seeds: [7])
        var ran = 0
        for query in queries {
            guard let shape = query.shape else { continue }
            for parameters in verification.parameterSets(shape) {
                let dataset = try shape.generate(rows: 300, seed: 7, parameters: parameters)
                let parsed = try query.parse(catalog: try dataset.memoryRelations())
                let graph = try CaseGraph(outputs: parsed.relations)
                let outcome = try runner.run(graph)
                XCTAssertEqual(outcome, .agreed, "\(query.name) on \(shape) \(parameters)")
                ran += 1
            }
        }
        XCTAssertGreaterThan(ran, queries.count)
        print("PostgreSQL catalog: \(ran) query × dataset runs agreed")
    }
}
