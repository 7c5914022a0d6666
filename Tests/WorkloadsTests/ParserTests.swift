import XCTest
import Relational
@testable import Workloads

final class ParserTests: XCTestCase {
    func testEveryFormOfTheDesignParses() throws {
        var catalog = try Fixtures.documents()
        for (name, r) in try Fixtures.pets().relations { catalog.add(r, as: name) }
        for (name, r) in try Fixtures.employees().relations { catalog.add(r, as: name) }
        let text = """
            # comments run to end of line
            let sel     = relation [id] { (3) }                    # literal relation
            let doc     = sel join documents                       # natural join
            let parent  = doc project [parent_id] rename [parent_id -> id]
            let cats    = (pets union added minus removed) select (animal == "cat")
            let owned   = employees join [id = owner_id] equipment # equijoin
            output parent join documents                           # one or more outputs
            output named = cats select (id >= 2 and not (name == null))
            output owned
            """
        let query = try Query.parse(text, catalog: catalog)
        XCTAssertEqual(query.outputs.count, 3)
        XCTAssertEqual(query.outputs[1].name, "named")
        XCTAssertEqual(query.outputNames, ["output 1", "named", "owned"])
        XCTAssertEqual(Set(try query.relations[0].rows()), [Row([1, "A Story", .null])])
        XCTAssertEqual(Set(try query.relations[1].rows()), [Row(["cat", 5, "Pointy"])])
        XCTAssertEqual(try query.relations[2].rows().count, 4)
        XCTAssertEqual(query.bindings["owned"]?.scheme.attributes, ["comment", "id", "name", "owner_id", "serial_number"])
    }

    func testANameUsedTwiceIsOneSharedNode() throws {
        let catalog = try Fixtures.documents()
        let query = try Query.parse("""
            let s = selected_documents join documents
            output s union s
            output s
            """, catalog: catalog)
        guard case let .apply(.union, unionOperands) = query.relations[0].definition else { return XCTFail("not a union") }
        let (a, b) = (unionOperands[0], unionOperands[1])
        XCTAssertTrue(a === b)
        XCTAssertTrue(a === query.relations[1])
        XCTAssertEqual(a.name, "s")
        guard case let .apply(.join, joinOperands) = a.definition else { return XCTFail("not a join") }
        let (l, r) = (joinOperands[0], joinOperands[1])
        XCTAssertTrue(l === catalog["selected_documents"])
        XCTAssertTrue(r === catalog["documents"], "a table name resolves to the catalog's one node")
    }

    func testPrecedence() throws {
        let catalog = try Fixtures.pets()
        // union and minus are equal and left-associative.
        let q1 = try Query.parse("output pets union added minus removed", catalog: catalog)
        guard case let .apply(.difference, o1) = q1.relations[0].definition, o1[0].operator == .union else {
            return XCTFail("expected (pets union added) minus removed")
        }
        // intersect binds tighter than union; join tighter than intersect; postfix tightest.
        let q2 = try Query.parse("output pets union added intersect removed", catalog: catalog)
        guard case let .apply(.union, o2) = q2.relations[0].definition, o2[1].operator == .intersection else {
            return XCTFail("expected pets union (added intersect removed)")
        }
        let q3 = try Query.parse("output pets join added select (id == 1)", catalog: catalog)
        guard case let .apply(.join, o3) = q3.relations[0].definition, o3[1].operator?.kind == .select else {
            return XCTFail("expected pets join (added select ...)")
        }
        let q4 = try Query.parse("output pets intersect added join removed", catalog: catalog)
        guard case let .apply(.intersection, o4) = q4.relations[0].definition, o4[1].operator?.kind == .join else {
            return XCTFail("expected pets intersect (added join removed)")
        }
    }

    func testExpressions() throws {
        let catalog = try Fixtures.documents()
        func predicate(_ text: String) throws -> Predicate {
            let q = try Query.parse("output documents select (\(text))", catalog: catalog)
            guard case let .select(p) = q.relations[0].operator else { throw QueryPrintError("no select") }
            return p
        }
        let id: Attribute = "id"
        let name: Attribute = "name"
        let parent: Attribute = "parent_id"
        XCTAssertEqual(try predicate("id == 3"), id *== 3)
        XCTAssertEqual(try predicate("id == -3 or id >= 2.5e1 or id < 0.5"), .any([id *== -3, id *>= 25.0, id *< 0.5]))
        XCTAssertEqual(try predicate("name == \"say \\\"hi\\\"\\n\\u{e9}\""), name *== .text("say \"hi\"\né"))
        XCTAssertEqual(try predicate("name != x'00fF' and parent_id == null"), .all([name *!= .blob([0, 255]), parent *== .null]))
        XCTAssertEqual(try predicate("not id <= 2"), .not(id *<= 2))
        XCTAssertEqual(try predicate("3 > id"), .comparison(.value(3), .greater, .attribute(id)))
        XCTAssertEqual(try predicate("id == parent_id"), .comparison(.attribute(id), .equal, .attribute(parent)))
        // and binds tighter than or; parentheses and flattening.
        XCTAssertEqual(try predicate("id == 1 or id == 2 and name == \"x\""), .any([id *== 1, .all([id *== 2, name *== "x"])]))
        XCTAssertEqual(try predicate("(id == 1 and id == 2) and (id == 3)"), .and([id *== 1, id *== 2, id *== 3]))
        XCTAssertEqual(try predicate("true"), .true)
        XCTAssertEqual(try predicate("false or id == 1"), id *== 1)
        XCTAssertEqual(try predicate("`id` == 1"), id *== 1)
    }

    func testLiteralRelations() throws {
        let catalog = try Fixtures.documents()
        let q = try Query.parse("""
            let ids = relation [id, tag] { (1, "a"), (2, null), (2, null) }
            let none = relation [id] { }
            output ids
            output none
            output relation [] { () }
            """, catalog: catalog)
        XCTAssertEqual(Set(try q.relations[0].rows()), [Row([1, "a"]), Row([2, .null])])
        XCTAssertEqual(q.relations[0].name, "ids")
        XCTAssertEqual(try q.relations[1].rows(), [])
        XCTAssertEqual(try q.relations[2].rows(), [Row([])])
    }

    // MARK: Malformed input: exact positions and messages

    func testMalformedQueries() throws {
        let c = try Fixtures.documents()
        assertQueryError("output documnets", line: 1, column: 8,
            "unknown relation 'documnets'; did you mean 'documents'?", catalog: c)
        assertQueryError("output documents select (nme == \"x\")", line: 1, column: 26,
            "select: unknown attribute 'nme'; did you mean 'name'? (the relation has [id, name, parent_id])", catalog: c)
        assertQueryError("let a = documents\noutput a project [id, parnt_id]", line: 2, column: 23,
            "project: unknown attribute 'parnt_id'; did you mean 'parent_id'? (the relation has [id, name, parent_id])", catalog: c)
        assertQueryError("output documents union selected_documents", line: 1, column: 18,
            "union needs operands with the same scheme, got [id, name, parent_id] and [id]", catalog: c)
        assertQueryError("output documents select (id = 3)", line: 1, column: 29,
            "expected a comparison operator, found '='; write '==' to compare", catalog: c)
        assertQueryError("output documents select (id == 3", line: 1, column: 33,
            "expected ')' to close the select expression, found end of input", catalog: c)
        assertQueryError("let a = documents", line: 1, column: 18,
            "expected at least one 'output' statement, found end of input", catalog: c)
        assertQueryError("output documents\n  select (name == \"unterminated)", line: 2, column: 19,
            "unterminated string; expected a closing '\"' before the end of the line", catalog: c)
        assertQueryError("output relation [id] { (1), (2, 3) }", line: 1, column: 29,
            "row has 2 value(s) but the relation has 1 attribute(s)", catalog: c)
        assertQueryError("output documents rename [id => x]", line: 1, column: 29,
            "expected '->' between the old and new name, found '='", catalog: c)
        assertQueryError("output documents select (name == x'abc')", line: 1, column: 34,
            "blob has an odd number of hex digits", catalog: c)
        assertQueryError("let s = selected_documents\nlet s = documents\noutput s", line: 2, column: 5,
            "'s' is already bound by the let at line 1; choose another name", catalog: c)
        // An output's name is its own (a change script's `update NAME` finds it by name).
        assertQueryError("output a = documents\noutput a = selected_documents", line: 2, column: 8,
            "'a' already names the output at line 1; choose another name", catalog: c)
        assertQueryError("let a = documents\noutput a = a select (id == 1)", line: 2, column: 8,
            "'a' is bound by the let at line 1; an output may not take its name", catalog: c)
        assertQueryError("output a = documents\nlet a = selected_documents\noutput a", line: 2, column: 5,
            "'a' already names the output at line 1; choose another name", catalog: c)
        assertQueryError("output documents = documents select (id < 3)", line: 1, column: 8,
            "'documents' is a table name; an output may not take it", catalog: c)
        assertQueryError("output documents join [id = owner] selected_documents", line: 1, column: 29,
            "join (right operand): unknown attribute 'owner' (the relation has [id])", catalog: c)
        // A pair given twice was accepted, though `rename` refuses an attribute renamed twice.
        assertQueryError("output documents join [id = id, id = id] selected_documents", line: 1, column: 33,
            "the join pair 'id = id' is given twice; give each pair once", catalog: c)
        XCTAssertNoThrow(try Query.parse("output documents join [id = id, parent_id = id] selected_documents", catalog: c))
        assertQueryError("output documents rename [name -> id]", line: 1, column: 18,
            "rename 'name' -> 'id' collides with existing attribute 'id' in [id, name, parent_id]", catalog: c)
        assertQueryError("output documents project [select]", line: 1, column: 27,
            "expected an attribute to keep, found keyword 'select' (write `select` to use it as a name)", catalog: c)
        assertQueryError("select documents", line: 1, column: 1,
            "expected 'let' or 'output', found 'select'", catalog: c)
        assertQueryError("output documents select (id == 1) ; ", line: 1, column: 35,
            "unexpected character ';'", catalog: c)
        assertQueryError("output (documents", line: 1, column: 18,
            "expected ')' to close the parenthesis, found end of input", catalog: c)
        assertQueryError("output documents select (name == \"a\\q\")", line: 1, column: 36,
            "unknown escape '\\q' in string; expected one of \\\" \\\\ \\n \\t \\r \\u{...}", catalog: c)
        assertQueryError("let documents = selected_documents\noutput documents", line: 1, column: 5,
            "'documents' is a table name; a let may not hide it", catalog: c)
    }
}
