import XCTest
import Relational
@testable import SQLiteStore

/// A join's key filter (an IN-set) fetched from SQLite: null-safe, `3 == 3.0`, text by bytes,
/// always bound parameters, and split over several statements when it has more keys than one
/// statement can bind. The expected rows come from the same set written as an OR of
/// equalities, filtered by a memory table.
final class InSetFilterTests: XCTestCase {
    private func tables() throws -> (SQLiteDatabase, SQLiteTable, MemoryTable) {
        let db = try SQLiteDatabase.inMemory()
        let s = try scheme("id", "name", "parent_id")
        let sql = try db.createTable("docs", scheme: s, primaryKey: ["id"], indexes: [["parent_id"]])
        let memory = try MemoryTable(name: "docs", scheme: s, indexedAttributes: ["parent_id"])
        var rows: [Row] = [
            Row([1, "Ann", .null]), Row([2, "Bob", 1]), Row([3, .null, 1]), Row([4, "e\u{301}", 2.0]),
            Row([5, "\u{e9}", 2]), Row([6, .blob([1, 2]), 3]),
        ]
        for id in 7...60 { rows.append(Row([.integer(Int64(id)), .text("n\(id % 7)"), .integer(Int64(id % 11))])) }
        for row in rows {
            try sql.add(row)
            try memory.add(row)
        }
        return (db, sql, memory)
    }

    private func keys(_ values: [[Value]]) -> Set<Row> { Set(values.map(Row.init)) }

    func testInSetsAgreeWithTheirOrOfEqualitiesOnEveryPath() throws {
        let (db, sql, memory) = try tables()
        let manyParents = keys((0...10).map { [.integer(Int64($0))] } + [[.null]])
        let filters: [Predicate] = [
            .inSet(attributes: ["parent_id"], keys: keys([[.null], [2.0]])),  // null and 2 == 2.0
            .inSet(attributes: ["name"], keys: keys([["\u{e9}"], ["Bob"]])),  // bytes: not "e\u{301}"
            .inSet(attributes: ["parent_id", "name"], keys: keys([[.null, "Ann"], [1, .null], [2, "e\u{301}"], [3, "x"]])),
            .inSet(attributes: ["parent_id"], keys: manyParents),
            .inSet(attributes: ["parent_id"], keys: []),
            .not(.inSet(attributes: ["parent_id"], keys: manyParents.filter { $0.values[0] != .integer(3) })),
            .all([.inSet(attributes: ["parent_id"], keys: manyParents), "id" *> 20]),
            .any([.inSet(attributes: ["parent_id"], keys: keys([[1], [2]])), .inSet(attributes: ["parent_id"], keys: keys([[2], [3]]))]),
            .any([.inSet(attributes: ["id"], keys: keys((1...40).map { [.integer(Int64($0))] })),
                  .inSet(attributes: ["parent_id", "id"], keys: keys((1...40).map { [.integer(Int64($0 % 11)), .integer(Int64($0))] }))]),
        ]
        for filter in filters {
            let expected = try memory.fetchAll(filter: filter.expandingInSets)
            XCTAssertEqual(Set(expected).count, expected.count)
            for limit in [nil, 1, 2, 3, 7] {
                sql.maxParametersPerStatement = limit
                let got = try sql.fetchAll(filter: filter)
                XCTAssertEqual(Set(got), Set(expected), "\(filter) limit \(limit.map(String.init) ?? "none")")
                XCTAssertEqual(got.count, expected.count, "\(filter): each row once (limit \(limit.map(String.init) ?? "none"))")
            }
            sql.maxParametersPerStatement = nil
            XCTAssertEqual(Set(try memory.fetchAll(filter: filter)), Set(expected), "memory: \(filter)")
            // The translator (a select over the table as one SQL statement) agrees too.
            let viaSQL = try db.evaluate(try Relation(source: sql).select(filter))
            XCTAssertEqual(Set(viaSQL), Set(expected), "translator: \(filter)")
        }
    }

    /// A two-attribute IN-set of 1,500 keys, a third with a null: written as an OR of one AND
    /// per key it is deeper than SQLite's 1,000 (fuzzer seed 914116); nested in balanced
    /// halves it is fetched and translated, with the same rows as the memory table.
    func testALargeMultiAttributeInSetIsNotTooDeep() throws {
        let (db, sql, memory) = try tables()
        let filter = Predicate.inSet(attributes: ["parent_id", "id"],
                                     keys: keys((0..<1500).map { [$0 % 3 == 0 ? .null : .integer(Int64($0 % 11)), .integer(Int64($0))] }))
        let expected = try memory.fetchAll(filter: filter)
        XCTAssertGreaterThan(expected.count, 10)
        XCTAssertEqual(Set(try sql.fetchAll(filter: filter)), Set(expected))
        XCTAssertEqual(Set(try db.evaluate(try Relation(source: sql).select(filter))), Set(expected))
    }

    /// A select of a thousand `and`-ed comparisons was one chain as deep as it was long, and
    /// SQLite refused it ("Expression tree is too large"; the thirty-fourth session's probe).
    func testAThousandConjunctsAreNotTooDeep() throws {
        let (db, sql, memory) = try tables()
        let filter = Predicate.and((1000..<2000).map { Attribute("id") *!= Value.integer(Int64($0)) } + [Attribute("id") *!= 3])
        let expected = try memory.fetchAll(filter: filter)
        XCTAssertGreaterThan(expected.count, 10)
        XCTAssertEqual(Set(try sql.fetchAll(filter: filter)), Set(expected))
        XCTAssertEqual(Set(try db.evaluate(try Relation(source: sql).select(filter))), Set(expected))
    }

    func testEveryValueIsABoundParameter() throws {
        let (_, sql, _) = try tables()
        let filter = Predicate.inSet(attributes: ["parent_id", "name"], keys: keys([[1, "x'); DROP TABLE docs; --"], [.null, "Ann"]]))
        let (condition, parameters) = try sql.whereClause(filter)
        XCTAssertFalse(condition.contains("DROP"))
        XCTAssertFalse(condition.contains("Ann"))
        XCTAssertEqual(parameters.count, 3, "null is the keyword NULL, every other value a parameter")
    }

    func testAnIndexedInSetIsSelectiveAndEstimatedLikeItsOr() throws {
        let (_, sql, _) = try tables()
        let filter = Predicate.inSet(attributes: ["parent_id", "name"], keys: keys([[1, "Bob"], [2, "x"]]))
        XCTAssertTrue(sql.canFetchSelectively(filter))
        XCTAssertEqual(sql.estimatedCount(filter: filter), sql.estimatedCount(filter: filter.expandingInSets))
        XCTAssertEqual(sql.estimatedCount(filter: .inSet(attributes: ["id"], keys: [])), 0)
    }
}
