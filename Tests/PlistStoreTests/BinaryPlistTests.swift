@testable import PlistStore
import Relational
import XCTest

final class BinaryPlistTests: XCTestCase {
    /// Every value class, the edge values of each, survives encode/decode with its class:
    /// 3 stays an integer and 3.0 a real, empty and number-like text stay text.
    func testEveryValueClassRoundTripsExactly() throws {
        let values: [Value] = [
            .null, .integer(0), .integer(3), .integer(-1), .integer(255), .integer(256), .integer(65536),
            .integer(Int64(UInt32.max)), .integer(Int64(UInt32.max) + 1), .integer(.max), .integer(.min),
            .real(3.0), .real(-0.0), .real(0.1), .real(.greatestFiniteMagnitude), .real(.infinity), .real(-.infinity),
            .real(.leastNonzeroMagnitude), .text(""), .text("3"), .text("3.0"), .text("null"), .text("héllo wörld ✓ 𝄞"),
            .text(String(repeating: "x", count: 40)), .blob([]), .blob([0, 1, 255]), .blob(Array(repeating: 7, count: 300)),
        ]
        let objects = values.map(PlistValueCoding.object)
        let decoded = try BinaryPlistReader.decode(BinaryPlistWriter.encode(.array(objects)))
        guard case let .array(items) = decoded else { return XCTFail("not an array: \(decoded)") }
        XCTAssertEqual(items.count, values.count)
        for (value, item) in zip(values, items) {
            let back = try XCTUnwrap(PlistValueCoding.value(item))
            XCTAssertEqual(back.typeName, value.typeName, "\(value)")
            switch (value, back) {
            case let (.real(a), .real(b)): XCTAssertEqual(a.bitPattern, b.bitPattern)
            case let (.text(a), .text(b)): XCTAssertEqual(Array(a.utf8), Array(b.utf8))
            default: XCTAssertEqual(value, back)
            }
        }
    }

    func testNaNRoundTripsAsNaN() throws {
        let bytes = BinaryPlistWriter.encode(.real(.nan))
        guard case let .real(v) = try BinaryPlistReader.decode(bytes) else { return XCTFail() }
        XCTAssertTrue(v.isNaN)
    }

    /// Large containers switch to 2- and 4-byte references and lengths past 14 elements.
    func testLargeArraysUseWiderReferences() throws {
        let items = (0..<70_000).map { PlistObject.integer(Int64($0)) }
        XCTAssertEqual(try BinaryPlistReader.decode(BinaryPlistWriter.encode(.array(items))), .array(items))
    }

    func testDamagedBytesAreErrorsNotCrashes() throws {
        let good = BinaryPlistWriter.encode(.dictionary([("id", .integer(3)), ("name", .string("x"))]))
        XCTAssertThrowsError(try BinaryPlistReader.decode(Array("not a plist at all, no".utf8)))
        XCTAssertThrowsError(try BinaryPlistReader.decode(Array(good.prefix(good.count - 1))))
        // Every single-byte corruption either decodes to something or throws.
        for i in 8..<good.count {
            for b: UInt8 in [0x00, 0xFF, 0x0F, 0xAF, 0xDF] {
                var bad = good
                bad[i] = b
                _ = try? BinaryPlistReader.decode(bad)
            }
        }
        // A reference cycle: object 0 is an array holding object 0. Refused by depth.
        let cyclic: [UInt8] = Array("bplist00".utf8) + [0xA1, 0x00] + [8]
            + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 10]
        XCTAssertThrowsError(try BinaryPlistReader.decode(cyclic)) { error in
            XCTAssertTrue("\(error)".contains("nested"), "\(error)")
        }
        XCTAssertThrowsError(try BinaryPlistReader.decode(BinaryPlistWriter.encode(.array([])).map { $0 == 0xA0 ? 0x09 : $0 }))
    }

    /// Object i is an array holding object i + 1 `fanout` times, the last object null: each
    /// level doubles what the references stand for, in a file of a few bytes a level.
    private func sharedArrays(levels: Int, fanout: Int) -> [UInt8] {
        var objects: [[UInt8]] = (0..<levels).map { [0xA0 | UInt8(fanout)] + Array(repeating: UInt8($0 + 1), count: fanout) }
        objects.append([0x00])
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = UInt8(bytes.count)
        return bytes + offsets + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
            + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, table]
    }

    /// Containers referenced from several containers are refused once they stand for more
    /// objects than the file has bytes: forty levels of a two-way shared array (243 bytes)
    /// took all memory and aborted. Twenty levels (a million nulls) decoded before the limit.
    func testSharedContainersThatExpandPastTheFileAreRefused() throws {
        let bomb = sharedArrays(levels: 20, fanout: 2)
        XCTAssertLessThan(bomb.count, 200)
        XCTAssertThrowsError(try BinaryPlistReader.decode(bomb)) { error in
            XCTAssertTrue("\(error)".contains("shared by other containers"), "\(error)")
            XCTAssertTrue("\(error)".contains("\(bomb.count) bytes"), "\(error)")
        }
        // Sharing that does not expand still decodes: one array shared by two, and a leaf
        // named from many places (Apple's writer shares equal strings and numbers).
        XCTAssertEqual(try BinaryPlistReader.decode(sharedArrays(levels: 2, fanout: 2)),
                       .array([.array([.null, .null]), .array([.null, .null])]))
        XCTAssertEqual(try BinaryPlistReader.decode(sharedArrays(levels: 1, fanout: 14)),
                       .array(Array(repeating: .null, count: 14)))
    }

    /// Equal keys (3 and 3.0, 0 and -0.0) name the same file; different classes do not.
    func testKeyFileNamesFollowValueEquality() {
        XCTAssertEqual(RowKey.fileStem([.integer(3)]), RowKey.fileStem([.real(3.0)]))
        XCTAssertEqual(RowKey.fileStem([.integer(0)]), RowKey.fileStem([.real(-0.0)]))
        XCTAssertNotEqual(RowKey.fileStem([.integer(3)]), RowKey.fileStem([.text("3")]))
        XCTAssertNotEqual(RowKey.fileStem([.text("")]), RowKey.fileStem([.null]))
        XCTAssertNotEqual(RowKey.fileStem([.text("ab"), .text("c")]), RowKey.fileStem([.text("a"), .text("bc")]))
        XCTAssertEqual(RowKey.fileStem([.integer(1)]).count, 64)
    }
}
