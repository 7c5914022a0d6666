import XCTest
@testable import Relational

/// Scheme mistakes are reported when the relation is built, as errors whose messages name
/// the attributes involved, never as crashes.
final class SchemeErrorTests: XCTestCase {
    func employees() throws -> Relation {
        try makeRelation("employees", ["id", "name"], [[1, "Jane Doe"], [2, "John Smith"]])
    }

    func equipment() throws -> Relation {
        try makeRelation("equipment", ["owner_id", "serial_number", "comment"], [[1, "88842", "Computer"]])
    }

    func testSetOperationsNeedTheSameScheme() throws {
        let ids = try makeRelation("ids", ["id"], [[1]])
        assertRelationError("union needs operands with the same scheme, got [id, name] and [id]") {
            try employees().union(ids)
        }
        assertRelationError("intersect needs operands with the same scheme, got [id] and [id, name]") {
            try ids.intersection(employees())
        }
        assertRelationError(
            "minus needs operands with the same scheme, got [id, name] and [comment, owner_id, serial_number]"
        ) {
            try employees().difference(equipment())
        }
    }

    func testColumnOrderDoesNotMatterForSchemes() throws {
        let reversed = try makeRelation("reversed", ["name", "id"], [["Tim S", 3]])
        let all = try employees().union(reversed)
        XCTAssertEqual(try TablePrinter.render(all), "id  name\n1   Jane Doe\n2   John Smith\n3   Tim S\n")
    }

    /// Past 40 attributes a message counts the rest: a 100,000-column table's unknown-attribute
    /// message ran to 789 KB.
    func testAWideSchemeIsListedShortInAMessage() throws {
        let names = (0..<1_000).map { "c\($0)" }
        let wide = try makeRelation("wide", names.map { Attribute($0) }, [Array(repeating: 1, count: 1_000)])
        let first40 = names.sorted().prefix(40).joined(separator: ", ")
        assertRelationError("select (a > 3): unknown attribute 'a'; the relation has [\(first40), and 960 more]") {
            try wide.select(Attribute("a") *> 3)
        }
        XCTAssertEqual(try Scheme(["b", "a"]).listed(atMost: 2), "[a, b]")
        XCTAssertEqual(try Scheme(["b", "a", "c"]).listed(atMost: 2), "[a, b, and 1 more]")
    }

    /// The join's unmatched shared names are counted past 40 too: for two 100,000-column
    /// operands the message ran to 989 KB.
    func testAJoinsUnmatchedSharedNamesAreListedShort() throws {
        let names = (0..<1_000).map { "c\($0)" }
        let wide = try makeRelation("wide", names.map { Attribute($0) }, [Array(repeating: 1, count: 1_000)])
        let unmatched = names.sorted().filter { $0 != "c0" }
        let first40 = unmatched.prefix(40).map { "'\($0)'" }.joined(separator: ", ")
        assertRelationError("join: both operands have \(first40), and 959 more but the join does not match them; "
            + "rename one side or add them to the matching") {
            try wide.equijoin(wide, matching: [JoinPair(Attribute("c0"), Attribute("c0"))])
        }
        XCTAssertEqual(Scheme.listing(["x", "y", "z"], atMost: 3), "x, y, z")
        XCTAssertEqual(Scheme.listing(["x", "y", "z"], atMost: 1), "x, and 2 more")
    }

    /// The context of an unknown-attribute error is built only for the error: the SQL
    /// translations describe the whole predicate in it once per attribute reference, which
    /// made `query --engine sqlite` of a select of 100,000 `or`ed comparisons run for minutes.
    func testTheContextIsDescribedOnlyWhenTheAttributeIsMissing() throws {
        let scheme = try Scheme(["id", "name"])
        var described = 0
        func context() -> String {
            described += 1
            return "select (id == name)"
        }
        XCTAssertEqual(try scheme.requireIndex(of: Attribute("name"), context: context()), 1)
        XCTAssertEqual(described, 0, "the context was built for an attribute the scheme has")
        XCTAssertThrowsError(try scheme.requireIndex(of: Attribute("parent_id"), context: context())) { error in
            XCTAssertEqual("\(error)", "select (id == name): unknown attribute 'parent_id'; the relation has [id, name]")
        }
        XCTAssertEqual(described, 1)
    }

    func testSelectOnAnUnknownAttribute() throws {
        assertRelationError("select (salary > 3): unknown attribute 'salary'; the relation has [id, name]") {
            try employees().select(Attribute("salary") *> 3)
        }
        // Attribute-to-attribute comparisons are checked on both sides.
        assertRelationError("select (id == boss_id): unknown attribute 'boss_id'; the relation has [id, name]") {
            try employees().select(Attribute("id") *== Attribute("boss_id"))
        }
        // Compiling a predicate against a scheme reports the same way.
        let scheme = try Scheme(["id"])
        assertRelationError("select (name == \"x\"): unknown attribute 'name'; the relation has [id]") {
            try CompiledPredicate(Attribute("name") *== "x", scheme: scheme)
        }
    }

    func testProjectOnAnUnknownAttribute() throws {
        assertRelationError("project: unknown attribute 'salary'; the relation has [id, name]") {
            try employees().project(["id", "salary"])
        }
        assertRelationError("project dropping: unknown attribute 'salary'; the relation has [id, name]") {
            try employees().project(dropping: ["salary"])
        }
    }

    func testRenameOfAnUnknownAttribute() throws {
        assertRelationError("rename: unknown attribute 'salary'; the relation has [id, name]") {
            try employees().rename(["salary": "pay"])
        }
    }

    func testRenameOntoAnExistingAttribute() throws {
        assertRelationError("rename 'name' -> 'id' collides with existing attribute 'id' in [id, name]") {
            try employees().rename(["name": "id"])
        }
    }

    func testRenamingTwoAttributesToOneName() throws {
        assertRelationError("rename: 'id' and 'name' are both renamed to 'x' in [id, name]") {
            try employees().rename(["id": "x", "name": "x"])
        }
    }

    func testJoinOnAnUnknownAttribute() throws {
        assertRelationError(
            "join [employee_id = owner_id] (left operand): unknown attribute 'employee_id'; the relation has [id, name]"
        ) {
            try employees().equijoin(equipment(), matching: [JoinPair("employee_id", "owner_id")])
        }
        assertRelationError(
            "join [id = owner] (right operand): unknown attribute 'owner'; "
                + "the relation has [comment, owner_id, serial_number]"
        ) {
            try employees().equijoin(equipment(), matching: [JoinPair("id", "owner")])
        }
    }

    func testAmbiguousJoinAttributes() throws {
        let other = try makeRelation("other", ["id", "name", "team"], [[1, "Jane Doe", "a"]])
        assertRelationError(
            "join: both operands have 'name' but the join does not match them; rename one side or add them to the matching"
        ) {
            try employees().equijoin(other, matching: [JoinPair("id", "id")])
        }
        assertRelationError(
            "join: both operands have 'id', 'name' but the join does not match them; "
                + "rename one side or add them to the matching"
        ) {
            try employees().equijoin(other, matching: [])
        }
        // The natural join matches every shared attribute, so it is never ambiguous.
        XCTAssertEqual(try employees().join(other).scheme.attributes, ["id", "name", "team"])
    }

    func testDuplicateAttribute() throws {
        assertRelationError("attribute 'id' appears more than once") { try Scheme(["id", "name", "id"]) }
        assertRelationError("attribute 'id' appears more than once") {
            try MemoryTable(name: "t", columns: ["id", "id"], rows: [])
        }
        assertRelationError("attribute 'id' appears more than once") { try employees().project(["id", "id"]) }
    }

    func testWrongRowWidth() throws {
        assertRelationError("people: row has 1 values but the scheme has 2 attributes") {
            try MemoryTable(name: "people", columns: ["id", "name"], rows: [[1, "Ann"], [2]])
        }
        let table = try MemoryTable(name: "people", columns: ["id", "name"], rows: [])
        assertRelationError("people: row has 3 values but the scheme has 2 attributes") {
            try table.add([1, "Ann", "extra"])
        }
        XCTAssertEqual(table.count, 0, "a rejected row leaves nothing behind")
    }

    func testIndexOnAnUnknownAttribute() throws {
        assertRelationError("index on table people: unknown attribute 'email'; the relation has [id, name]") {
            try MemoryTable(name: "people", columns: ["id", "name"], rows: [], indexedAttributes: ["email"])
        }
    }

    func testUpdateOfAnUnknownAttribute() throws {
        let table = try MemoryTable(name: "people", columns: ["id", "name"], rows: [[1, "Ann"]])
        assertRelationError("update of people: unknown attribute 'email'; the relation has [id, name]") {
            try table.update(where: Attribute("id") *== 1, set: ["email": "a@b"])
        }
        XCTAssertEqual(table.allRows, [[1, "Ann"]])
    }

    func testErrorsAreRaisedWhenBuildingNotWhenReading() throws {
        let source = CountingSource(name: "s", scheme: try Scheme(["id"]), rows: [[1]])
        let relation = Relation(source: source)
        XCTAssertThrowsError(try relation.select(Attribute("nope") *== 1))
        XCTAssertThrowsError(try relation.project(["nope"]))
        XCTAssertEqual(source.cursorsMade, 0)
    }
}
