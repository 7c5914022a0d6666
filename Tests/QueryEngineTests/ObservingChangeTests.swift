import QueryEngine
import Relational
import XCTest

/// Seed 001's "Observing Change" article, step by step, with its exact RowChanges.
final class FruitExampleTests: XCTestCase {
    private func rows(_ values: [[Value]]) -> Set<Row> { Set(values.map(Row.init)) }

    /// Changes of fruits, selectedFruitIDs, selectedFruits, selectedFruitName after a step.
    private func expected(_ step: Int) -> [RowChange] {
        switch step {
        case 1:
            return [RowChange(added: rows([[1, "Apple"], [2, "Apricot"], [3, "Bandana"]])),
                    RowChange(added: rows([[0, 1]])), RowChange(added: rows([[1, "Apple"]])),
                    RowChange(added: rows([["Apple"]]))]
        case 2: return [RowChange(removed: rows([[2, "Apricot"]])), .empty, .empty, .empty]
        case 3: return [RowChange(added: rows([[4, "Cheri"]])), .empty, .empty, .empty]
        case 4: return [RowChange(added: rows([[4, "Cherry"]]), removed: rows([[4, "Cheri"]])), .empty, .empty, .empty]
        case 5:
            return [.empty, RowChange(added: rows([[0, 3]]), removed: rows([[0, 1]])),
                    RowChange(added: rows([[3, "Bandana"]]), removed: rows([[1, "Apple"]])),
                    RowChange(added: rows([["Bandana"]]), removed: rows([["Apple"]]))]
        default:
            return [RowChange(added: rows([[3, "Banana"]]), removed: rows([[3, "Bandana"]])), .empty,
                    RowChange(added: rows([[3, "Banana"]]), removed: rows([[3, "Bandana"]])),
                    RowChange(added: rows([["Banana"]]), removed: rows([["Bandana"]]))]
        }
    }

    func testEveryStepDeliversTheArticlesChangesUnderEveryPresetAndMode() throws {
        for preset in ["all-on", "all-off"] {
            for mode in TransactionalDatabase.Mode.allCases {
                let example = try FruitExample(engine: try QueryEngine(preset: preset), mode: mode)
                for step in 1...6 {
                    let report = try example.run(step: step)
                    XCTAssertEqual(report.changes, expected(step), "step \(step), \(preset), \(mode)")
                }
                XCTAssertEqual(Set(try example.fruits.rows()), rows([[1, "Apple"], [3, "Banana"], [4, "Cherry"]]))
            }
        }
    }

    func testStepOnePrintsAsTheArticleDoes() throws {
        let example = try FruitExample(engine: try QueryEngine(preset: "all-on"))
        let text = example.render(try example.run(step: 1))
        XCTAssertTrue(text.contains("""
            fruits
            ----------------------------
            Added
            [id: 1, name: Apple]
            [id: 2, name: Apricot]
            [id: 3, name: Bandana]
            """), text)
        XCTAssertTrue(text.contains("selectedFruitIDs\n----------------------------\nAdded\n[_id: 0, fruit_id: 1]"), text)
        XCTAssertTrue(text.contains("selectedFruits\n----------------------------\nAdded\n[id: 1, name: Apple]"), text)
    }

    /// Observers hear about changed relations only, once per transaction.
    func testObserversAreCalledOncePerTransactionWithNonEmptyChanges() throws {
        let example = try FruitExample(engine: try QueryEngine(preset: "all-on"))
        var calls: [RowChange] = []
        try example.database.observe(example.selectedFruits) { calls.append($0) }
        try example.run(step: 1)
        try example.run(step: 2)
        try example.run(step: 5)
        XCTAssertEqual(calls, [expected(1)[2], expected(5)[2]])
    }
}

/// Transactions: grouping, rollback, refusals that change nothing.
final class ChangeTransactionTests: XCTestCase {
    private func setUpFruit() throws -> FruitExample {
        let example = try FruitExample(engine: try QueryEngine(preset: "all-on"))
        try example.run(step: 1)
        return example
    }

    private func snapshot(_ e: FruitExample) throws -> [Set<Row>] {
        [Set(try e.fruits.rows()), Set(try e.selectedFruitIDs.rows())]
    }

    func testAFailedStatementLeavesEverySourceAsItWasAndNotifiesNobody() throws {
        let e = try setUpFruit()
        let before = try snapshot(e)
        var heard = 0
        try e.database.observe(e.fruits) { _ in heard += 1 }
        XCTAssertThrowsError(try e.database.transaction {
            try e.database.add([["id": 9, "name": "Fig"]], to: e.fruits)
            try e.database.delete(from: e.selectedFruitIDs)
            try e.database.add([["id": 1, "name": "Another apple"]], to: e.fruits)  // key id clash
        }) { error in
            XCTAssertTrue("\(error)".contains("same key [id]"), "\(error)")
        }
        XCTAssertEqual(try snapshot(e), before)
        XCTAssertEqual(heard, 0)
        XCTAssertFalse(e.database.inTransaction)
    }

    func testRefusedChanges() throws {
        let e = try setUpFruit()
        let before = try snapshot(e)
        let db = e.database
        // A row that does not fit the scheme.
        XCTAssertThrowsError(try db.add([["id": 5]], to: e.fruits)) { XCTAssertTrue("\($0)".contains("[id, name]"), "\($0)") }
        XCTAssertThrowsError(try db.add(rows: [Row([5])], to: e.fruits)) { XCTAssertTrue("\($0)".contains("1 value"), "\($0)") }
        // An update that would merge rows.
        XCTAssertThrowsError(try db.update(e.fruits, set: ["id": 7, "name": "Same"])) {
            XCTAssertTrue("\($0)".contains("merge"), "\($0)")
        }
        XCTAssertThrowsError(try db.update(e.fruits, where: Attribute("id") *== 2, set: ["id": 1, "name": "Apple"])) {
            XCTAssertTrue("\($0)".contains("merge"), "\($0)")
        }
        // An unknown attribute.
        XCTAssertThrowsError(try db.update(e.fruits, set: ["colour": "red"])) { XCTAssertTrue("\($0)".contains("colour"), "\($0)") }
        XCTAssertEqual(try snapshot(e), before)
    }

    /// A declared key compares with `==`, so two null keys clash like any equal keys; a null
    /// key next to non-null ones is fine, and so is re-adding the very same row.
    func testNullsInDeclaredKeys() throws {
        let db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
        let t = Relation(source: try MemoryTable(name: "t", scheme: Scheme(["k", "v"]), indexedAttributes: ["k"]))
        try db.declareKey(["k"], of: t)
        try db.add(rows: [Row([.null, 1]), Row([1, 1])], to: t)
        try db.add(rows: [Row([.null, 1])], to: t)
        XCTAssertThrowsError(try db.add(rows: [Row([.null, 2])], to: t)) {
            XCTAssertTrue("\($0)".contains("[k: null, v: 1] and [k: null, v: 2]"), "\($0)")
        }
        XCTAssertThrowsError(try db.update(t, where: Attribute("k") *== 1, set: ["k": .null]))
        try db.update(t, where: Attribute("k") *== .null, set: ["k": 2])
        XCTAssertEqual(Set(try t.rows()), [Row([1, 1]), Row([2, 1])])
    }

    func testExplicitRollbackAndCoalescedChanges() throws {
        let e = try setUpFruit()
        let db = e.database
        let before = try snapshot(e)
        try db.begin()
        try db.add([["id": 8, "name": "Date"]], to: e.fruits)
        try db.rollback()
        XCTAssertEqual(try snapshot(e), before)
        // Added then updated then deleted in one transaction: no net change at all.
        try db.begin()
        try db.add([["id": 8, "name": "Date"]], to: e.fruits)
        try db.update(e.fruits, where: Attribute("id") *== 8, set: ["name": "Dates"])
        try db.delete(from: e.fruits, where: Attribute("id") *== 8)
        try db.update(e.fruits, where: Attribute("id") *== 2, set: ["name": "Apricots"])
        let report = try db.commit()
        XCTAssertEqual(report.changes[0], RowChange(added: [Row([2, "Apricots"])], removed: [Row([2, "Apricot"])]))
        XCTAssertEqual(report.sourceRowsChanged, 2)
    }
}

/// Updates and deletes on derived relations reach exactly the intended source rows, or
/// are refused naming the operator, changing nothing.
final class ReversePropagationTests: XCTestCase {
    struct World {
        let db: TransactionalDatabase
        let people: Relation
        let pets: Relation
        init() throws {
            db = TransactionalDatabase(engine: try QueryEngine(preset: "all-on"))
            people = Relation(source: try MemoryTable(name: "people", columns: ["pid", "name", "city"],
                rows: [[1, "Ann", "Oslo"], [2, "Bob", "Rome"], [3, "Cy", "Oslo"]], indexedAttributes: ["pid"]))
            pets = Relation(source: try MemoryTable(name: "pets", columns: ["owner", "pet"],
                rows: [[1, "cat"], [2, "dog"], [2, "eel"]], indexedAttributes: ["owner"]))
        }
        var state: [Set<Row>] { get throws { [Set(try people.rows()), Set(try pets.rows())] } }
    }

    func testSelectRenameProjectAndJoinReachTheirSourceRows() throws {
        let w = try World()
        let oslo = try w.people.select(Attribute("city") *== "Oslo").rename(["name": "who"])
        try w.db.update(oslo, where: Attribute("pid") *== 3, set: ["who": "Cyd"])
        XCTAssertEqual(try w.state[0], Set([Row(["Oslo", "Ann", 1]), Row(["Rome", "Bob", 2]), Row(["Oslo", "Cyd", 3])]))

        let owners = try w.people.equijoin(w.pets, matching: [JoinPair("pid", "owner")])
        try w.db.update(owners, where: Attribute("pet") *== "cat", set: ["name": "Anna", "pet": "lynx"])
        XCTAssertTrue(try w.state[0].contains(Row(["Oslo", "Anna", 1])))
        XCTAssertTrue(try w.state[1].contains(Row([1, "lynx"])))
        XCTAssertEqual(try w.state[1].count, 3)

        let names = try w.people.project(["pid", "name"])
        try w.db.delete(from: names, where: Attribute("name") *== "Bob")
        XCTAssertEqual(try w.state[0].count, 2)
    }

    func testAmbiguousChangesAreRefusedNamingTheOperator() throws {
        let w = try World()
        let before = try w.state
        let cities = try w.people.project(["city"])
        let union = try w.people.project(["pid"]).union(w.pets.project(["owner"]).rename(["owner": "pid"]))
        let owners = try w.people.equijoin(w.pets, matching: [JoinPair("pid", "owner")])
        let cases: [(String, () throws -> Void)] = [
            ("through project", { try w.db.update(cities, where: Attribute("city") *== "Oslo", set: ["city": "Bergen"]) }),
            ("through union", { try w.db.delete(from: union, where: Attribute("pid") *== 2) }),
            ("through join", { try w.db.update(owners, set: ["owner": 5]) }),
            ("through join", { try w.db.delete(from: owners) }),
        ]
        for (fragment, change) in cases {
            XCTAssertThrowsError(try change()) { XCTAssertTrue("\($0)".contains(fragment), "\($0)") }
            XCTAssertEqual(try w.state, before, fragment)
        }
        // A projection whose row has one source row is fine.
        try w.db.update(cities, where: Attribute("city") *== "Rome", set: ["city": "Milan"])
        XCTAssertTrue(try w.state[0].contains(Row(["Milan", "Bob", 2])))
    }

    /// An intersection of two selections of one table reaches each source row through both
    /// operands, and a self-join reaches a row that is both a child and a parent through both
    /// sides: the writes are merged, so the row is updated once (it used to be updated through
    /// the first operand and then refused as "not there" through the second).
    func testARowReachedThroughBothOperandsIsUpdatedOnce() throws {
        let w = try World()
        let oslo = try w.people.select(Attribute("city") *== "Oslo")
        let low = try w.people.select(Attribute("pid") *<= 1)
        let both = try oslo.intersection(low)
        var heard: [RowChange] = []
        try w.db.observe(both) { heard.append($0) }
        try w.db.update(both, set: ["name": "Annie"])
        XCTAssertEqual(try w.state[0], Set([Row(["Oslo", "Annie", 1]), Row(["Rome", "Bob", 2]), Row(["Oslo", "Cy", 3])]))
        XCTAssertEqual(heard, [RowChange(added: [Row(["Oslo", "Annie", 1])], removed: [Row(["Oslo", "Ann", 1])])])

        // pid 2's parent is 1 and pid 3's parent is 2: row 2 is on both sides of the join.
        let tree = Relation(source: try MemoryTable(name: "tree", columns: ["id", "name", "up"],
            rows: [[1, "a", Value.null], [2, "b", 1], [3, "c", 2]], indexedAttributes: ["id"]))
        let parents = try tree.rename(["id": "pid", "name": "pname", "up": "pup"])
        let pairs = try tree.equijoin(parents, matching: [JoinPair("up", "pid")])
        try w.db.update(pairs, set: ["name": "same", "pname": "same"])
        XCTAssertEqual(Set(try tree.rows()), Set([Row([1, "same", Value.null]), Row([2, "same", 1]), Row([3, "same", 2])]))
        // Two different values for one row's attribute are refused, changing nothing.
        let before = Set(try tree.rows())
        XCTAssertThrowsError(try w.db.update(pairs, set: ["name": "child", "pname": "parent"])) {
            XCTAssertTrue("\($0)".contains("would set 'name' of the row [id: 2, name: same, up: 1] to both"), "\($0)")
        }
        XCTAssertEqual(Set(try tree.rows()), before)
    }
}
