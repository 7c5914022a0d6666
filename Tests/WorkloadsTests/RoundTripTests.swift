import XCTest
import Relational
@testable import Workloads

final class RoundTripTests: XCTestCase {
    private func assertRoundTrip(_ query: Query, catalog: RelationCatalog, file: StaticString = #filePath, line: UInt = #line) throws {
        let text = try QueryPrinter.print(query, catalog: catalog)
        let reparsed = try Query.parse(text, catalog: catalog, file: "printed.rq")
        XCTAssertTrue(sameGraph(query.relations, reparsed.relations), "not the same graph:\n\(text)", file: file, line: line)
        XCTAssertEqual(query.outputs.map(\.name), reparsed.outputs.map(\.name), file: file, line: line)
        // Printing is a fixed point after one round.
        XCTAssertEqual(try QueryPrinter.print(reparsed, catalog: catalog), text, file: file, line: line)
    }

    func testEveryCatalogQueryRoundTrips() throws {
        for q in try QueryCatalog.load(directory: catalogDirectory) {
            guard let shape = q.shape else { continue }
            let catalog = try Fixtures.catalog(for: shape)
            try assertRoundTrip(try q.parse(catalog: catalog), catalog: catalog)
        }
    }

    func testPrintedSeedQueryKeepsSharingAsLets() throws {
        let catalog = try Fixtures.documents()
        let q = try QueryCatalog.find("selected-document-parent", directory: catalogDirectory).parse(catalog: catalog)
        XCTAssertEqual(try QueryPrinter.print(q, catalog: catalog), """
            let selected = selected_documents join documents
            let parent_id = selected project [parent_id] rename [parent_id -> id]
            output parent = parent_id join documents

            """)
    }

    func testUnusualNamesValuesAndLiteralsRoundTrip() throws {
        let table = try MemoryTable(name: "odd table", columns: ["select", "a b", "x"], rows: [[1, "q\"\\\n", .blob([1, 2])]])
        let catalog = RelationCatalog(["odd table": Relation(source: table)])
        let base = try XCTUnwrap(catalog["odd table"])
        let literal = Relation(source: try MemoryTable(name: "literal", columns: ["select"], rows: [[1], [-2.5], [.null], ["s"]]))
        let sel = try base.select(.all([Attribute("a b") *!= "é\t", .not(Attribute("select") *>= 1e-7)]))
        let joined = try sel.project(["select"]).union(literal).join(literal)
        try assertRoundTrip(Query(outputs: [QueryOutput(name: "the output", relation: joined)], bindings: [:]), catalog: catalog)
    }

    func testRandomGraphsRoundTrip() throws {
        var catalog = try Fixtures.documents()
        for (name, r) in try Fixtures.pets().relations { catalog.add(r, as: name) }
        var random = SplitMix64Generator(seed: 2024)
        var checked = 0
        for _ in 0..<300 {
            var graph = RandomGraph(catalog: catalog, random: &random)
            let outputs = try graph.build()
            let query = Query(outputs: outputs.map { QueryOutput(relation: $0) }, bindings: [:])
            try assertRoundTrip(query, catalog: catalog)
            checked += 1
        }
        XCTAssertEqual(checked, 300)
    }
}

/// Builds random valid relation graphs over a catalog, reusing nodes so some are shared.
struct RandomGraph {
    let catalog: RelationCatalog
    var random: SplitMix64Generator

    init(catalog: RelationCatalog, random: inout SplitMix64Generator) {
        self.catalog = catalog
        self.random = random
        random = SplitMix64Generator(seed: random.next())
    }

    mutating func build() throws -> [Relation] {
        var pool = catalog.names.compactMap { catalog[$0] }
        pool.append(Relation(source: try MemoryTable(name: "literal", columns: ["id"], rows: [[3], [5]])))
        var fresh = 0
        for _ in 0..<(2 + random.index(below: 8)) {
            let a = pool[random.index(below: pool.count)]
            let b = pool[random.index(below: pool.count)]
            var made: Relation?
            switch random.index(below: 8) {
            case 0, 1: made = try a.select(predicate(over: a.scheme))
            case 2: made = try a.project(a.scheme.attributes.filter { _ in random.index(below: 2) == 0 })
            case 3:
                guard let old = a.scheme.attributes.randomElement(using: &random) else { break }
                fresh += 1
                made = try a.rename([old: Attribute("a\(fresh)")])
            case 4: made = try? a.join(b)
            case 5:
                if let x = a.scheme.attributes.randomElement(using: &random),
                   let y = b.scheme.attributes.randomElement(using: &random) {
                    made = try? a.equijoin(b, matching: [JoinPair(x, y)])
                }
            default:
                let partners = pool.filter { $0.scheme == a.scheme }
                let other = partners[random.index(below: partners.count)]
                switch random.index(below: 3) {
                case 0: made = try a.union(other)
                case 1: made = try a.intersection(other)
                default: made = try a.difference(other)
                }
            }
            if let made { pool.append(made) }
        }
        let count = 1 + random.index(below: 2)
        return (0..<count).map { _ in pool[pool.count - 1 - random.index(below: min(3, pool.count))] }
    }

    mutating func predicate(over scheme: Scheme, depth: Int = 0) -> Predicate {
        let choice = depth > 1 ? 0 : random.index(below: 5)
        switch choice {
        case 1: return .all([predicate(over: scheme, depth: depth + 1), predicate(over: scheme, depth: depth + 1)])
        case 2: return .any([predicate(over: scheme, depth: depth + 1), predicate(over: scheme, depth: depth + 1)])
        case 3: return .not(predicate(over: scheme, depth: depth + 1))
        default:
            guard let a = scheme.attributes.randomElement(using: &random) else { return .constant(random.index(below: 2) == 0) }
            let op = ComparisonOperator.allCases[random.index(below: ComparisonOperator.allCases.count)]
            let values: [Value] = [.integer(Int64(random.index(below: 10)) - 3), .text("cat"), .null, .real(2.5), .blob([0xab])]
            return .comparison(.attribute(a), op, .value(values[random.index(below: values.count)]))
        }
    }
}

extension Array {
    func randomElement(using random: inout SplitMix64Generator) -> Element? {
        isEmpty ? nil : self[random.index(below: count)]
    }
}
