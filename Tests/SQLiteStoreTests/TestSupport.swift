import Foundation
import XCTest
import Relational
@testable import SQLiteStore

/// Foundation's `Predicate` macro type would otherwise clash with Relational's.
typealias Predicate = Relational.Predicate

/// A small fixed-seed PRNG (SplitMix64) so property tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RandomNumberGenerator {
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}

func scheme(_ names: String...) throws -> Scheme { try Scheme(names.map { Attribute($0) }) }

/// A fresh directory under the system temp directory, removed by the returned closure.
func makeTemporaryDirectory() throws -> (path: String, cleanup: () -> Void) {
    let path = NSTemporaryDirectory() + "sqlitestore-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return (path, { try? FileManager.default.removeItem(atPath: path) })
}

/// Asserts that `body` throws an `SQLiteError` whose message contains every fragment.
@discardableResult
func assertSQLiteError<T>(
    _ fragments: [String], kind: SQLiteError.Kind? = nil,
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) -> SQLiteError? {
    do {
        _ = try body()
        XCTFail("expected an SQLiteError containing \(fragments), but nothing was thrown", file: file, line: line)
    } catch let error as SQLiteError {
        for fragment in fragments {
            XCTAssertTrue(error.message.contains(fragment),
                "message \"\(error.message)\" lacks \"\(fragment)\"", file: file, line: line)
        }
        if let kind { XCTAssertEqual(error.kind, kind, "message: \(error.message)", file: file, line: line) }
        return error
    } catch {
        XCTFail("expected an SQLiteError, got \(error)", file: file, line: line)
    }
    return nil
}

/// Rows as a set, asserting there are no duplicates (relations are sets).
func rowSet(_ rows: [Row], file: StaticString = #filePath, line: UInt = #line) -> Set<Row> {
    let set = Set(rows)
    XCTAssertEqual(set.count, rows.count, "duplicate rows in \(rows)", file: file, line: line)
    return set
}
