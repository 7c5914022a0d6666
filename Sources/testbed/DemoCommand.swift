import ArgumentParser
import FileSupport
import Relational

/// `testbed demo`: the seeds' worked examples, built as lazy relations and printed as
/// tables. It is the quickest check that the relational core behaves as the articles say.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Print the seed articles' example relations as tables.",
        discussion: """
            Builds the employees/equipment examples of "An Introduction to Relational Algebra \
            Using PLRelational" (seed 001) and the pets example of "PLRelational: Query \
            Optimization and Execution" (seed 000) as lazy relations over memory tables, then \
            prints each one as a titled table. Last comes "PLRelational: Observing Change" (seed \
            001, example `observing-change`): the fruit example's six steps as transactions, each \
            followed by the RowChanges its observers receive, step 6 an update applied to a \
            derived relation and propagated back to the source. Rows are computed by the reference evaluator \
            when printed; columns are sorted by name and rows in the value order.

            Each title is the example's name and its expression in the query language.
            """
    )

    @Flag(name: .long, help: "List the examples' names and expressions without computing them.")
    var list = false

    @Option(name: .long, help: ArgumentHelp(
        "Print only this example (repeatable). See --list for the names.", valueName: "name"))
    var example: [String] = []

    func run() throws {
        let examples: [DemoExample]
        do {
            examples = try DemoExample.all()
        } catch {
            throw usageFailure("demo: could not build the examples: \(error)")
        }
        let known = Set(examples.map(\.name) + [ObservingChangeDemo.name])
        for name in example where !known.contains(name) {
            throw usageFailure("--example: unknown example \(Printable.quoted(name)); known examples: "
                + (examples.map(\.name) + [ObservingChangeDemo.name]).joined(separator: ", "))
        }
        let chosen = example.isEmpty ? examples : examples.filter { example.contains($0.name) }
        let showChanges = example.isEmpty || example.contains(ObservingChangeDemo.name)
        if list {
            let listed = chosen.map { ($0.name, $0.expression) }
                + (showChanges ? [(ObservingChangeDemo.name, ObservingChangeDemo.summary)] : [])
            let width = listed.map(\.0.count).max() ?? 0
            for (name, text) in listed {
                print(name + String(repeating: " ", count: width - name.count) + "  " + text)
            }
            return
        }
        var previousSeed = ""
        for e in chosen {
            if e.seed != previousSeed {
                print("# \(e.seed)\n")
                previousSeed = e.seed
            }
            print("== \(e.name): \(e.expression)")
            print(try TablePrinter.render(e.relation))
        }
        if showChanges {
            do {
                print(try ObservingChangeDemo.render(), terminator: "")
            } catch {
                throw usageFailure("demo: the observing-change example failed: \(error)")
            }
        }
    }
}

/// One titled example: a relation and the query-language text that builds it.
struct DemoExample {
    let seed: String
    let name: String
    let expression: String
    let relation: Relation

    static func all() throws -> [DemoExample] {
        try employeeExamples() + petExamples()
    }

    private static func table(_ name: String, _ columns: [Attribute], _ rows: [[Value]]) throws -> Relation {
        Relation(source: try MemoryTable(name: name, columns: columns, rows: rows))
    }

    /// Seed 001, "An Introduction to Relational Algebra Using PLRelational".
    private static func employeeExamples() throws -> [DemoExample] {
        let seed = "Seed 001: An Introduction to Relational Algebra Using PLRelational"
        let employees = try table("employees", ["name", "id"], [["Jane Doe", 1], ["John Smith", 2]])
        let oldEmployees = try table("oldEmployees", ["id", "name"], [[2, "John Smith"], [1, "Jane Doe"]])
        let newEmployees = try table("newEmployees", ["id", "name"], [[3, "Tim S"], [4, "Susan Johnson"]])
        let frontline = try table("frontlineEmployees", ["id", "name"], [[2, "John Smith"], [4, "Susan Johnson"]])
        let night = try table("nightEmployees", ["id", "name"], [[1, "Jane Doe"], [4, "Susan Johnson"]])
        let equipment = try table("equipment", ["owner_id", "serial_number", "comment"], [
            [1, "88842", "Computer"],
            [1, "123", "Mouse"],
            [2, "X427A", "Car"],
            [2, "FFG77", "Cordless drill"],
            [2, "7", "Seven"],
        ])
        let selectedEmployeeID = try table("selectedEmployeeID", ["id"], [[1]])

        let allEmployees = try oldEmployees.union(newEmployees)
        let management = try allEmployees.difference(frontline)
        let selectedEmployee = try selectedEmployeeID.join(employees)
        func example(_ name: String, _ expression: String, _ relation: Relation) -> DemoExample {
            DemoExample(seed: seed, name: name, expression: expression, relation: relation)
        }
        return [
            example("employees", "employees", employees),
            example("allEmployees", "oldEmployees union newEmployees", allEmployees),
            example("managementEmployees", "allEmployees minus frontlineEmployees", management),
            example("nightManagers", "nightEmployees intersect managementEmployees",
                    try night.intersection(management)),
            example("employeeFour", "allEmployees select (id == 4)",
                    try allEmployees.select(Attribute("id") *== 4)),
            example("earlyEmployees", "allEmployees select (id <= 10)",
                    try allEmployees.select(Attribute("id") *<= 10)),
            example("renamedEmployees", "employees rename [name -> employee_name, id -> employee_id]",
                    try employees.rename(["name": "employee_name", "id": "employee_id"])),
            example("employeeIDs", "employees project [id]", try employees.project(["id"])),
            example("equipment", "equipment", equipment),
            example("employeeEquipment", "employees join [id = owner_id] equipment",
                    try employees.equijoin(equipment, matching: [JoinPair("id", "owner_id")])),
            example("employeeEquipmentDropped",
                    "(employees join [id = owner_id] equipment) project [comment, id, name, serial_number]",
                    try employees.equijoin(equipment, matching: [JoinPair("id", "owner_id")])
                        .project(dropping: ["owner_id"])),
            example("employeeEquipmentJoined", "employees join (equipment rename [owner_id -> id])",
                    try employees.join(equipment.rename(["owner_id": "id"]))),
            example("selectedEmployee", "selectedEmployeeID join employees", selectedEmployee),
            example("selectedEmployeeName", "selectedEmployee project [name]",
                    try selectedEmployee.project(["name"])),
        ]
    }

    /// Seed 000, "PLRelational: Query Optimization and Execution".
    private static func petExamples() throws -> [DemoExample] {
        let seed = "Seed 000: PLRelational: Query Optimization and Execution"
        let pets = try table("pets", ["id", "name", "animal"], [
            [1, "Mickey", "cat"],
            [2, "Fido", "dog"],
            [3, "Nudges", "cat"],
            [4, "Rover", "dog"],
        ])
        let added = try table("added", ["id", "name", "animal"], [[5, "Pointy", "cat"]])
        let removed = try table("removed", ["id", "name", "animal"], [[6, "Nudges", "cat"]])
        let selectedPetIDs = try table("selectedPetIDs", ["id"], [[5]])

        let currentPets = try pets.union(added).difference(removed)
        func example(_ name: String, _ expression: String, _ relation: Relation) -> DemoExample {
            DemoExample(seed: seed, name: name, expression: expression, relation: relation)
        }
        return [
            example("pets", "pets", pets),
            example("cats", "pets select (animal == \"cat\")", try pets.select(Attribute("animal") *== "cat")),
            example("currentPets", "pets union added minus removed", currentPets),
            example("currentCats", "currentPets select (animal == \"cat\")",
                    try currentPets.select(Attribute("animal") *== "cat")),
            example("selectedPets", "selectedPetIDs join currentPets", try selectedPetIDs.join(currentPets)),
        ]
    }
}
