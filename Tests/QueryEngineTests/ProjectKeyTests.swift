import QueryEngine
import Relational
import XCTest

/// A project keeps the keys of rows read from one store as stored codes (`CodedKeySet`)
/// and moves them into encoded keys when rows come from elsewhere; either way it must
/// follow README's value semantics (`3 == 3.0`, one NaN, null an ordinary value, text by
/// bytes), at every batch size.
final class ProjectKeyTests: XCTestCase {
    private func table(_ name: String, _ rows: [[Value]], indexed: [Attribute] = []) throws -> Relation {
        Relation(source: try MemoryTable(name: name, columns: ["a", "b", "c"], rows: rows, indexedAttributes: indexed))
    }

    private func check(_ query: Relation, rows expected: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = Set(try ReferenceEvaluator.evaluate(query))
        XCTAssertEqual(reference.count, expected, "reference", file: file, line: line)
        for preset in ["all-off", "all-on"] {
            for batchSize in [1, 2, 1024] {
                var engine = try QueryEngine(preset: preset)
                engine.batchSize = batchSize
                let run = try engine.run([query])
                XCTAssertEqual(run.resultRows[0].count, expected, "\(preset), batch \(batchSize)", file: file, line: line)
                XCTAssertEqual(run.results[0].count, expected, "\(preset), batch \(batchSize)", file: file, line: line)
                XCTAssertEqual(Set(run.results[0]), reference, "\(preset), batch \(batchSize)", file: file, line: line)
            }
        }
    }

    func testEqualValuesOfOneStoreMeetAsCodes() throws {
        let t = try table("t", [
            [3, "x", 1], [3.0, "x", 2], [.real(.nan), "y", 1], [.real(-.nan), "y", 2], [nil, nil, 1], [nil, nil, 2],
            [0.0, "é", 1], [-0.0, "é", 2], [0, "e\u{301}", 3], [2.5, "x", 1], [2.5, "x", 2], [2, .blob([1]), 1], [2, .blob([1]), 2],
        ])
        // [a, b] repeats for every pair of rows differing only in c (3/3.0, NaNs, nulls, zeros, 2.5, blob).
        try check(try t.project(["a", "b"]), rows: 7)
        // One column that is not all integers: codes too.
        try check(try t.project(["b"]), rows: 6)
    }

    func testKeysMoveToEncodingsWhenAnotherStoreArrives() throws {
        // Equal values with different codes in the two tables' dictionaries ("y" is code 1 in
        // one and 0 in the other), and 3 against 3.0: the union passes all rows (c differs),
        // the project must keep one of each [a, b].
        let t = try table("t", [[3, "x", 1], [4, "y", 1], [5, "z", 1]])
        let u = try table("u", [[4, "y", 2], [3.0, "x", 2], [6, "z", 2]])
        try check(try t.union(u).project(["a", "b"]), rows: 4)
        // A self-join's output reads [a, b] from two parts of one store.
        let renamed = try t.rename(["a": "a2", "c": "c2"])
        try check(try t.join(renamed).project(["a", "b"]), rows: 3)
    }

    func testPositionsOfAKeyedTableAreKeysUntilAnotherStoreArrives() throws {
        // `a` is distinct and indexed, so a scan's position is the key of [a, b].
        let t = try table("t", [[1, "x", 1], [2, "x", 2], [3, "y", 1]], indexed: ["a"])
        try check(try t.project(["a", "b"]), rows: 3)
        try check(try t.project(["b", "a"]).select(Attribute("a") *>= 2), rows: 2)
        // Another keyed table's rows: the kept positions are spelled out, 3.0 meets 3.
        let u = try table("u", [[3.0, "y", 9], [4, "x", 2]], indexed: ["a"])
        try check(try t.union(u).project(["a", "b"]), rows: 4)
        // A self-join on b: [a, b] read from the probing side's part or the stored one.
        let renamed = try t.rename(["a": "a2", "c": "c2"])
        try check(try t.join(renamed).project(["a", "b"]), rows: 3)
        try check(try t.join(renamed).project(["a2", "b"]), rows: 3)
    }
}
