import XCTest
import Relational
@testable import QueryEngine

/// `set-operand-filter` builds no filter of as many keys as the rows it could keep from
/// being read (`RunnerContext.rowsLeftToRead`): building, passing down and looking up
/// an IN-set of L keys costs about as much as reading L rows, so a filter on a side with
/// fewer rows left to read costs more than it can save. Counters only.
final class SetOperandFilterCostTests: XCTestCase {
    /// `left minus right`, both one column `a`; `left` holds 1...leftRows, `right` holds
    /// `rightRows` values of which every fifth is in `left`, indexed on `a`.
    private func query(leftRows: Int, rightRows: Int) throws -> (Relation, MemoryTable) {
        let left = try MemoryTable(name: "left", columns: ["a"], rows: (1...leftRows).map { [.integer(Int64($0))] })
        var rightValues: [[Value]] = []
        for i in 1...rightRows {
            let value: Int = i % 5 == 0 ? i / 5 : 100_000 + i
            rightValues.append([.integer(Int64(value))])
        }
        let right = try MemoryTable(name: "right", columns: ["a"], rows: rightValues, indexedAttributes: ["a"])
        return (try Relation(source: left).difference(Relation(source: right)), right)
    }

    private func run(_ query: Relation, disable: [String] = []) throws -> QueryRun {
        let flags = try HeuristicCatalog.standard.flagSet(preset: "all-on", disable: disable)
        let run = try QueryEngine(flags: flags).run([query])
        XCTAssertEqual(run.results[0].asSet, try ReferenceEvaluator.evaluate(query).asSet)
        return run
    }

    /// 40 keys against 500 rows left to read: the filter is built, and the index fetches
    /// only the right rows whose value is among the keys.
    func testAFilterOfFewerKeysThanRowsLeftIsBuilt() throws {
        let (query, right) = try query(leftRows: 40, rightRows: 500)
        let run = try run(query)
        XCTAssertEqual(run.counters.filtersProvided, 1)
        XCTAssertEqual(Fixtures.rowsDelivered(by: right.sourceName, in: run), 40)
        XCTAssertEqual(run.counters.sourceRowsRead, 80)
    }

    /// 400 keys against 30 rows left to read: no filter, the 30 rows are read (the filter
    /// would have cut them to the 6 whose values are keys, after an IN-set of 400 keys).
    func testAFilterOfMoreKeysThanRowsLeftIsNotBuilt() throws {
        let (query, right) = try query(leftRows: 400, rightRows: 30)
        let run = try run(query)
        XCTAssertEqual(run.counters.filtersProvided, 0)
        XCTAssertEqual(Fixtures.rowsDelivered(by: right.sourceName, in: run), 30)
        XCTAssertEqual(run.counters.sourceRowsRead, 430)
    }

    /// The bound counts what the sources left would deliver under their filters: a right
    /// side whose select an index answers has only those rows left, however large its table.
    func testRowsLeftCountsTheSourcesUnderTheirFilters() throws {
        let (difference, right) = try query(leftRows: 400, rightRows: 3_000)
        let run = try run(difference)
        XCTAssertEqual(run.counters.filtersProvided, 1, "3,000 rows left to read, 400 keys")
        XCTAssertEqual(Fixtures.rowsDelivered(by: right.sourceName, in: run), 400)

        // A select the index answers leaves 2 rows to read, however large the table.
        let picked = try Relation(source: right).select(.or([Attribute("a") *== 5, Attribute("a") *== 10]))
        let left = try MemoryTable(name: "left", columns: ["a"], rows: (1...400).map { [.integer(Int64($0))] })
        let keyed = try Relation(source: left).difference(picked)
        let keyedRun = try self.run(keyed)
        let without = try self.run(keyed, disable: ["set-operand-filter"])
        XCTAssertEqual(keyedRun.counters.filtersProvided, without.counters.filtersProvided,
                       "no set-operand filter: 2 rows left under the select, 400 keys")
        XCTAssertEqual(Fixtures.rowsDelivered(by: right.sourceName, in: keyedRun), 2)
    }
}
