import XCTest
@testable import Relational

/// The column storage behind `MemoryTable`: mixed types, nulls, `3 == 3.0` in membership
/// and index lookups, interned text, blobs, deletes then re-adds, bulk loads and the
/// column-batch cursor.
final class MemoryTableColumnTests: XCTestCase {
    func table(indexed: [Attribute] = ["k", "v"]) throws -> MemoryTable {
        try MemoryTable(name: "t", scheme: Scheme(["k", "v"]), indexedAttributes: indexed)
    }

    func testAMixedColumnKeepsEveryValueExactlyWithItsClass() throws {
        let t = try table()
        let values: [Value] = [nil, 1, 2.5, "a", .blob([1, 2]), 3.0, -0.0, .integer(.max), .real(.nan), "", .blob([])]
        for (i, v) in values.enumerated() { XCTAssertTrue(try t.add([.integer(Int64(i)), v])) }
        let stored = t.allRows.sorted { $0[0] < $1[0] }.map { $0[1] }
        XCTAssertEqual(stored.map(\.typeName), values.map(\.typeName))
        XCTAssertEqual(stored[5], 3.0)
        if case let .real(d) = stored[6] { XCTAssertEqual(d.sign, .minus, "-0.0 keeps its sign") } else { XCTFail() }
        if case let .real(d) = stored[8] { XCTAssertTrue(d.isNaN) } else { XCTFail() }
        XCTAssertEqual(stored[4], .blob([1, 2]))
        XCTAssertEqual(stored[7], .integer(.max))
        let column = t.columns.columns[1]
        XCTAssertFalse(column.isIntegerOnly)
        XCTAssertTrue(t.columns.columns[0].isIntegerOnly)
    }

    func testThreeAndThreePointZeroAreOneRowEitherWayRound() throws {
        let t = try table()
        XCTAssertTrue(try t.add([1, 3]))
        XCTAssertFalse(try t.add([1, 3.0]))
        XCTAssertTrue(try t.add([2, 3.0]))
        XCTAssertFalse(try t.add([2.0, 3]))
        XCTAssertEqual(t.count, 2)
        XCTAssertEqual(t.allRows.first { $0[0] == 2 }?[1].typeName, "real", "the first-added form is kept")
        // -0.0 and 0 are equal; NaN equals NaN and nothing else.
        XCTAssertTrue(try t.add([0, 0]))
        XCTAssertFalse(try t.add([0, -0.0]))
        XCTAssertTrue(try t.add([5, .real(.nan)]))
        XCTAssertFalse(try t.add([5, .real(-.nan)]))
        // Integers beyond 2^53 stay exact: 2^53 + 1 is not the real 2^53.
        XCTAssertTrue(try t.add([6, .integer(9_007_199_254_740_993)]))
        XCTAssertTrue(try t.add([6, .real(9_007_199_254_740_992)]))
        XCTAssertTrue(try t.add([6, .real(9_223_372_036_854_775_808.0)]), "2^63 is no Int64")
        XCTAssertEqual(t.count, 7)
    }

    func testIndexLookupsFindEqualNumbersOfEitherClass() throws {
        let t = try table()
        try t.add([1, 3.0])
        try t.add([2, 3])
        try t.add([3, 4.5])
        try t.add([4, .real(.nan)])
        try t.add([5, -0.0])
        XCTAssertEqual(Set(try t.lookup("v", 3)), [[1, 3.0], [2, 3]])
        XCTAssertEqual(Set(try t.lookup("v", 3.0)), [[1, 3.0], [2, 3]])
        XCTAssertEqual(try t.lookup("v", 4.5), [[3, 4.5]])
        XCTAssertEqual(try t.lookup("v", 4), [])
        XCTAssertEqual(try t.lookup("v", .real(.nan)).count, 1)
        XCTAssertEqual(try t.lookup("v", 0), [[5, -0.0]])
        XCTAssertEqual(try t.lookup("k", 2.0), [[2, 3]])
        // Through a cursor, as the engine fetches: only the index group is examined.
        t.resetStatistics()
        XCTAssertEqual(Set(try t.fetchAll(filter: Attribute("v") *== 3)), [[1, 3.0], [2, 3]])
        XCTAssertEqual(t.rowsExamined, 2)
        XCTAssertEqual(t.estimatedCount(filter: Attribute("v") *== 3.0), 2)
    }

    func testNullsAreOrdinaryValuesInColumnsAndIndexes() throws {
        let t = try table()
        XCTAssertTrue(try t.add([nil, nil]))
        XCTAssertFalse(try t.add([nil, nil]))
        XCTAssertTrue(try t.add([1, nil]))
        XCTAssertTrue(try t.add([nil, 0]))
        XCTAssertEqual(Set(try t.lookup("v", nil)), [[nil, nil], [1, nil]])
        XCTAssertEqual(Set(try t.lookup("k", nil)), [[nil, nil], [nil, 0]])
        XCTAssertEqual(try t.lookup("v", 0), [[nil, 0]], "null is not 0")
    }

    func testTextIsInternedAndComparedByBytes() throws {
        let t = try table()
        for i in 0..<100 { try t.add([.integer(Int64(i)), i % 2 == 0 ? "even" : "odd"]) }
        XCTAssertEqual(t.columns.columns[1].texts.count, 2, "two distinct texts stored once each")
        XCTAssertEqual(try t.lookup("v", "even").count, 50)
        XCTAssertEqual(try t.lookup("v", "absent"), [])
        // Precomposed é and e + combining accent are different texts.
        XCTAssertTrue(try t.add([1000, "\u{E9}"]))
        XCTAssertTrue(try t.add([1000, "e\u{301}"]))
        XCTAssertEqual(try t.lookup("v", "\u{E9}"), [[1000, "\u{E9}"]])
        XCTAssertEqual(t.columns.columns[1].texts.count, 4)
        // A text and a blob with the same bytes are different values.
        XCTAssertTrue(try t.add([2000, "ab"]))
        XCTAssertTrue(try t.add([2000, .blob([97, 98])]))
        XCTAssertEqual(try t.lookup("v", .blob([97, 98])), [[2000, .blob([97, 98])]])
        XCTAssertEqual(try t.lookup("v", "ab"), [[2000, "ab"]])
    }

    func testBlobsAreStoredInternedAndFound() throws {
        let t = try table()
        XCTAssertTrue(try t.add([1, .blob([0, 255, 0])]))
        XCTAssertFalse(try t.add([1, .blob([0, 255, 0])]))
        XCTAssertTrue(try t.add([2, .blob([0, 255, 0])]))
        XCTAssertTrue(try t.add([3, .blob([0, 255])]))
        XCTAssertEqual(t.columns.columns[1].blobs.count, 2)
        XCTAssertEqual(Set(try t.lookup("v", .blob([0, 255, 0]))), [[1, .blob([0, 255, 0])], [2, .blob([0, 255, 0])]])
        XCTAssertEqual(try t.fetchAll(filter: Attribute("v") *> .blob([0, 255])), [[1, .blob([0, 255, 0])], [2, .blob([0, 255, 0])]])
    }

    func testDeletesThenReAddsKeepMembershipAndIndexesRight() throws {
        let t = try table()
        let rows: [Row] = (0..<500).map { i in [.integer(Int64(i)), i % 7 == 0 ? .null : .text("v\(i % 13)")] }
        t.reserveCapacity(rows.count)  // sizes the k index (unique so far) ahead
        try t.add(contentsOf: rows)
        try assertLookupsAgreeWithAScan(t)
        XCTAssertEqual(try t.delete(where: Attribute("k") *< 250), 250)
        XCTAssertEqual(t.count, 250)
        for row in rows.prefix(250) { XCTAssertTrue(try t.add(row), "a deleted row can come back") }
        for row in rows { XCTAssertFalse(try t.add(row), "every row is present once") }
        XCTAssertEqual(try t.delete(where: .true), 500)
        XCTAssertEqual(t.count, 0)
        XCTAssertEqual(try t.lookup("v", nil), [])
        try t.add(contentsOf: rows.reversed())
        XCTAssertEqual(Set(t.allRows), Set(rows))
        try assertLookupsAgreeWithAScan(t)
    }

    /// Random adds, deletes and updates over mixed values, against a plain set of rows.
    func testRandomChangesAgreeWithASetOfRows() throws {
        let t = try table()
        var model = Set<Row>()
        var state: UInt64 = 12345
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func value() -> Value {
            switch next(6) {
            case 0: return nil
            case 1: return .integer(Int64(next(10)))
            case 2: return .real(Double(next(10)))  // equal to an integer
            case 3: return .real(Double(next(10)) + 0.5)
            case 4: return .text("t\(next(5))")
            default: return .blob([UInt8(next(3))])
            }
        }
        for _ in 0..<3000 {
            switch next(4) {
            case 0, 1:
                let row: Row = [value(), value()]
                XCTAssertEqual(try t.add(row), model.insert(row).inserted, "add \(row)")
            case 2:
                let v = value()
                let gone = try t.delete(where: Attribute("v") *== v)
                XCTAssertEqual(gone, model.filter { $0[1] == v }.count)
                model = model.filter { $0[1] != v }
            default:
                let (v, w) = (value(), value())
                let matched = model.filter { $0[0] == v }
                XCTAssertEqual(try t.update(where: Attribute("k") *== v, set: ["v": w]), matched.count)
                model.subtract(matched)
                for row in matched { model.insert([row[0], w]) }
            }
        }
        XCTAssertEqual(Set(t.allRows), model)
        XCTAssertEqual(t.count, model.count)
        try assertLookupsAgreeWithAScan(t)
    }

    // MARK: Bulk loads

    func testBulkAppendTakesColumnsAndDropsDuplicates() throws {
        var k = ValueColumn()
        var v = ValueColumn()
        for (a, b) in [(1, 1.0), (2, 2.0), (1, 1.0), (3, 3.5)] as [(Int64, Double)] {
            k.appendInteger(a)
            v.appendReal(b)
        }
        k.appendInteger(2)
        v.appendInteger(2)  // equal to (2, 2.0): a duplicate across classes
        let t = try table()
        XCTAssertEqual(try t.append(ColumnStore(columns: [k, v])), 3)
        XCTAssertEqual(t.allRows, [[1, 1.0], [2, 2.0], [3, 3.5]], "first of each kept, in order")
        XCTAssertEqual(try t.lookup("v", 2), [[2, 2.0]])
        // Into a table that already has rows: only the new ones go in.
        var more = ColumnStore(width: 2)
        try more.append([3, 3.5])
        try more.append([4, "x"])
        XCTAssertEqual(try t.append(more), 1)
        XCTAssertFalse(try t.add([4, "x"]))
        try assertLookupsAgreeWithAScan(t)
    }

    func testTextsAppendedUncheckedAreMergedWhenATableTakesTheColumn() throws {
        var k = ValueColumn()
        var v = ValueColumn()
        for (i, text) in ["a", "b", "a", "c", "b", "a"].enumerated() {
            k.appendInteger(Int64(i))
            Array(text.utf8).withUnsafeBytes { v.appendText(utf8: $0) }
        }
        XCTAssertEqual(v.texts.count, 6, "not looked up while appending")
        let t = try table()
        try t.append(ColumnStore(columns: [k, v]))
        let stored = t.columns.columns[1]
        XCTAssertEqual(stored.texts.count, 6, "repeats stay in the arena, unused")
        XCTAssertEqual(Set((0..<6).map { stored.payload(at: $0) }).count, 3, "one code per distinct text")
        XCTAssertEqual(try t.lookup("v", "a").map { $0[0] }, [0, 2, 5], "index groups keep row order")
        XCTAssertFalse(try t.add([0, "a"]))
        XCTAssertTrue(try t.add([0, "d"]))
        XCTAssertEqual(try t.lookup("v", "d"), [[0, "d"]])
        // Enough new texts to grow the dictionary's table past the repeats' codes.
        for i in 0..<300 { XCTAssertTrue(try t.add([.integer(Int64(i)), .text("new \(i)")])) }
        for i in 0..<300 { XCTAssertEqual(try t.lookup("v", .text("new \(i)")).count, 1) }
        XCTAssertEqual(try t.lookup("v", "a").count, 3)
        XCTAssertFalse(try t.add([2, "a"]))
    }

    func testABulkBuiltIndexSeparatesKindsAndJoinsEqualNumbers() throws {
        var k = ValueColumn()
        var v = ValueColumn()
        let values: [Value] = [0, "x", 0.0, nil, .blob([]), 1, "", 1.0, -0.0]
        for (i, value) in values.enumerated() {
            k.appendInteger(Int64(i))
            v.append(value)
        }
        let t = try table()
        XCTAssertEqual(try t.append(ColumnStore(columns: [k, v])), values.count)
        XCTAssertEqual(try t.lookup("v", 0).map { $0[0] }, [0, 2, 8], "0, 0.0 and -0.0, not the text coded 0")
        XCTAssertEqual(try t.lookup("v", "x"), [[1, "x"]])
        XCTAssertEqual(try t.lookup("v", nil), [[3, nil]])
        XCTAssertEqual(try t.lookup("v", .blob([])), [[4, .blob([])]])
        XCTAssertEqual(try t.lookup("v", ""), [[6, ""]])
        XCTAssertEqual(try t.lookup("v", 1.0).map { $0[0] }, [5, 7])
        try assertLookupsAgreeWithAScan(t)
    }

    func testMembershipOutlivesTheKeyColumnBecomingNonUnique() throws {
        var k = ValueColumn()
        var v = ValueColumn()
        for i in 0..<100 {
            k.appendInteger(Int64(i))
            v.appendInteger(Int64(i % 3))
        }
        let t = try table(indexed: ["k"])
        try t.append(ColumnStore(columns: [k, v]))
        XCTAssertFalse(try t.add([5, 2]), "found through the unique k index")
        XCTAssertFalse(try t.add([5.0, 2.0]))
        XCTAssertTrue(try t.add([5, 7]), "k = 5 now twice: membership gets a table of its own")
        XCTAssertFalse(try t.add([5, 7]))
        XCTAssertFalse(try t.add([5, 2]))
        XCTAssertEqual(try t.delete(where: Attribute("k") *== 5), 2)
        XCTAssertTrue(try t.add([5, 2]))
        XCTAssertEqual(t.count, 100)
        try assertLookupsAgreeWithAScan(t)
    }

    func testBulkAppendRejectsBadShapes() throws {
        var a = ValueColumn()
        a.appendInteger(1)
        assertRelationError("columns of different lengths [1, 0] cannot form rows") {
            try ColumnStore(columns: [a, ValueColumn()])
        }
        let t = try table()
        XCTAssertThrowsError(try t.append(ColumnStore(width: 3)))
    }

    func testTextAppendedAsBytesEqualsTheString() throws {
        var names = ValueColumn()
        Array("Document 7".utf8).withUnsafeBytes { names.appendText(utf8: $0) }
        names.appendText("Document 7")
        XCTAssertEqual(names.texts.count, 1)
        XCTAssertEqual(names.value(at: 0), "Document 7")
        XCTAssertEqual(names.tag(at: 1), .text)
    }

    // MARK: The batch cursor

    func testBatchCursorDeliversTheRowCursorsRowsAndCountsAlike() throws {
        let t = try table()
        for i in 0..<100 { try t.add([.integer(Int64(i)), i % 3 == 0 ? nil : .integer(Int64(i % 5))]) }
        let filters: [Predicate?] = [nil, Attribute("v") *== 2, Attribute("k") *>= 40, .false,
                                     Attribute("v") *== 1 *&& Attribute("k") *< 50]
        for filter in filters {
            for size in [1, 7, 1024] {
                t.resetStatistics()
                let rowCursor = try t.makeCursor(filter: filter)
                var rowBatches: [[Row]] = []
                while true {
                    let b = try rowCursor.next(maxRows: size)
                    if b.isEmpty { break }
                    rowBatches.append(b)
                }
                let (examined, delivered) = (t.rowsExamined, t.rowsDelivered)
                t.resetStatistics()
                let batchCursor = try t.makeBatchCursor(filter: filter)
                var columnBatches: [[Row]] = []
                while true {
                    let b = batchCursor.next(maxRows: size)
                    if b.isEmpty { break }
                    XCTAssertLessThanOrEqual(b.count, size)
                    columnBatches.append((0..<b.count).map { k in Row((0..<2).map { b.value(k, column: $0) }) })
                    XCTAssertEqual(b.rows, columnBatches.last)
                }
                XCTAssertEqual(columnBatches, rowBatches, "\(String(describing: filter)) size \(size)")
                XCTAssertEqual(t.rowsExamined, examined, "\(String(describing: filter))")
                XCTAssertEqual(t.rowsDelivered, delivered)
            }
        }
    }

    func testBatchesExposeTypedColumnsAndASelectionVector() throws {
        let t = try table(indexed: ["v"])
        for i in 0..<10 { try t.add([.integer(Int64(i)), .integer(Int64(i % 2))]) }
        let cursor = try t.makeBatchCursor(filter: Attribute("v") *== 1)
        let batch = cursor.next(maxRows: 100)
        XCTAssertEqual(batch.count, 5)
        let ids = batch.store.columns[0]
        XCTAssertTrue(ids.isIntegerOnly)
        let selected = ids.withPayloads { payloads in batch.selection.map { payloads[$0] } }
        XCTAssertEqual(selected, [1, 3, 5, 7, 9])
        XCTAssertTrue(cursor.next(maxRows: 100).isEmpty)
    }

    func testCursorsReadTheRowsAsTheyWereWhenMade() throws {
        let t = try table()
        for i in 0..<10 { try t.add([.integer(Int64(i)), "x"]) }
        let rows = try t.makeCursor(filter: nil)
        let batches = try t.makeBatchCursor(filter: nil)
        try t.delete(where: Attribute("k") *< 5)
        try t.add([100, "y"])
        XCTAssertEqual(try rows.next(maxRows: 100).count, 10)
        XCTAssertEqual(batches.next(maxRows: 100).rows.map { $0[0] }, (0..<10).map { .integer(Int64($0)) })
    }

    // MARK: Helpers

    func assertLookupsAgreeWithAScan(_ t: MemoryTable, file: StaticString = #filePath, line: UInt = #line) throws {
        for attribute in t.indexedAttributes {
            let column = try XCTUnwrap(t.scheme.index(of: attribute))
            var values = Set(t.allRows.map { $0[column] })
            values.formUnion(["absent", 2.0, .blob([9])])
            for value in values {
                let scanned = t.allRows.filter { $0[column] == value }
                let looked = try t.lookup(attribute, value)
                XCTAssertEqual(looked.count, scanned.count, "\(attribute) = \(value)", file: file, line: line)
                XCTAssertEqual(Set(looked), Set(scanned), "\(attribute) = \(value)", file: file, line: line)
            }
        }
        XCTAssertEqual(Set(t.allRows).count, t.count, "no duplicate rows", file: file, line: line)
    }
}

/// The position table's hash tags, and its fall-back to untagged 32-bit positions when
/// positions outgrow the tagged width (reached here with a 3-bit width).
final class PositionTableTests: XCTestCase {
    func testFindsEveryPositionBeforeAndAfterOutgrowingTheTaggedWidth() {
        let hashes = (0..<200).map { StorageHash.mix(UInt64($0) &* 7919) }
        var table = PositionTable(taggedPositionBits: 3)
        for p in 0..<200 {
            table.insert(p, hash: hashes[p]) { hashes[$0] }
            for q in [0, p / 2, p] {
                XCTAssertEqual(table.find(hash: hashes[q]) { $0 == q }?.position, q, "after \(p) inserts")
            }
        }
        XCTAssertEqual(table.count, 200)
        // Remove every other position; the rest stay reachable.
        for p in stride(from: 0, to: 200, by: 2) {
            guard let found = table.find(hash: hashes[p], where: { $0 == p }) else { return XCTFail("\(p) missing") }
            table.removeSlot(found.slot) { hashes[$0] }
        }
        for p in 0..<200 {
            XCTAssertEqual(table.find(hash: hashes[p]) { $0 == p } != nil, p % 2 == 1, "\(p)")
        }
        var seen: [Int] = []
        table.forEachPosition { seen.append($0) }
        XCTAssertEqual(seen.sorted(), Array(stride(from: 1, to: 200, by: 2)))
    }
}
