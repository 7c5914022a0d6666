import XCTest
import Relational
@testable import QueryEngine

/// The pieces of the hand-built hunt cases (issue 15): a ten-row `things` table, an empty
/// relation, and the rows a table delivered to one run, checked against the reference
/// evaluator.
class HuntCaseTestCase: XCTestCase {
    func things(indexed: Bool = false) throws -> MemoryTable {
        try MemoryTable(name: "things", columns: ["id", "label"], rows: (1...10).map { [.integer($0), .text("t\($0)")] },
                        indexedAttributes: indexed ? ["id"] : [])
    }

    func empty() throws -> Relation {
        Relation(source: try MemoryTable(name: "none", columns: ["id"], rows: [])).named("none")
    }

    func rowsRead(
        _ query: Relation, _ table: MemoryTable, preset: String = "all-on", disable: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        try rowsRead([query], table, preset: preset, disable: disable, file: file, line: line)
    }

    /// Rows the table delivered to one run of several outputs, each checked against the
    /// reference evaluator.
    func rowsRead(
        _ outputs: [Relation], _ table: MemoryTable, preset: String = "all-on", disable: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        table.resetStatistics()
        let flags = try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)
        let run = try QueryEngine(flags: flags).run(outputs)
        let read = table.rowsDelivered
        // The reference evaluator reads the table too, so it runs after counting.
        for (i, output) in outputs.enumerated() {
            XCTAssertEqual(Set(run.results[i]), Set(try ReferenceEvaluator.evaluate(output)), "\(preset) -\(disable)",
                           file: file, line: line)
        }
        return read
    }

    /// Rows read from every table in one run of `query` (and `more` outputs beside it), each
    /// output checked against the reference evaluator.
    func totalRead(_ query: Relation, _ tables: [MemoryTable], preset: String = "all-on", disable: [String] = [],
                   alsoOutput more: [Relation] = [],
                   file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        for table in tables { table.resetStatistics() }
        let flags = try HeuristicCatalog.standard.flagSet(preset: preset, disable: disable)
        let run = try QueryEngine(flags: flags).run([query] + more)
        let read = tables.reduce(0) { $0 + $1.rowsDelivered }
        for (i, output) in ([query] + more).enumerated() {
            XCTAssertEqual(Set(run.results[i]), Set(try ReferenceEvaluator.evaluate(output)), "\(preset) -\(disable)",
                           file: file, line: line)
        }
        return read
    }
}
