import QueryEngine
import Relational
import Workloads
import XCTest
@testable import Verification

final class ReproTests: XCTestCase {
    func testCSVRoundTripKeepsEveryValueType() throws {
        let scheme = try Scheme(["a", "b"])
        let rows: [Row] = [
            [nil, ""], [3, 3.5], ["x,y", "q\"uote"], ["line\nbreak", .blob([0, 255])], [.blob([]), -7],
            [1e-7, "3"], [.integer(9_007_199_254_740_993), .real(9_007_199_254_740_992.0)],
        ]
        let text = CSVWriter.text(scheme: scheme, rows: rows)
        let (columns, values) = try CSVReader.parse(text, file: "test.csv")
        XCTAssertEqual(columns, scheme.attributes)
        XCTAssertEqual(values.map(Row.init), rows)
        for (a, b) in zip(values.flatMap { $0 }, rows.flatMap(\.values)) { XCTAssertEqual(a.typeName, b.typeName) }
    }

    func testWrittenCaseReadsBackEquivalent() throws {
        let parent = try temporaryDirectory("roundtrip")
        let fuzzer = Fuzzer(cases: 40, seed: 99)
        for index in 0..<40 {
            let graph = fuzzer.makeCase(index)
            guard !graph.outputs.isEmpty else { continue }
            let checker = try CaseChecker(graph)
            let flags = try HeuristicCatalog.standard.flagSet(preset: "all-off", set: ["join-filter-threshold": "2"])
            let mismatch = Mismatch(kind: .reference, flags: flags.canonical, backend: .sqlite, output: 0,
                                    queryText: checker.queryText, expected: [], actual: [], detail: "test")
            let path = try ReproDirectory.write(FailingCase(graph: graph, flags: flags, backend: .sqlite, mismatch: mismatch),
                                                id: "case-\(index)", under: parent)
            let contents = try ReproDirectory.read(path)
            let (read, readFlags, backend, kind) = (contents.graph, contents.flags, contents.backend, contents.kind)
            XCTAssertEqual(readFlags, flags)
            XCTAssertEqual(backend, .sqlite)
            XCTAssertEqual(kind, .reference)
            XCTAssertEqual(read.validPartition != nil, graph.validPartition != nil, "case \(index)")
            let again = try CaseChecker(read)
            XCTAssertEqual(again.reference.map { Set($0) }, checker.reference.map { Set($0) }, "case \(index)")
            XCTAssertTrue(try ReproDirectory.replay(path).isEmpty)
        }
    }
}
