import Glibc
import PostgresClient
import PostgresStore
import Relational
@testable import Verification
import XCTest

/// Runs case graphs on one real PostgreSQL server and compares each output with the
/// reference evaluator, as the verification oracles compare: sorted in the reference's
/// own order, every row once.
final class PostgresCaseRunner {
    let database: PostgresDatabase
    private var created: [String] = []
    /// PostgreSQL's rows per output in the last run, sorted, for tests that check contents.
    private(set) var lastResults: [[Row]] = []

    init(database: PostgresDatabase) { self.database = database }

    enum Outcome: Equatable {
        case agreed
        /// PostgreSQL cannot hold the case (a column mixing classes): the reason.
        case refused(String)
        case differed(String)
    }

    /// Loads the case's tables (or, with `literals`, keeps tables of at most 6 rows as
    /// memory-table literals, inlined as VALUES), runs every output, drops the tables.
    func run(_ graph: CaseGraph, literals: Bool = false) throws -> Outcome {
        defer { dropTables() }
        let evaluator = ReferenceEvaluator()
        let reference = try graph.relations(over: graph.tables.map { Relation(source: ReferenceTable($0)) })
            .map { try evaluator.rows(of: $0) }
        var sources: [Relation] = []
        do {
            for t in graph.tables {
                if literals && t.rows.count <= 6 {
                    let table = try MemoryTable(name: t.name, scheme: t.scheme)
                    try table.add(contentsOf: t.rows)
                    sources.append(Relation(source: table))
                    continue
                }
                let table = try database.createTable(
                    t.name, scheme: t.scheme, rows: try ColumnStore(width: t.scheme.count, rows: t.rows),
                    indexedAttributes: t.indexedAttributes)
                created.append(t.name)
                sources.append(Relation(source: table))
            }
            let outputs = try graph.relations(over: sources)
            lastResults = []
            var translations: [PostgresTranslation] = []
            for output in outputs { translations.append(try PostgresTranslator.translate(output)) }
            for (i, translation) in translations.enumerated() {
                let rows = try database.run(translation)
                let sorted = ResultComparison.Sorted(rows)
                lastResults.append(sorted.distinct)
                if sorted.duplicates > 0 {
                    return .differed("output \(i): \(sorted.duplicates) duplicate rows\n\(translation.sql)")
                }
                if !ResultComparison.same(sorted.distinct, reference[i]) {
                    return .differed("output \(i): PostgreSQL \(sorted.distinct) reference \(reference[i])\n"
                                     + "\(translation.sql)\nparameters \(translation.parameters)")
                }
            }
        } catch let error as PostgresError where error.kind == .unsupportedValue {
            return .refused(error.message)
        }
        return .agreed
    }

    private func dropTables() {
        for name in created { try? database.connection.command("DROP TABLE \(PostgresSQL.quoteIdentifier(name))") }
        created.removeAll()
    }
}

enum PostgresStoreTestSupport {
    static func requireInstallation() throws {
        do {
            _ = try PostgresInstallation.locate()
        } catch let error as PostgresError where error.kind == .notInstalled {
            if getenv("TESTBED_REQUIRE_ENGINES").map({ String(cString: $0) }) == "1" {
                XCTFail("TESTBED_REQUIRE_ENGINES=1 but: \(error)")
                throw error
            }
            throw XCTSkip("PostgreSQL is not installed: \(error)")
        }
    }
}
