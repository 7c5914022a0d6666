import XCTest
import Relational
@testable import Workloads

/// `reals`, `null-names` and `selected=root`: the same dataset as without them, with only
/// the storage class of some keys and some names changed; off by default.
final class ValueVariantTests: XCTestCase {
    private func isReal(_ v: Value) -> Bool { if case .real = v { return true } else { return false } }

    /// Same tables, same row count, every key equal in the value order, names equal or null.
    private func assertVariantOf(_ base: Dataset, _ varied: Dataset, names: [String: Attribute],
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(base.tables.map(\.name), varied.tables.map(\.name), file: file, line: line)
        for (a, b) in zip(base.tables, varied.tables) {
            XCTAssertEqual(a.rows.count, b.rows.count, a.name, file: file, line: line)
            let nameColumn = names[a.name].flatMap(a.scheme.index(of:))
            for (r, s) in zip(a.rows, b.rows) {
                for i in 0..<r.count {
                    if i == nameColumn && s[i].isNull { continue }
                    XCTAssertEqual(ReferenceOrder.compare(r[i], s[i]), 0, "\(a.name): \(r) vs \(s)", file: file, line: line)
                }
            }
        }
    }

    func testVariantsChangeOnlyStorageClassesAndNames() throws {
        let variant = ShapeParameters(["reals": "0.5", "null-names": "0.3"])
        for (shape, names) in [(Shape.documents, ["documents": Attribute("name")]),
                               (.pets, ["pets": "name", "added": "name", "removed": "name"]), (.todo, ["tags": "name"])] {
            let base = try shape.generate(rows: 100, seed: 3)
            let varied = try shape.generate(rows: 100, seed: 3, parameters: variant)
            assertVariantOf(base, varied, names: names)
            let values = varied.tables.flatMap { $0.rows.flatMap(\.values) }
            XCTAssertTrue(values.contains(where: isReal), "\(shape) has reals")
            XCTAssertGreaterThan(values.filter(\.isNull).count, base.tables.flatMap { $0.rows.flatMap(\.values) }.filter(\.isNull).count,
                                 "\(shape) has null names")
            XCTAssertNotEqual(base.contentHashHex, varied.contentHashHex)
            XCTAssertEqual(try shape.generate(rows: 100, seed: 3, parameters: variant).contentHashHex, varied.contentHashHex)
        }
    }

    func testZeroIsTheDefault() throws {
        for shape in [Shape.documents, .pets, .todo] {
            let zero = try shape.generate(rows: 60, seed: 5, parameters: ShapeParameters(["reals": "0", "null-names": "0"]))
            XCTAssertEqual(zero.contentHashHex, try shape.generate(rows: 60, seed: 5).contentHashHex)
        }
    }

    func testSelectedRootIsARoot() throws {
        for seed: UInt64 in 1...5 {
            let d = try Shape.documents.generate(rows: 200, seed: seed, parameters: ShapeParameters(["selected": "root", "roots": "0.05"]))
            let selected = try XCTUnwrap(d.table(named: "selected_documents")?.rows.first?[0])
            let documents = try XCTUnwrap(d.table(named: "documents"))
            let row = try XCTUnwrap(documents.rows.first { ReferenceOrder.compare($0[0], selected) == 0 })
            XCTAssertTrue(row[2].isNull, "seed \(seed): document \(selected) is a root")
        }
    }

    func testVariantDatasetsAreWrittenLikeTheGeneratedOnes() throws {
        // With variants the writer takes the in-memory path; the summary hash is the same.
        let params = ShapeParameters(["reals": "0.5", "selected": "root"])
        let report = try Shape.documents.write(rows: 50, seed: 2, parameters: params, to: nil)
        XCTAssertFalse(report.streamed)
        XCTAssertEqual(report.overview.contentHashHex, try Shape.documents.generate(rows: 50, seed: 2, parameters: params).contentHashHex)
        XCTAssertTrue(try Shape.documents.write(rows: 50, seed: 2, to: nil).streamed, "the default still streams")
    }

    func testBadFractionsAreReported() {
        for text in ["1.5", "-0.1", "half", "nan"] {
            XCTAssertThrowsError(try Shape.documents.generate(rows: 10, seed: 1, parameters: ShapeParameters(["reals": text]))) {
                XCTAssertEqual("\($0)", "parameter 'reals': '\(text)' is not valid; expected a fraction from 0 to 1 such as 0.25")
            }
        }
        XCTAssertThrowsError(try Shape.pets.generate(rows: 10, seed: 1, parameters: ShapeParameters(["null-names": "2"])))
        XCTAssertThrowsError(try Shape.employees.generate(rows: 10, seed: 1, parameters: ShapeParameters(["reals": "0.5"])),
                             "employees has no variants")
    }
}
