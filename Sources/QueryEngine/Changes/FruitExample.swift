import Relational

/// Seed 001's "Observing Change" example: `fruits` and `selected_fruit_id` as memory tables
/// in a transactional database, the join `selectedFruits` and its projection
/// `selectedFruitName`, and the article's six steps. `testbed demo` prints it; tests check
/// its changes against the article's.
///
/// The article prints `selectedFruits` rows as `[id: …, name: …]`, so here it is the
/// equijoin projected onto the fruit's attributes.
public final class FruitExample {
    public let database: TransactionalDatabase
    public let fruits: Relation
    public let selectedFruitIDs: Relation
    public let selectedFruits: Relation
    public let selectedFruitName: Relation

    /// The observed relations under the article's names, in its order.
    public var observed: [(name: String, relation: Relation)] {
        [("fruits", fruits), ("selectedFruitIDs", selectedFruitIDs),
         ("selectedFruits", selectedFruits), ("selectedFruitName", selectedFruitName)]
    }

    public init(engine: QueryEngine, mode: TransactionalDatabase.Mode = .incremental) throws {
        database = TransactionalDatabase(engine: engine, mode: mode)
        fruits = Relation(source: try MemoryTable(name: "fruit", scheme: Scheme(["id", "name"]), indexedAttributes: ["id"]))
            .named("fruits")
        selectedFruitIDs = Relation(source: try MemoryTable(
            name: "selected_fruit_id", scheme: Scheme(["_id", "fruit_id"]), indexedAttributes: ["fruit_id"]))
            .named("selectedFruitIDs")
        selectedFruits = try fruits.equijoin(selectedFruitIDs, matching: [JoinPair("id", "fruit_id")])
            .project(["id", "name"]).named("selectedFruits")
        selectedFruitName = try selectedFruits.project(["name"]).named("selectedFruitName")
        try database.declareKey(["id"], of: fruits)
        try database.declareKey(["_id"], of: selectedFruitIDs)
        // Reports list changes in observation order, which is `observed`'s order.
        for (_, relation) in observed { try database.observe(relation) { _ in } }
    }

    /// Seed-style text of a step's report: each observed relation's change, framed as the
    /// article's observers print it. Unchanged relations are left out, as in the article.
    public func render(_ report: PropagationReport) -> String {
        var out = ""
        for ((name, relation), change) in zip(observed, report.changes) where !change.isEmpty {
            let rule = String(repeating: "=", count: 28)
            out += "\(rule)\n\(name)\n\(String(repeating: "-", count: 28))\n"
            out += change.rendered(scheme: relation.scheme) + "\n\(rule)\n\n"
        }
        return out
    }

    /// The article's steps: a title and the Swift it shows.
    public static let steps: [(title: String, code: String)] = [
        ("Step 1: Initial Data", """
            fruits.asyncAdd([Fruit.id: 1, Fruit.name: "Apple"])
            fruits.asyncAdd([Fruit.id: 2, Fruit.name: "Apricot"])
            fruits.asyncAdd([Fruit.id: 3, Fruit.name: "Bandana"])
            selectedFruitIDs.asyncAdd([SelectedFruit._id: 0, SelectedFruit.fruitID: 1])
            """),
        ("Step 2: Deletion", "fruits.asyncDelete(Fruit.id *== 2)"),
        ("Step 3: Insertion", "fruits.asyncAdd([Fruit.id: 4, Fruit.name: \"Cheri\"])"),
        ("Step 4: Simple Update", "fruits.asyncUpdate(Fruit.id *== 4, newValues: [Fruit.name: \"Cherry\"])"),
        ("Step 5: Forward-propagating Update", "selectedFruitIDs.asyncUpdate(true, newValues: [SelectedFruit.id: 3])"),
        ("Step 6: Reverse-propagating Update", "selectedFruitName.asyncUpdateString(\"Banana\")"),
    ]

    /// Runs step `number` (1...6) as one transaction and returns its report.
    @discardableResult
    public func run(step number: Int) throws -> PropagationReport {
        let db = database
        return try db.transaction {
            switch number {
            case 1:
                try db.add([["id": 1, "name": "Apple"], ["id": 2, "name": "Apricot"], ["id": 3, "name": "Bandana"]], to: fruits)
                try db.add([["_id": 0, "fruit_id": 1]], to: selectedFruitIDs)
            case 2: try db.delete(from: fruits, where: Attribute("id") *== 2)
            case 3: try db.add([["id": 4, "name": "Cheri"]], to: fruits)
            case 4: try db.update(fruits, where: Attribute("id") *== 4, set: ["name": "Cherry"])
            case 5: try db.update(selectedFruitIDs, set: ["fruit_id": 3])
            case 6: try db.update(selectedFruitName, set: ["name": "Banana"])
            default: throw ChangeError("the fruit example has steps 1 to 6, not \(number)")
            }
        }
    }
}
