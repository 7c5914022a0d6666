import XCTest
@testable import Relational

/// SplitMix64, so the random streams are the same on every run.
private struct StreamRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Values of every class, with ties across classes (3 and 3.0) and nulls.
private let valuePool: [Value] = [
    .null, 1, 2, 3, 3.0, 2.5, -1, "", "a", "b", "3", .blob([0]), .blob([]),
]

/// The expected order, written independently of `RowOrdering`: the key values compared one
/// by one with `Value.compare`, then the whole rows with `Row.<`.
private func expectedSorted(_ rows: Set<Row>, keys: [Int]) -> [Row] {
    rows.sorted { a, b in
        let ka = keys.map { a.values[$0] }, kb = keys.map { b.values[$0] }
        if let c = zip(ka, kb).map({ Value.compare($0, $1) }).first(where: { $0 != 0 }) { return c < 0 }
        return a < b
    }
}

final class OrderStatisticsListTests: XCTestCase {
    func testRandomOperationsAgreeWithASortedArray() {
        var random = StreamRandom(state: 17)
        var list = OrderStatisticsList<Int>([], less: <)
        var reference: [Int] = []
        for _ in 0..<6000 {
            let x = Int.random(in: 0..<3000, using: &random)
            if Bool.random(using: &random) || reference.count < 50 {
                let expected = reference.firstIndex { $0 >= x } ?? reference.count
                let present = expected < reference.count && reference[expected] == x
                XCTAssertEqual(list.insert(x), present ? nil : expected)
                if !present { reference.insert(x, at: expected) }
            } else {
                let expected = reference.firstIndex(of: x)
                XCTAssertEqual(list.remove(x), expected)
                if let expected { reference.remove(at: expected) }
            }
            XCTAssertEqual(list.count, reference.count)
        }
        XCTAssertGreaterThan(reference.count, OrderStatisticsList<Int>.chunkCapacity * 2, "several chunks were exercised")
        XCTAssertEqual(list.elements, reference)
        for (i, x) in reference.enumerated() where i % 7 == 0 {
            XCTAssertEqual(list[i], x)
            XCTAssertEqual(list.rank(of: x), i)
        }
        XCTAssertNil(list.rank(of: -5))
        XCTAssertNil(list.rank(of: 99999))
    }

    func testDuplicatesInTheInitialElementsAreKeptOnce() {
        let list = OrderStatisticsList([5, 1, 5, 3, 1], less: <)
        XCTAssertEqual(list.elements, [1, 3, 5])
        XCTAssertEqual(list.count, 3)
    }
}

final class OrderedViewTests: XCTestCase {
    private func scheme(_ names: [Attribute]) throws -> Scheme { try Scheme(names) }

    /// Random relations and random transactions (several rows each, updates as remove plus
    /// add): after every transaction, the reported index changes applied to the old array
    /// give exactly the new sorted array, for the maintained view and for regenerate-and-diff.
    func testIndexChangesRebuildTheNewSortedArrayOnRandomStreams() throws {
        var random = StreamRandom(state: 4711)
        var movesSeen = 0
        for trial in 0..<60 {
            let width = Int.random(in: 1...3, using: &random)
            let attributes = (0..<width).map { Attribute(stringLiteral: "a\($0)") }
            let keyCount = Int.random(in: 1...width, using: &random)
            let keys = Array(attributes.shuffled(using: &random).prefix(keyCount))
            let scheme = try scheme(attributes)
            func randomRow() -> Row { Row((0..<width).map { _ in valuePool.randomElement(using: &random) ?? .null }) }
            var contents = Set((0..<Int.random(in: 0...40, using: &random)).map { _ in randomRow() })
            var view = try OrderedView(scheme: scheme, orderedBy: keys, rows: contents)
            let keyPositions = keys.compactMap { scheme.index(of: $0) }
            var array = expectedSorted(contents, keys: keyPositions)
            XCTAssertEqual(view.rows, array, "initial order, trial \(trial)")
            for step in 0..<25 {
                var removed = Set<Row>()
                var added = Set<Row>()
                for row in contents where Int.random(in: 0..<8, using: &random) == 0 { removed.insert(row) }
                // Updates: a removed row comes back with one attribute changed.
                for row in removed where Bool.random(using: &random) {
                    var values = row.values
                    values[Int.random(in: 0..<width, using: &random)] = valuePool.randomElement(using: &random) ?? .null
                    added.insert(Row(values))
                }
                for _ in 0..<Int.random(in: 0...3, using: &random) { added.insert(randomRow()) }
                let after = contents.subtracting(removed).union(added)
                let change = RowChange.between(before: contents, after: after)
                let indexed = try view.apply(change)
                let newArray = expectedSorted(after, keys: keyPositions)
                XCTAssertEqual(indexed.applied(to: array), newArray, "trial \(trial) step \(step)")
                XCTAssertEqual(view.rows, newArray)
                let regenerated = RegenerateAndDiff.diff(old: array, newContents: after, ordering: view.ordering)
                XCTAssertEqual(regenerated.rows, newArray)
                XCTAssertEqual(regenerated.change, indexed, "both routes report the same index changes")
                movesSeen += indexed.moves.count
                contents = after
                array = newArray
            }
        }
        XCTAssertGreaterThan(movesSeen, 0, "the streams contained sort-key changes")
    }

    /// A renamed document moves: one move from its old index to its new one, nothing else.
    func testARenameIsAMove() throws {
        let rows: Set<Row> = [Row([1, "Apple"]), Row([2, "Banana"]), Row([3, "Cherry"]), Row([4, "Date"])]
        var view = try OrderedView(scheme: try scheme(["id", "name"]), orderedBy: ["name"], rows: rows)
        let change = try view.apply(RowChange(added: [Row([1, "Elderberry"])], removed: [Row([1, "Apple"])]))
        XCTAssertEqual(change, OrderedChange(moves: [.init(from: 0, to: 3, old: Row([1, "Apple"]), new: Row([1, "Elderberry"]))]))
        XCTAssertEqual(change.rendered(scheme: try scheme(["id", "name"])),
                       "move 0 -> 3: [id: 1, name: Apple] -> [id: 1, name: Elderberry]")
        let insertion = try view.apply(RowChange(added: [Row([5, "Banana"])]))
        XCTAssertEqual(insertion, OrderedChange(insertions: [.init(index: 1, row: Row([5, "Banana"]))]),
                       "ties on the sort key are broken by the whole row: [2, Banana] < [5, Banana]")
    }

    func testAnInexactChangeIsRefusedAndChangesNothing() throws {
        var view = try OrderedView(scheme: try scheme(["id"]), orderedBy: ["id"], rows: [Row([1]), Row([2])])
        XCTAssertThrowsError(try view.apply(RowChange(added: [Row([3])], removed: [Row([9])]))) { error in
            XCTAssertEqual("\(error)", "a removed row is not in the view: [id: 9]")
        }
        XCTAssertThrowsError(try view.apply(RowChange(added: [Row([2])])))
        XCTAssertEqual(view.rows, [Row([1]), Row([2])])
    }

    func testUnknownOrRepeatedAttributesAreNamed() throws {
        let s = try scheme(["id", "name"])
        XCTAssertThrowsError(try OrderedView(scheme: s, orderedBy: ["title"], rows: [])) { error in
            XCTAssertEqual("\(error)", "'title' is not an attribute of \(s)")
        }
        XCTAssertThrowsError(try OrderedView(scheme: s, orderedBy: ["id", "id"], rows: [])) { error in
            XCTAssertEqual("\(error)", "'id' is named twice")
        }
    }
}
