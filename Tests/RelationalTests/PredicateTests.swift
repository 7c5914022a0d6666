import XCTest
@testable import Relational

final class PredicateTests: XCTestCase {
    let a = Attribute("a")
    let b = Attribute("b")

    // MARK: attributes and renaming

    func testAttributesReadByAPredicate() {
        XCTAssertEqual((a *== 1).attributes, [a])
        XCTAssertEqual((a *== b *|| !(Attribute("c") *< 3)).attributes, [a, b, "c"])
        XCTAssertEqual(Predicate.comparison(.value(1), .less, .attribute(b)).attributes, [b])
        XCTAssertEqual(Predicate.true.attributes, [])
    }

    func testRenamingAttributes() {
        let p = (a *== 1 *&& b *!= "x") *|| !(a *== b)
        let renamed = p.renamingAttributes([a: "id", b: "name"])
        XCTAssertEqual(renamed, (Attribute("id") *== 1 *&& Attribute("name") *!= "x") *|| !(Attribute("id") *== Attribute("name")))
        XCTAssertEqual(renamed.attributes, ["id", "name"])
        XCTAssertEqual(p.renamingAttributes([a: "z"]).attributes, ["z", b], "unmapped attributes stay")
    }

    // MARK: impliedValueSets

    func testEqualityImpliesOneValue() {
        XCTAssertEqual((a *== 3).impliedValueSets, [a: [3]])
        XCTAssertEqual(Predicate.comparison(.value("x"), .equal, .attribute(a)).impliedValueSets, [a: ["x"]])
        XCTAssertEqual((a *== nil).impliedValueSets, [a: [nil]])
    }

    func testOrOfEqualitiesImpliesTheirUnion() {
        XCTAssertEqual((a *== 1 *|| a *== 2 *|| a *== 2.0).impliedValueSets, [a: [1, 2]])
        // Only attributes constrained in every branch survive.
        let p = (a *== 1 *&& b *== 5) *|| a *== 3
        XCTAssertEqual(p.impliedValueSets, [a: [1, 3]])
        let q = (a *== 1 *&& b *== 5) *|| (b *== 6 *&& a *== 2)
        XCTAssertEqual(q.impliedValueSets, [a: [1, 2], b: [5, 6]])
    }

    func testAndCombinesConstraints() {
        XCTAssertEqual((a *== 1 *&& b *== 2).impliedValueSets, [a: [1], b: [2]])
        XCTAssertEqual((a *== 1 *&& b *> 2).impliedValueSets, [a: [1]])
        XCTAssertEqual(((a *== 1 *|| a *== 2) *&& (a *== 2 *|| a *== 3)).impliedValueSets, [a: [2]])
        // Contradictory equalities: the empty set, so an index fetches nothing.
        XCTAssertEqual((a *== 1 *&& a *== 2).impliedValueSets, [a: []])
    }

    func testPredicatesThatImplyNoValueSet() {
        XCTAssertEqual((a *< 1).impliedValueSets, [:])
        XCTAssertEqual((a *!= 1).impliedValueSets, [:])
        XCTAssertEqual((!(a *== 1)).impliedValueSets, [:])
        XCTAssertEqual((a *== b).impliedValueSets, [:])
        XCTAssertEqual((a *== 1 *|| b *== 2).impliedValueSets, [:])
        XCTAssertEqual((a *== 1 *|| a *> 5).impliedValueSets, [:])
        XCTAssertEqual(Predicate.true.impliedValueSets, [:])
        XCTAssertEqual(Predicate.or([]).impliedValueSets, [:])
    }

    // MARK: building and simplifying

    func testAllAndAnySimplify() {
        XCTAssertEqual(Predicate.all([.true, a *== 1]), a *== 1)
        XCTAssertEqual(Predicate.all([a *== 1, .false]), .false)
        XCTAssertEqual(Predicate.all([]), .true)
        XCTAssertEqual(Predicate.any([.false, a *== 1]), a *== 1)
        XCTAssertEqual(Predicate.any([a *== 1, .true]), .true)
        XCTAssertEqual(Predicate.any([]), .false)
        XCTAssertEqual(a *== 1 *&& b *== 2 *&& a *== 3, .and([a *== 1, b *== 2, a *== 3]), "nested ands flatten")
        XCTAssertTrue(Predicate.or([.false, .and([a *== 1, .false])]).isUnsatisfiable)
        XCTAssertFalse((a *== 1).isUnsatisfiable)
        XCTAssertEqual(((a *== 1 *|| a *== 2) *&& !(b *< 3)).comparisonCount, 3)
    }

    /// Binding attributes to values folds what they decide and keeps the rest; an IN-set keeps
    /// the keys that agree with its bound attributes, over the others.
    func testBindingAttributesFoldsWhatTheyDecide() {
        let c = Attribute("c")
        func keys(_ attributes: [Attribute], _ rows: [[Value]]) -> Predicate {
            .inSet(attributes: attributes, keys: Set(rows.map { Row($0) }))
        }
        let or = Predicate.or([keys([c], [[.text("k12")], [.text("k68")]]), keys([a], [[.text("k12")]])])
        XCTAssertEqual(or.binding([c: .real(4.0)]), keys([a], [[.text("k12")]]))
        XCTAssertEqual(or.binding([c: .text("k68")]), .true)
        XCTAssertEqual((a *> 5 *&& b *== 2).binding([a: .integer(7)]), b *== 2)
        XCTAssertEqual((a *> 5 *&& b *== 2).binding([a: .null]), .false, "null is the least value")
        XCTAssertEqual((a *== 3).binding([a: .real(3.0)]), .true, "3 == 3.0")
        XCTAssertEqual(Predicate.not(a *== 3).binding([a: .integer(3)]), .false)
        XCTAssertEqual(keys([a, b], [[.integer(1), .integer(2)], [.integer(3), .integer(4)]]).binding([a: .integer(3)]),
                       keys([b], [[.integer(4)]]))
        XCTAssertEqual(keys([a, b], [[.integer(1), .integer(2)]]).binding([a: .integer(9)]), .false)
        XCTAssertEqual(.comparison(.attribute(a), .less, .attribute(b)).binding([b: .integer(2)]), a *< 2)
        XCTAssertEqual((a *== 1).binding([b: .integer(2)]), a *== 1, "an attribute not read is ignored")
    }

    /// A conjunction whose equality pins an attribute that another comparison then rejects
    /// (in the total value order: null least, `3 == 3.0`) matches no row; one whose pins
    /// agree with every comparison may match. `isUnsatisfiable` stays structural.
    func testPinnedValuesThatContradictAreSeen() {
        XCTAssertTrue((a *== .null *&& a *> 5).pinnedValuesContradict, "null is the least value")
        XCTAssertTrue((a *== 3 *&& b *< 2 *&& a *== 4).pinnedValuesContradict)
        XCTAssertTrue(Predicate.and([.inSet(attributes: [a], keys: [Row([.integer(7)])]), .and([a *< 7])]).pinnedValuesContradict)
        XCTAssertTrue(Predicate.and([a *== 2, b *== 3, .comparison(.attribute(a), .greater, .attribute(b))]).pinnedValuesContradict)
        XCTAssertFalse((a *== 3 *&& a *== .real(3.0)).pinnedValuesContradict, "3 == 3.0")
        XCTAssertFalse((a *== .null *&& a *< 5).pinnedValuesContradict)
        XCTAssertFalse((a *== "x" *&& a *> 5).pinnedValuesContradict, "text sorts after numbers")
        XCTAssertFalse((a *== 3 *&& b *> 5).pinnedValuesContradict)
        XCTAssertFalse((a *> 3 *&& a *< 2).pinnedValuesContradict, "no pin: ranges are not compared")
        XCTAssertFalse(Predicate.and([.inSet(attributes: [a], keys: [Row([.integer(7)]), Row([.integer(1)])]), a *< 7]).pinnedValuesContradict)
        func keys(_ values: [Value]) -> Predicate { .inSet(attributes: [a], keys: Set(values.map { Row([$0]) })) }
        XCTAssertTrue(Predicate.and([keys([.integer(1), .integer(17)]), keys([.real(0.5), .integer(61)])]).pinnedValuesContradict,
                      "two key sets that share no key")
        XCTAssertTrue(Predicate.and([keys([.integer(1), .integer(17)]), a *== 2]).pinnedValuesContradict)
        XCTAssertFalse(Predicate.and([keys([.integer(1), .integer(17)]), keys([.real(17.0), .integer(61)])]).pinnedValuesContradict,
                       "17 == 17.0")
        XCTAssertFalse(Predicate.and([keys([.integer(1), .integer(17)]), b *== 2]).pinnedValuesContradict)
        XCTAssertFalse((a *== .null *&& a *> 5).isUnsatisfiable, "estimates and scans keep the structural check")
    }

    // MARK: description

    func testDescriptionIsQueryLanguageSyntax() {
        XCTAssertEqual((a *== 3).description, "a == 3")
        XCTAssertEqual((Attribute("name") *== "Jane \"JD\" Doe").description, #"name == "Jane \"JD\" Doe""#)
        XCTAssertEqual((a *>= 2.5 *&& b *!= nil).description, "a >= 2.5 and b != null")
        XCTAssertEqual(((a *== 1 *|| a *== 2) *&& !(b *< 3.0)).description, "(a == 1 or a == 2) and not (b < 3.0)")
        XCTAssertEqual((a *== 1 *|| (a *== 2 *&& b *== Value.blob([0, 255]))).description, "a == 1 or (a == 2 and b == x'00ff')")
        XCTAssertEqual((a *== b).description, "a == b")
        XCTAssertEqual(Predicate.true.description, "true")
        XCTAssertEqual(Predicate.comparison(.value(1), .lessOrEqual, .attribute(a)).description, "1 <= a")
    }

    // MARK: evaluation, nulls included

    func matches(_ p: Predicate, _ row: Row, scheme: [Attribute] = ["a", "b"]) throws -> Bool {
        try CompiledPredicate(p, scheme: Scheme(scheme)).matches(row)
    }

    func testNullComparisonsUseTheTotalOrder() throws {
        XCTAssertTrue(try matches(a *== nil, [nil, 1]))
        XCTAssertFalse(try matches(a *!= nil, [nil, 1]))
        XCTAssertTrue(try matches(a *< 0, [nil, 1]), "null sorts before every number")
        XCTAssertTrue(try matches(a *< .integer(Int64.min), [nil, 1]))
        XCTAssertFalse(try matches(a *>= 0, [nil, 1]))
        XCTAssertTrue(try matches(a *== b, [nil, nil]), "null == null")
        XCTAssertFalse(try matches(a *== b, [nil, 0]))
        XCTAssertTrue(try matches(Predicate.comparison(.value(nil), .equal, .value(nil)), [1, 1]))
        XCTAssertTrue(try matches(Predicate.comparison(.value(nil), .less, .value(0)), [1, 1]))
    }

    func testComparisonsAcrossTypes() throws {
        XCTAssertTrue(try matches(a *== 3.0, [3, nil]))
        XCTAssertTrue(try matches(a *< "", [99, nil]), "numbers sort before text")
        XCTAssertTrue(try matches(a *< Value.blob([]), ["zzz", nil]), "text sorts before blobs")
        XCTAssertTrue(try matches(Predicate.comparison(.value(5), .less, .attribute(a)), [6, nil]), "5 < a")
        XCTAssertFalse(try matches(Predicate.comparison(.value(5), .less, .attribute(a)), [5, nil]))
    }

    func testBooleanStructure() throws {
        let p = (a *== 1 *|| a *== 2) *&& !(b *== "x")
        XCTAssertTrue(try matches(p, [2, "y"]))
        XCTAssertFalse(try matches(p, [2, "x"]))
        XCTAssertFalse(try matches(p, [3, "y"]))
        XCTAssertTrue(try matches(.true, [nil, nil]))
        XCTAssertFalse(try matches(.false, [nil, nil]))
        XCTAssertFalse(try matches(.or([]), [nil, nil]))
        XCTAssertTrue(try matches(.and([]), [nil, nil]))
    }

    // MARK: negationsPushed

    func testNegationsArePushedOntoTheComparisons() {
        XCTAssertNil((a *== 1 *&& b *< 2).negationsPushed, "nothing to push")
        XCTAssertEqual((!(a *!= 1)).negationsPushed, a *== 1)
        XCTAssertEqual((!(a *< 1 *&& b *>= 2)).negationsPushed, .or([a *>= 1, b *< 2]))
        XCTAssertEqual((!(.or([!(a *== 1), .true]))).negationsPushed, .and([a *== 1, .false]))
        let inSet = Predicate.inSet(attributes: [a], keys: [Row([1])])
        XCTAssertEqual((!inSet).negationsPushed, !inSet, "an IN-set keeps its NOT")
        XCTAssertEqual((!(!inSet)).negationsPushed, inSet)
    }

    /// The pushed form holds on exactly the rows the original does, nulls and mixed types included.
    func testPushedNegationsMatchTheSameRows() throws {
        let values: [Value] = [nil, 0, 1, .real(1.0), 2, "x"]
        let aBelowB = Predicate.comparison(.attribute(a), .less, .attribute(b))
        let aAtLeastB = Predicate.comparison(.attribute(a), .greaterOrEqual, .attribute(b))
        let predicates: [Predicate] = [!(a *!= 1), !(aBelowB *|| b *== nil), !(!(a *<= 1) *&& b *> "a"), !aAtLeastB,
                                       !(.inSet(attributes: [b], keys: [Row([1])]) *&& a *> 0)]
        for p in predicates {
            let pushed = try XCTUnwrap(p.negationsPushed)
            for x in values {
                for y in values {
                    XCTAssertEqual(try matches(p, [x, y]), try matches(pushed, [x, y]), "\(p) on \(x), \(y)")
                }
            }
        }
    }

    // MARK: comparedAttributesContradict

    func testAttributesComparedBothWaysContradict() {
        func compare(_ x: Attribute, _ op: ComparisonOperator, _ y: Attribute) -> Predicate {
            .comparison(.attribute(x), op, .attribute(y))
        }
        XCTAssertTrue(Predicate.and([compare(a, .less, b), compare(a, .greater, b)]).comparedAttributesContradict)
        XCTAssertTrue(Predicate.and([compare(a, .less, b), .and([a *< 5, compare(b, .less, a)])]).comparedAttributesContradict,
                      "nested, and written the other way round")
        XCTAssertTrue(Predicate.and([compare(a, .lessOrEqual, b), compare(a, .greaterOrEqual, b), compare(a, .notEqual, b)])
            .comparedAttributesContradict)
        XCTAssertTrue(Predicate.and([compare(a, .notEqual, a), b *== 1]).comparedAttributesContradict, "a value equals itself")
        XCTAssertFalse(Predicate.and([compare(a, .lessOrEqual, b), compare(a, .greaterOrEqual, b)]).comparedAttributesContradict,
                       "a == b passes both")
        XCTAssertFalse(Predicate.and([compare(a, .less, b), compare(a, .greater, "c")]).comparedAttributesContradict)
        XCTAssertFalse(Predicate.or([compare(a, .less, b), compare(a, .greater, b)]).comparedAttributesContradict)
        XCTAssertTrue(Predicate.and([compare(a, .less, b), compare(b, .less, a)]).conjunctsContradict)
    }

    /// Checked on rows: no pair of values, nulls and mixed types included, passes a
    /// contradicting conjunction (the total order has exactly one outcome for each pair).
    func testContradictingComparisonsMatchNoRow() throws {
        let values: [Value] = [nil, 0, 1, .real(1.0), 2, "x", "y"]
        for first in ComparisonOperator.allCases {
            for second in ComparisonOperator.allCases {
                let p = Predicate.and([.comparison(.attribute(a), first, .attribute(b)),
                                       .comparison(.attribute(b), second, .attribute(a))])
                guard p.comparedAttributesContradict else { continue }
                for x in values {
                    for y in values { XCTAssertFalse(try matches(p, [x, y]), "\(p) on \(x), \(y)") }
                }
            }
        }
    }
}

extension PredicateTests {
    /// `flattened` is the form the query language's parser builds: and/or chains rebuilt with
    /// `all`/`any` at every depth; a `not` and the leaves stay as they are.
    func testFlattenedFoldsConstantsAndNestingAtEveryDepth() {
        let p = a *== 1, q = b *< 2
        XCTAssertEqual(Predicate.and([.false, .and([p, q])]).flattened, .false)
        XCTAssertEqual(Predicate.and([p, .and([q, .true])]).flattened, .and([p, q]))
        XCTAssertEqual(Predicate.or([.or([p, .false]), .and([.true, q])]).flattened, .or([p, q]))
        XCTAssertEqual(Predicate.not(.and([.true, .or([.true, p])])).flattened, .not(.true))
        XCTAssertEqual(Predicate.not(.false).flattened, .not(.false), "a `not` is not folded, as the parser leaves it")
        XCTAssertEqual(Predicate.and([p, .or([q, p])]).flattened, .and([p, .or([q, p])]))
    }
}

extension PredicateTests {
    /// A NOT over a comparison is the opposite comparison: `a == null and not (a < 0)` pins
    /// `a` to null, which `a >= 0` rejects (null is the least value).
    func testPinnedValuesSeeThroughNegations() {
        XCTAssertTrue(Predicate.and([a *== nil, .not(a *< 0)]).pinnedValuesContradict)
        XCTAssertTrue(Predicate.and([b *< 66, .and([a *== 3]), .not(.or([a *< 5, b *== 1]))]).pinnedValuesContradict)
        XCTAssertFalse(Predicate.and([a *== nil, .not(a *> 0)]).pinnedValuesContradict, "null <= 0 holds")
        XCTAssertFalse(Predicate.not(.and([a *== 1, a *== 2])).pinnedValuesContradict, "not a conjunction")
    }
}
