import QueryEngine
import Relational
import XCTest

/// A hash join whose stored or probing side is keyed on its store's distinct column marks
/// its views as depending on the other side (`ColumnView.Dependence`), and a project that
/// keeps the determining side's distinct column keys rows by that side's position alone.
/// Single-integer join keys go through the join table's integer runs, with null, real and
/// text keys beside them in the same batch. Results must equal the reference evaluator's
/// at every batch size, whichever way rows arrive.
final class JoinDependenceTests: XCTestCase {
    private func documents(_ rows: [[Value]]) throws -> Relation {
        Relation(source: try MemoryTable(name: "documents", columns: ["id", "name", "parent_id"], rows: rows,
                                         indexedAttributes: ["id", "parent_id"]))
    }

    private func check(_ query: Relation, rows expected: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = Set(try ReferenceEvaluator.evaluate(query))
        XCTAssertEqual(reference.count, expected, "reference", file: file, line: line)
        for preset in ["all-off", "all-on"] {
            for batchSize in [1, 2, 3, 1024] {
                var engine = try QueryEngine(preset: preset)
                engine.batchSize = batchSize
                let run = try engine.run([query])
                XCTAssertEqual(run.resultRows[0].count, expected, "\(preset), batch \(batchSize)", file: file, line: line)
                XCTAssertEqual(Set(run.results[0]), reference, "\(preset), batch \(batchSize)", file: file, line: line)
                XCTAssertEqual(run.results[0].count, expected, "\(preset), batch \(batchSize)", file: file, line: line)
            }
        }
    }

    /// Roots (null parents), a parent given as an equal real, names shared by several
    /// documents, a parent that does not exist, and a text parent id.
    private func sample() throws -> Relation {
        try documents([
            [1, "a", nil], [2, "b", 1], [3, "b", 1], [4, "a", 2], [5, "c", 2.0], [6, "c", 3],
            [7, "a", 99], [8, "d", "1"], [9, "a", 4], [10, "b", nil], [11, "c", 10], [12, "c", 10],
        ])
    }

    private func parents(_ d: Relation) throws -> Relation {
        try d.rename(["id": "parent_id", "name": "pname", "parent_id": "grandparent_id"])
    }

    func testParentJoinProjectedToIDAndParentName() throws {
        let d = try sample()
        // Documents 2–6, 9, 11, 12 have a parent (5's given as 2.0).
        try check(try d.join(try parents(d)).project(["id", "pname"]), rows: 8)
        // The parent's name alone: many documents share one, so rows merge.
        try check(try d.join(try parents(d)).project(["pname"]), rows: 2)
        // Both names: keyed by neither side's distinct column.
        try check(try d.join(try parents(d)).project(["name", "pname"]), rows: 4)
        // The parent's id (the parents' distinct column, not the determining side's) and the
        // child's name: rows merge (2 and 3, 11 and 12).
        try check(try d.join(try parents(d)).project(["parent_id", "name"]), rows: 6)
    }

    func testJoinsOnTheSameKeysUnitedThenProjected() throws {
        let d = try sample()
        let p = try parents(d)
        // Two joins with the same stores and keys: one dependence, rows met across both.
        let left = try d.select(Attribute("id") *<= 6).join(p)
        let right = try d.select(Attribute("id") *>= 4).join(p)
        try check(try left.union(right).project(["id", "pname"]), rows: 8)
        // A join on other keys (the grandparent) beside it: keys move to encodings.
        let grand = try d.rename(["id": "grandparent_id", "name": "pname", "parent_id": "g2"])
        let viaGrandparent = try d.join(p.project(["parent_id", "grandparent_id"])).join(grand).project(["id", "pname", "name", "parent_id"])
        try check(try d.join(p).project(["id", "pname", "name", "parent_id"]).union(viaGrandparent).project(["id", "pname"]), rows: 12)
    }

    func testDependentKeysMoveToEncodingsWhenPlainRowsArrive() throws {
        let d = try sample()
        let joined = try d.join(try parents(d)).project(["id", "pname"])
        // Rows of another table with the same scheme, some equal to joined rows (4, "b"), one
        // equal up to 3 == 3.0.
        let other = Relation(source: try MemoryTable(name: "other", columns: ["id", "pname"],
                                                     rows: [[4, "b"], [3.0, "a"], [40, "z"]], indexedAttributes: ["id"]))
        try check(try joined.union(other).project(["id", "pname"]), rows: 9)
        try check(try other.union(joined).project(["pname", "id"]), rows: 9)
    }
}
