import XCTest
@testable import Relational

/// The reference evaluator as an oracle: set semantics under the documented value
/// semantics (3 == 3.0, null is an ordinary value), and independence from the engine.
final class ReferenceEvaluatorTests: XCTestCase {
    func testSetOperationsTreatIntegralRealsAsTheInteger() throws {
        let a = try makeRelation("a", ["k", "v"], [[3, "x"], [nil, "n"], [1, "y"]])
        let b = try makeRelation("b", ["k", "v"], [[3.0, "x"], [.null, "n"], [2, "z"]])
        XCTAssertEqual(try a.union(b).rows().count, 4)
        XCTAssertEqual(try a.intersection(b).rows().count, 2)
        XCTAssertEqual(try a.difference(b).rows(), [[1, "y"]])
        XCTAssertEqual(try b.difference(a).rows(), [[2, "z"]])
    }

    func testProjectCoalescesEqualRows() throws {
        let a = try makeRelation("a", ["k", "v"], [[3, "x"], [3.0, "y"], [nil, "z"], [.null, "w"], [4, "v"]])
        XCTAssertEqual(try a.project(["k"]).rows().count, 3)
        XCTAssertEqual(try a.project([]).rows(), [Row([])])
        XCTAssertEqual(try makeRelation("e", ["k"], []).project([]).rows(), [])
    }

    func testJoinMatchesNullsAndRealsAndCrossesWithoutPairs() throws {
        let left = try makeRelation("l", ["k", "a"], [[nil, 1], [3, 2], [3.5, 3], ["3", 4]])
        let right = try makeRelation("r", ["k", "b"], [[.null, "n"], [3.0, "t"], [3, "u"], [4, "f"]])
        // null = null holds; 3 = 3.0 holds, so left's 3 meets both 3.0 and 3; text "3" is
        // not the number 3, and 3.5 meets nothing.
        let joined = try left.join(right).rows()
        XCTAssertEqual(joined.count, 3, "\(joined)")
        XCTAssertEqual(joined.filter { $0[2].isNull }.count, 1, "scheme [a, b, k]: the null keys meet")
        let equi = try left.equijoin(right.rename(["k": "rk"]), matching: [JoinPair("a", "rk")]).rows()
        XCTAssertEqual(equi.count, 3, "a = 3 meets rk = 3 and 3.0, a = 4 meets 4: \(equi)")
        let cross = try left.project(["a"]).join(right.project(["b"])).rows()
        XCTAssertEqual(cross.count, 4 * 4)
    }

    func testRenameAndSelect() throws {
        let a = try makeRelation("a", ["id", "name"], [[1, "a"], [2.0, "b"], [3, nil]])
        let renamed = try a.rename(["id": "key", "name": "id"])
        XCTAssertEqual(renamed.scheme.attributes, ["id", "key"])
        XCTAssertEqual(try renamed.rows(), ReferenceOrder.sorted([["a", 1], ["b", 2.0], [nil, 3]]))
        XCTAssertEqual(try a.select(Attribute("id") *== 2).rows(), [[2.0, "b"]])
        XCTAssertEqual(try a.select(Attribute("name") *== nil).rows(), [[3, nil]])
        XCTAssertEqual(try a.select(.comparison(.value(2), .less, .attribute("id"))).rows(), [[3, nil]])
        XCTAssertEqual(try a.select(!(Attribute("id") *<= 1) *&& (Attribute("name") *!= "b")).rows(), [[3, nil]])
        XCTAssertEqual(try a.select(.comparison(.attribute("id"), .greater, .attribute("name"))).rows(), [[3, nil]],
                       "numbers sort before text, and null before numbers")
        XCTAssertEqual(try a.select(.or([])).rows(), [])
        XCTAssertEqual(try a.select(.and([])).rows().count, 3)
    }

    /// The oracle's independence, checked on its source: it must not use the engine's
    /// compiled predicates, position maps or join layouts, nor `Value`'s hashing or order.
    func testEvaluatorSharesNoMachineryWithTheEngine() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Relational/Evaluation").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
        XCTAssertEqual(Set(files), ["ReferenceEvaluator.swift", "ReferenceOrder.swift", "ReferencePredicate.swift"])
        let forbidden = ["CompiledPredicate", "ColumnMap", "JoinLayout", "columnMap", "joinLayout", "picking(",
                         "Value.compare", "holds(forComparison", "hashValue", "Hasher"]
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            for word in forbidden {
                XCTAssertFalse(code.contains(word), "\(file) uses \(word)")
            }
            // `Set<…>` or `Set(…)` (but not `.inSet(`, the predicate case it must handle).
            XCTAssertNil(code.range(of: "(?<![A-Za-z])Set[<(]", options: .regularExpression), "\(file) uses a Set")
        }
    }
}
