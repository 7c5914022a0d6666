import Workloads
import XCTest
@testable import Verification

/// `CatalogVerification.check()`: what would make a catalog run fail part-way, or pass on
/// nothing, is refused before any dataset is generated or any engine runs.
final class CatalogCheckTests: XCTestCase {
    private func query(_ name: String, _ text: String) throws -> CatalogQuery {
        try CatalogQuery(name: name, text: text, path: "cat/\(name).rq")
    }

    private func failure(_ queries: [CatalogQuery], sizes: [Int] = [5], seeds: [UInt64] = [1]) -> String {
        var verification = CatalogVerification(queries: queries, sizes: sizes, seeds: seeds, grid: .tests())
        verification.reduce = false
        verification.reproParent = nil
        var ran = 0
        do {
            _ = try verification.run(progress: { _ in ran += 1 })
            return "ran \(ran)"
        } catch {
            XCTAssertEqual(ran, 0, "refused before the first case")
            return "\(error)"
        }
    }

    func testNothingToVerifyIsRefused() throws {
        let good = try query("good", "# g\n# shape: pets\noutput pets\n")
        XCTAssertEqual(failure([]), "no queries to verify")
        XCTAssertEqual(failure([good], sizes: []), "no dataset sizes or seeds to verify on")
        XCTAssertEqual(failure([good], seeds: []), "no dataset sizes or seeds to verify on")
        XCTAssertEqual(failure([good]), "ran 2", "the pets dataset and its trigger variant")
    }

    func testAQueryWithoutAShapeIsRefusedNotSkipped() throws {
        let good = try query("good", "# g\n# shape: pets\noutput pets\n")
        let shapeless = try query("shapeless", "# s\noutput pets\n")
        XCTAssertEqual(failure([good, shapeless]),
                       "cat/shapeless.rq:1:1: no `# shape:` line; a catalog query needs one to generate its dataset")
    }

    func testAQueryThatDoesNotParseIsLocatedBeforeTheOthersRun() throws {
        let good = try query("a-good", "# g\n# shape: pets\noutput pets\n")
        let bad = try query("b-bad", "# b\n# shape: todo\n\noutput tags select (nme == \"x\")\n")
        XCTAssertEqual(failure([good, bad]),
                       "cat/b-bad.rq:4:21: select: unknown attribute 'nme'; did you mean 'name'? (the relation has [name, tag_id])")
    }

    func testASizeTheShapeRefusesIsReportedFirst() throws {
        let good = try query("good", "# g\n# shape: employees\noutput employees\n")
        XCTAssertEqual(failure([good], sizes: [5, 100_000_001]),
                       "parameter 'rows': '100000001' is not valid; expected an integer from 1 to 100000000")
    }
}
