import XCTest
@testable import Relational

/// Every example of seed 001's "An Introduction to Relational Algebra Using PLRelational",
/// with the article's tables. Each test asserts our exact rendering (columns by name, rows
/// in the value order, last column not padded) and that it is the article's table up to
/// row order and trailing blanks.
final class AlgebraIntroductionTests: XCTestCase {
    // MARK: The article's relations

    func employees() throws -> Relation {
        try makeRelation("employees", ["name", "id"], [
            ["Jane Doe", 1],
            ["John Smith", 2],
        ])
    }

    func oldEmployees() throws -> Relation {
        try makeRelation("oldEmployees", ["id", "name"], [[2, "John Smith"], [1, "Jane Doe"]])
    }

    func newEmployees() throws -> Relation {
        try makeRelation("newEmployees", ["id", "name"], [[3, "Tim S"], [4, "Susan Johnson"]])
    }

    func frontlineEmployees() throws -> Relation {
        try makeRelation("frontlineEmployees", ["id", "name"], [[2, "John Smith"], [4, "Susan Johnson"]])
    }

    func nightEmployees() throws -> Relation {
        try makeRelation("nightEmployees", ["id", "name"], [[1, "Jane Doe"], [4, "Susan Johnson"]])
    }

    func equipment() throws -> Relation {
        try makeRelation("equipment", ["owner_id", "serial_number", "comment"], [
            [1, "88842", "Computer"],
            [1, "123", "Mouse"],
            [2, "X427A", "Car"],
            [2, "FFG77", "Cordless drill"],
            [2, "7", "Seven"],
        ])
    }

    func allEmployees() throws -> Relation { try oldEmployees().union(newEmployees()) }

    // The article's joined tables (verbatim, trailing blanks included).
    let articleEmployeeEquipment = """
        comment         id  name        owner_id  serial_number
        Cordless drill  2   John Smith  2         FFG77        
        Seven           2   John Smith  2         7            
        Car             2   John Smith  2         X427A        
        Mouse           1   Jane Doe    1         123          
        Computer        1   Jane Doe    1         88842        
        """

    let articleEmployeeEquipmentDropped = """
        comment         id  name        serial_number
        Seven           2   John Smith  7            
        Cordless drill  2   John Smith  FFG77        
        Computer        1   Jane Doe    88842        
        Car             2   John Smith  X427A        
        Mouse           1   Jane Doe    123          
        """

    let expectedEmployeeEquipmentDropped = """
        comment         id  name        serial_number
        Car             2   John Smith  X427A
        Computer        1   Jane Doe    88842
        Cordless drill  2   John Smith  FFG77
        Mouse           1   Jane Doe    123
        Seven           2   John Smith  7

        """

    // MARK: Examples

    func testEmployeesPrintWithColumnsSortedByName() throws {
        let rendered = try TablePrinter.render(employees())
        XCTAssertEqual(rendered, """
            id  name
            1   Jane Doe
            2   John Smith

            """)
        assertSameTableAsArticle(rendered, """
            id  name      
            1   Jane Doe  
            2   John Smith
            """)
    }

    func testUnionHoldsEveryRowOfEitherOperand() throws {
        let rendered = try TablePrinter.render(allEmployees())
        XCTAssertEqual(rendered, """
            id  name
            1   Jane Doe
            2   John Smith
            3   Tim S
            4   Susan Johnson

            """)
        assertSameTableAsArticle(rendered, """
            id  name         
            2   John Smith   
            1   Jane Doe     
            3   Tim S        
            4   Susan Johnson
            """)
    }

    func testUnionOfOverlappingRelationsKeepsEachRowOnce() throws {
        let both = try allEmployees().union(frontlineEmployees())
        XCTAssertEqual(try both.rows().count, 4)
    }

    func testDifferenceKeepsRowsOnlyInTheFirstOperand() throws {
        let management = try allEmployees().difference(frontlineEmployees())
        let rendered = try TablePrinter.render(management)
        XCTAssertEqual(rendered, """
            id  name
            1   Jane Doe
            3   Tim S

            """)
        assertSameTableAsArticle(rendered, """
            id  name    
            1   Jane Doe
            3   Tim S   
            """)
    }

    func testIntersectionKeepsRowsInBothOperands() throws {
        let management = try allEmployees().difference(frontlineEmployees())
        let nightManagers = try nightEmployees().intersection(management)
        let rendered = try TablePrinter.render(nightManagers)
        XCTAssertEqual(rendered, "id  name\n1   Jane Doe\n")
        assertSameTableAsArticle(rendered, """
            id  name    
            1   Jane Doe
            """)
    }

    func testSelectFiltersByPredicate() throws {
        // On the article's two employees, there is no employee four.
        let employeeFour = try employees().select(Attribute("id") *== 4)
        XCTAssertEqual(try TablePrinter.render(employeeFour), "id  name\n")
        // With the union's four employees there is.
        let four = try allEmployees().select(Attribute("id") *== 4)
        XCTAssertEqual(try TablePrinter.render(four), "id  name\n4   Susan Johnson\n")

        let earlyEmployees = try allEmployees().select(Attribute("id") *<= 10)
        XCTAssertEqual(try earlyEmployees.rows().count, 4)
        let firstTwo = try allEmployees().select(Attribute("id") *< 3)
        XCTAssertEqual(try TablePrinter.render(firstTwo), "id  name\n1   Jane Doe\n2   John Smith\n")
    }

    func testRenameChangesAttributeNamesOnly() throws {
        let renamed = try employees().rename(["name": "employee_name", "id": "employee_id"])
        XCTAssertEqual(renamed.scheme.attributes, ["employee_id", "employee_name"])
        let rendered = try TablePrinter.render(renamed)
        XCTAssertEqual(rendered, """
            employee_id  employee_name
            1            Jane Doe
            2            John Smith

            """)
        assertSameTableAsArticle(rendered, """
            employee_id  employee_name
            1            Jane Doe     
            2            John Smith   
            """)
    }

    func testRenameCanSwapAttributes() throws {
        let swapped = try makeRelation("t", ["a", "b"], [[1, "x"]]).rename(["a": "b", "b": "a"])
        XCTAssertEqual(try TablePrinter.render(swapped), "a  b\nx  1\n")
    }

    func testProjectKeepsOnlyTheNamedAttributes() throws {
        let employeeIDs = try employees().project(["id"])
        let rendered = try TablePrinter.render(employeeIDs)
        XCTAssertEqual(rendered, "id\n1\n2\n")
        assertSameTableAsArticle(rendered, "id\n1 \n2 ")
    }

    func testProjectCoalescesDuplicates() throws {
        // The article's case: two employees who somehow share an ID but not a name.
        let clash = try makeRelation("employees", ["name", "id"], [
            ["Jane Doe", 1],
            ["Janet Doe", 1],
            ["John Smith", 2],
        ])
        XCTAssertEqual(try clash.rows().count, 3)
        let ids = try clash.project(["id"])
        XCTAssertEqual(try ids.rows().count, 2)
        XCTAssertEqual(try TablePrinter.render(ids), "id\n1\n2\n")
        // The equipment owners: five rows, two owners.
        XCTAssertEqual(try TablePrinter.render(equipment().project(["owner_id"])), "owner_id\n1\n2\n")
    }

    func testEquijoinGluesEmployeesToTheirEquipment() throws {
        let employeeEquipment = try employees().equijoin(equipment(), matching: [JoinPair("id", "owner_id")])
        XCTAssertEqual(employeeEquipment.scheme.attributes, ["comment", "id", "name", "owner_id", "serial_number"])
        let rendered = try TablePrinter.render(employeeEquipment)
        XCTAssertEqual(rendered, """
            comment         id  name        owner_id  serial_number
            Car             2   John Smith  2         X427A
            Computer        1   Jane Doe    1         88842
            Cordless drill  2   John Smith  2         FFG77
            Mouse           1   Jane Doe    1         123
            Seven           2   John Smith  2         7

            """)
        assertSameTableAsArticle(rendered, articleEmployeeEquipment)
    }

    func testProjectDroppingRemovesTheRedundantKey() throws {
        let employeeEquipment = try employees()
            .equijoin(equipment(), matching: [JoinPair("id", "owner_id")])
            .project(dropping: ["owner_id"])
        let rendered = try TablePrinter.render(employeeEquipment)
        XCTAssertEqual(rendered, expectedEmployeeEquipmentDropped)
        assertSameTableAsArticle(rendered, articleEmployeeEquipmentDropped)
    }

    func testJoinAfterRenameMatchesTheEquijoin() throws {
        let employeeEquipment = try employees().join(equipment().rename(["owner_id": "id"]))
        let rendered = try TablePrinter.render(employeeEquipment)
        XCTAssertEqual(rendered, expectedEmployeeEquipmentDropped)
        // The article's third table is the same as its second.
        assertSameTableAsArticle(rendered, articleEmployeeEquipmentDropped)
    }

    func testSelectedEmployeeJoinAndProject() throws {
        let selectedEmployeeID = try makeRelation("selectedEmployeeID", ["id"], [[1]])
        let selectedEmployee = try selectedEmployeeID.join(employees())
        XCTAssertEqual(try TablePrinter.render(selectedEmployee), "id  name\n1   Jane Doe\n")
        let selectedEmployeeName = try selectedEmployee.project(["name"])
        let rendered = try TablePrinter.render(selectedEmployeeName)
        XCTAssertEqual(rendered, "name\nJane Doe\n")
        assertSameTableAsArticle(rendered, "name    \nJane Doe")
    }

    func testJoinWithNothingInCommonIsACrossProduct() throws {
        let colors = try makeRelation("colors", ["color"], [["red"], ["blue"]])
        let product = try employees().join(colors)
        XCTAssertEqual(try TablePrinter.render(product), """
            color  id  name
            blue   1   Jane Doe
            blue   2   John Smith
            red    1   Jane Doe
            red    2   John Smith

            """)
    }

    func testNullMatchesNullInJoinsAndSelects() throws {
        let documents = try makeRelation("documents", ["id", "parent_id"], [[1, nil], [2, 1], [3, nil]])
        let orphans = try makeRelation("orphans", ["parent_id", "note"], [[nil, "root"]])
        XCTAssertEqual(try TablePrinter.render(documents.join(orphans)), """
            id  note  parent_id
            1   root  null
            3   root  null

            """)
        let roots = try documents.select(Attribute("parent_id") *== nil)
        XCTAssertEqual(try roots.rows().count, 2)
    }
}
