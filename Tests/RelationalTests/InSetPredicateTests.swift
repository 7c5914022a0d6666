import XCTest
@testable import Relational

/// The IN-set predicate means exactly the OR of its keys' equalities, with the documented
/// value semantics, and every analysis treats it as that OR would be treated.
final class InSetPredicateTests: XCTestCase {
    let scheme = Scheme(uniqueSorted: ["a", "b", "c"])

    private func keys(_ values: [[Value]]) -> Set<Row> { Set(values.map(Row.init)) }

    func testValueSemantics() throws {
        let single = try CompiledPredicate(.inSet(attributes: ["a"], keys: keys([[.null], [3], ["\u{e9}"]])), scheme: scheme)
        XCTAssertTrue(single.matches(Row([.null, 0, 0])), "null is an ordinary value")
        XCTAssertTrue(single.matches(Row([3.0, 0, 0])), "3 == 3.0")
        XCTAssertTrue(single.matches(Row(["\u{e9}", 0, 0])))
        XCTAssertFalse(single.matches(Row(["e\u{301}", 0, 0])), "text compares by bytes")
        XCTAssertFalse(single.matches(Row([.blob([3]), 0, 0])))
        let pair = try CompiledPredicate(.inSet(attributes: ["c", "a"], keys: keys([[1, .null], [2.0, "x"]])), scheme: scheme)
        XCTAssertTrue(pair.matches(Row([.null, 9, 1.0])))
        XCTAssertTrue(pair.matches(Row(["x", 9, 2])))
        XCTAssertFalse(pair.matches(Row(["x", 9, 1])), "attributes pair up in the order given")
        XCTAssertFalse(try CompiledPredicate(.inSet(attributes: ["a"], keys: []), scheme: scheme).matches(Row([1, 2, 3])))
        XCTAssertThrowsError(try CompiledPredicate(.inSet(attributes: ["z"], keys: keys([[1]])), scheme: scheme))
        XCTAssertThrowsError(try CompiledPredicate(.inSet(attributes: ["a"], keys: keys([[1, 2]])), scheme: scheme))
    }

    func testMatchesExactlyLikeItsOrOfEqualities() throws {
        var random = Seeded(state: 7)
        let pool: [Value] = [.null, 0, 1, 1.0, 2.5, -1, "1", "a", .blob([1])]
        func value() -> Value { pool[Int.random(in: 0..<pool.count, using: &random)] }
        for _ in 0..<200 {
            let attributes: [Attribute] = [["a"], ["b", "a"], ["c", "b", "a"]][Int.random(in: 0..<3, using: &random)]
            let set = Set((0..<Int.random(in: 0...5, using: &random)).map { _ in Row(attributes.map { _ in value() }) })
            let p = Predicate.inSet(attributes: attributes, keys: set)
            let fast = try CompiledPredicate(p, scheme: scheme)
            let slow = try CompiledPredicate(p.expandingInSets, scheme: scheme)
            for _ in 0..<20 {
                let row = Row([value(), value(), value()])
                XCTAssertEqual(fast.matches(row), slow.matches(row), "\(p) on \(row)")
            }
        }
    }

    func testAnalysesTreatItAsItsOr() {
        let p = Predicate.inSet(attributes: ["a", "b"], keys: keys([[1, "x"], [2, "y"], [1, "z"]]))
        XCTAssertEqual(p.attributes, ["a", "b"])
        XCTAssertEqual(p.impliedValueSets, p.expandingInSets.impliedValueSets)
        XCTAssertEqual(p.impliedValueSets, ["a": [1, 2], "b": ["x", "y", "z"]])
        XCTAssertEqual(p.renamingAttributes(["a": "id"]), .inSet(attributes: ["id", "b"], keys: keys([[1, "x"], [2, "y"], [1, "z"]])))
        XCTAssertTrue(Predicate.inSet(attributes: ["a"], keys: []).isUnsatisfiable)
        XCTAssertFalse(p.isUnsatisfiable)
        XCTAssertEqual(Predicate.all([p, "a" *== 2]).impliedValueSets["a"], [2])
    }

    func testDescriptionIsReadableAndBounded() {
        XCTAssertEqual(Predicate.inSet(attributes: ["id"], keys: keys([[3]])).description, "id == 3")
        XCTAssertEqual(Predicate.inSet(attributes: ["id"], keys: keys([[3], [.null], [1]])).description, "id in {null, 1, 3}")
        XCTAssertEqual(Predicate.inSet(attributes: ["a", "b"], keys: keys([[1, "x"], [2, "y"]])).description,
                       "(a, b) in {(1, \"x\"), (2, \"y\")}")
        let big = Predicate.inSet(attributes: ["id"], keys: keys((1...1000).map { [.integer(Int64($0))] }))
        XCTAssertEqual(big.description, "id in {1, 2, 3, 4, 5, 6, 7, 8, … 992 more}")
    }
}

/// SplitMix64, so the property test is the same on every run.
private struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The oracle evaluates an IN-set select as its OR of equalities.
final class InSetReferenceTests: XCTestCase {
    func testTheReferenceEvaluatorAgreesWithTheOrForm() throws {
        let table = try MemoryTable(name: "t", columns: ["a", "b"], rows: [[1, "x"], [1.0, "y"], [.null, "x"], [2, .null]])
        let keys: Set<Row> = [Row([1, "x"]), Row([.null, "x"]), Row([2, .null])]
        let set = try Relation(source: table).select(.inSet(attributes: ["a", "b"], keys: keys))
        let or = try Relation(source: table).select(Predicate.inSet(attributes: ["a", "b"], keys: keys).expandingInSets)
        XCTAssertEqual(Set(try ReferenceEvaluator.evaluate(set)), Set(try ReferenceEvaluator.evaluate(or)))
        XCTAssertEqual(Set(try ReferenceEvaluator.evaluate(set)), [Row([1, "x"]), Row([.null, "x"]), Row([2, .null])])
    }
}
