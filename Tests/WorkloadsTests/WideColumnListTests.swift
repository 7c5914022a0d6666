import Relational
import XCTest
@testable import Workloads

/// Wide attribute lists in a query's literal, a change script's `add`, a generated table and
/// joins put each value at its own attribute. Each of them searched a list once per
/// attribute (an empty literal of 100,000 attributes took 38 s to load); `Scheme.sortingOrder`
/// and sets replace those searches, and `ColumnOrderTests` counts the sort's comparisons.
/// Query text holds at most 10,000 constants, so rows given there are 10,000 wide.
final class WideColumnListTests: XCTestCase {
    /// `a0 … a(n-1)` in a scrambled order (a multiplier prime to n); each holds its index.
    private func scrambled(_ n: Int) -> [Int] { (0..<n).map { ($0 * 7_919) % n } }
    private func names(_ n: Int) -> String { scrambled(n).map { "a\($0)" }.joined(separator: ", ") }
    private func values(_ n: Int) -> String { scrambled(n).map(String.init).joined(separator: ", ") }

    /// The first attribute of `scheme` whose value in `row` is not its own index.
    private func misplaced(_ row: Row, _ scheme: Scheme) -> String? {
        scheme.attributes.indices.first { row[$0] != .integer(Int64(scheme.attributes[$0].name.dropFirst()) ?? -1) }
            .map { "\(scheme.attributes[$0]) holds \(row[$0])" }
    }

    private func sortedNames(_ n: Int) -> [Attribute] { (0..<n).map { Attribute("a\($0)") }.sorted() }

    func testAWideLiteralPutsEachValueAtItsAttribute() throws {
        let query = try Query.parse("output relation [\(names(10_000))] { (\(values(10_000))) }\noutput relation [\(names(100_000))] { }",
                                    catalog: RelationCatalog())
        let rows = try query.relations[0].rows()
        XCTAssertEqual(rows.count, 1)
        XCTAssertNil(misplaced(try XCTUnwrap(rows.first), query.relations[0].scheme))
        XCTAssertEqual(query.relations[1].scheme.attributes, sortedNames(100_000))
        XCTAssertEqual(try query.relations[1].rows(), [])
    }

    func testAWideAddPutsEachValueAtItsAttribute() throws {
        let tables = RelationCatalog(sources: [try MemoryTable(name: "wide", scheme: Scheme(sortedNames(10_000)))])
        let query = try Query.parse("output wide", catalog: tables)
        let script = try ChangeScript.parse("add wide [\(names(10_000))] { (\(values(10_000))) }",
                                            targets: ChangeScript.targets(tables: tables, query: query))
        guard case let .add(rows) = try XCTUnwrap(script.transactions.first?.statements.first).kind else {
            return XCTFail("not an add")
        }
        XCTAssertEqual(rows.count, 1)
        XCTAssertNil(misplaced(try XCTUnwrap(rows.first), try XCTUnwrap(tables["wide"]).scheme))
    }

    func testAWideGeneratedTablePutsEachValueAtItsAttribute() throws {
        let table = try DatasetTable(name: "wide", columns: scrambled(100_000).map { Attribute("a\($0)") },
                                     rows: [scrambled(100_000).map { .integer(Int64($0)) }], indexedAttributes: [])
        XCTAssertNil(misplaced(table.store.row(at: 0), table.scheme))
    }

    /// A join searched its pairs once per shared name (a natural join pairs every one), and
    /// the parser searched an explicit join's pairs once per pair for repeats: each over
    /// two minutes at 100,000 attributes.
    func testJoinsOfWideOperandsShareTheirAttributes() throws {
        let pairs = (0..<100_000).map { "a\($0) = a\($0)" }.joined(separator: ", ")
        let query = try Query.parse("""
            let w = relation [\(names(100_000))] { }
            output w join w
            output w join [\(pairs)] w
            """, catalog: RelationCatalog())
        for output in query.relations {
            XCTAssertEqual(output.scheme.attributes, sortedNames(100_000))
        }
        XCTAssertThrowsError(try Query.parse("let w = relation [a, b] { }\noutput w join [a = a, b = b, a = a] w",
                                             catalog: RelationCatalog())) { error in
            XCTAssertTrue("\(error)".contains("the join pair 'a = a' is given twice"), "\(error)")
        }
    }
}
