import Engines
import Relational
import Workloads
import XCTest

typealias Predicate = Relational.Predicate

/// Values whose meaning differs between dialects, run through DuckDB and compared with the
/// reference evaluator over the same tables: null keys, `3` beside `3.0`, text against
/// numbers, blobs, empty text, quotes and backslashes, and identifiers that are keywords or
/// hold quotes.
final class DialectEdgeTests: XCTestCase {
    /// Tables whose names and attributes are SQL keywords or hold quotes.
    private func tables() throws -> [DatasetTable] {
        let numbers = try DatasetTable(
            name: "select", columns: ["order", "we\"ird"],
            rows: [[1, 3], [2, 3.0], [3, .null], [4, 2.5], [5, -1], [6, 9_007_199_254_740_992.0]],
            indexedAttributes: ["order"])
        let texts = try DatasetTable(
            name: "from \"t\"", columns: ["order", "text"],
            rows: [[1, ""], [2, "3"], [3, "a'b"], [4, "back\\slash"], [5, .null], [6, "q\"uote"], [7, "B"], [8, "a"], [9, "é"]],
            indexedAttributes: [])
        let blobs = try DatasetTable(
            name: "group", columns: ["order", "data"],
            rows: [[1, .blob([])], [2, .blob([0])], [3, .blob([0x61])], [4, .null], [5, .blob([0xff, 0])]],
            indexedAttributes: [])
        return [numbers, texts, blobs]
    }

    private func check(_ build: (RelationCatalog) throws -> [Relation], file: StaticString = #filePath, line: UInt = #line) throws {
        let engine = try startDuckDB()
        defer { engine.stop() }
        let data = try tables()
        var memory = RelationCatalog()
        for t in data {
            let table = try MemoryTable(name: t.name, scheme: t.scheme)
            try table.add(contentsOf: t.rows)
            memory.add(Relation(source: table), as: t.name)
        }
        let expected = try build(memory).map { try ReferenceEvaluator().rows(of: $0) }
        let actual = try engine.run(try engine.prepare(try build(try engine.load(data)))).results
        XCTAssertEqual(actual.count, expected.count, file: file, line: line)
        for (i, (a, e)) in zip(actual, expected).enumerated() {
            let (set, duplicates) = asSet(a)
            XCTAssertFalse(duplicates, "output \(i): a row came twice", file: file, line: line)
            XCTAssertEqual(set, Set(e), "output \(i)", file: file, line: line)
        }
    }

    private func relation(_ catalog: RelationCatalog, _ name: String) throws -> Relation {
        try XCTUnwrap(catalog[name])
    }

    func testNullKeysAndThreeEqualsThreePointZero() throws {
        try requireDuckDB()
        let w = Attribute("we\"ird")
        try check { c in
            let n = try relation(c, "select")
            let other = try n.rename([Attribute("order"): Attribute("o2")])
            return [
                try n.select(w *== 3),              // 3 and 3.0
                try n.select(w *== 3.0),
                try n.select(w *== .null),          // null is a value
                try n.select(w *!= .null),
                try n.select(!(w *== 3)),           // NOT of a null-safe test is exact
                try n.join(other),                  // null joins null; 3 joins 3.0
                try n.project([w]),                 // 3 and 3.0 are one row
                try n.select(w *< 2.75), try n.select(w *>= 2.5), try n.select(w *<= .null), try n.select(w *> .null),
                try n.select(w *== 9_007_199_254_740_992),
            ]
        }
    }

    /// A two-attribute IN-set of 1,500 keys, some with a null, nested in balanced halves of
    /// ORs (SQLite refused the 1,500-deep chain, fuzzer seed 914116): the same rows as the
    /// reference evaluator.
    func testALargeMultiAttributeInSetRuns() throws {
        try requireDuckDB()
        let keys = Set((0..<1500).map { i -> Row in Row([i % 3 == 0 ? .null : .integer(Int64(i % 7)), .integer(Int64(i))]) })
        try check { c in
            let n = try relation(c, "select")
            return [try n.select(.inSet(attributes: [Attribute("order"), Attribute("we\"ird")], keys: keys))]
        }
    }

    /// A thousand `and`-ed comparisons, nested in balanced halves like the ORs above.
    func testAThousandConjunctsRun() throws {
        try requireDuckDB()
        try check { c in
            let n = try relation(c, "select")
            return [try n.select(.and((0..<1000).map { Attribute("order") *!= Value.integer(Int64($0 * 2)) }))]
        }
    }

    func testTextAgainstNumbersFollowsTheOneOrder() throws {
        try requireDuckDB()
        let w = Attribute("we\"ird"), text = Attribute("text")
        try check { c in
            let n = try relation(c, "select"), t = try relation(c, "from \"t\"")
            return [
                try n.select(w *< "0"),             // every number (and null) is below any text
                try n.select(w *> "0"),
                try n.select(w *== "3"),            // text "3" is not the number 3
                try t.select(text *> 100),          // every text is above any number
                try t.select(text *<= 100),
                try t.select(text *== 3),
                try t.select(text *< "a"),          // bytes: "B" < "a" < "é"
                try t.select(text *>= "é"),
                try t.select(text *== ""),          // empty text is not null
                try t.select(text *== "a'b"), try t.select(text *== "back\\slash"), try t.select(text *== "q\"uote"),
                try n.equijoin(try t.rename([Attribute("order"): Attribute("o3")]), matching: [JoinPair(w, text)]),
                // number against text: only null meets null
                try n.select(w *< .blob([0])),
            ]
        }
    }

    func testBlobsCompareByBytes() throws {
        try requireDuckDB()
        let data = Attribute("data")
        try check { c in
            let b = try relation(c, "group")
            return [
                try b.select(data *< .blob([0x61])), try b.select(data *== .blob([])), try b.select(data *> "zzz"),
                try b.select(data *>= .blob([0xff])), try b.select(data *== .null),
            ]
        }
    }

    /// A set operation that would put text and numbers in one column is refused with the
    /// reason; a table that mixes them cannot be loaded.
    func testMixedColumnsAreRefusedWithAReason() throws {
        try requireDuckDB()
        let engine = try startDuckDB()
        defer { engine.stop() }
        let catalog = try engine.load(try tables())
        let numbers = try relation(catalog, "select").project([Attribute("we\"ird")])
        let texts = try relation(catalog, "from \"t\"").project([Attribute("text")]).rename([Attribute("text"): Attribute("we\"ird")])
        XCTAssertThrowsError(try engine.prepare([try numbers.union(texts)])) { error in
            XCTAssertTrue("\(error)".contains("holds mixed (real, text) values"), "\(error)")
            XCTAssertTrue("\(error)".contains("DuckDB columns hold one type"), "\(error)")
        }
        let mixed = try DatasetTable(name: "m", columns: ["x"], rows: [[1], ["one"]], indexedAttributes: [])
        XCTAssertThrowsError(try engine.load([mixed])) { error in
            XCTAssertTrue("\(error)".contains("table m: column x holds mixed (integer, text) values"), "\(error)")
        }
    }

    /// An integer beyond 2^53 beside reals is refused wherever it would meet them, not only
    /// in a loaded table: in a literal's column (it was rounded to a double, so a join
    /// matched 9007199254740993 with 9007199254740992.0), and an integer column holding one
    /// in a union, difference, intersection, join, column comparison or closure with a real
    /// column (DuckDB cast it to DOUBLE). Below 2^53 the same shapes still run.
    func testIntegersBeyondTwoToThe53MeetingRealsAreRefused() throws {
        try requireDuckDB()
        let engine = try startDuckDB()
        defer { engine.stop() }
        let big = try DatasetTable(name: "big", columns: ["k", "x"], rows: [[.integer(9_007_199_254_740_993), 1], [5, 2]], indexedAttributes: ["k"])
        let reals = try DatasetTable(name: "reals", columns: ["k", "y"], rows: [[9_007_199_254_740_992.0, 1], [5.5, 2]], indexedAttributes: [])
        let edges = try DatasetTable(name: "edges", columns: ["f", "t"], rows: [[.integer(9_007_199_254_740_993), 9_007_199_254_740_992.0]], indexedAttributes: [])
        let catalog = try engine.load([big, reals, edges])
        let k = Attribute("k")
        let b = try relation(catalog, "big"), r = try relation(catalog, "reals")
        let cases: [(String, Relation)] = [
            ("union", try b.project([k]).union(try r.project([k]))),
            ("except", try b.project([k]).difference(try r.project([k]))),
            ("intersect", try b.project([k]).intersection(try r.project([k]))),
            ("join", try b.join(r)),
            ("c == k", try b.rename([k: Attribute("c")]).join(r).select(Attribute("c") *== k)),
            ("closure", try relation(catalog, "edges").closure(Attribute("f"), Attribute("t"))),
        ]
        for (name, output) in cases {
            XCTAssertThrowsError(try engine.prepare([output]), name) { error in
                XCTAssertTrue("\(error)".contains("beyond 2^53"), "\(name): \(error)")
            }
        }
        let literal = try MemoryTable(name: "lit", scheme: try Scheme(["k"]))
        try literal.add(contentsOf: [[.integer(9_007_199_254_740_993)], [9_007_199_254_740_992.0]])
        XCTAssertThrowsError(try engine.prepare([Relation(source: literal)])) { error in
            XCTAssertTrue("\(error)".contains("the integer 9007199254740993 shares a column with reals"), "\(error)")
        }
        let small = try MemoryTable(name: "small", scheme: try Scheme(["k"]))
        try small.add(contentsOf: [[.integer(9_007_199_254_740_992)], [5]])
        let run = try engine.run(try engine.prepare([try Relation(source: small).union(try r.project([k]))]))
        XCTAssertEqual(run.results[0].count, 3)  // 2^53 (and 2^53.0), 5, 5.5
    }
}
