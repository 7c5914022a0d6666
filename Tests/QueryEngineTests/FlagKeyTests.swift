import XCTest
@testable import QueryEngine

/// Heuristics read flags only through typed keys, and every key a heuristic reads is a flag
/// the catalog declares with the key's kind: a misspelt name cannot silently read as "off".
final class FlagKeyTests: XCTestCase {
    func testEveryKeyAHeuristicReadsIsDeclaredInTheCatalog() throws {
        let catalog = HeuristicCatalog.standard
        let declared = Set(catalog.flags.map(\.name))
        var everRead = Set<String>()
        for preset in ["all-on", "all-off"] {
            let flags = try catalog.preset(preset)
            for heuristic in catalog.heuristics {
                let log = FlagReadLog()
                _ = heuristic.make(flags.recordingReads(into: log))
                XCTAssertEqual(log.undeclared, [], "\(heuristic) under \(preset) reads undeclared flags")
                XCTAssertEqual(log.mistyped, [], "\(heuristic) under \(preset) reads flags as the wrong kind")
                // A heuristic reads only flags it declares itself.
                let own = Set(heuristic.flags.map(\.name))
                XCTAssertTrue(Set(log.read).isSubset(of: own), "\(heuristic) reads \(Set(log.read).subtracting(own))")
                everRead.formUnion(log.read)
            }
        }
        // Every declared flag is read by some heuristic (a declared flag nobody reads is dead).
        XCTAssertEqual(everRead, declared)
    }

    func testAnUndeclaredOrMistypedKeyIsLoggedAndReadsAsAbsent() throws {
        let flags = try HeuristicCatalog.standard.preset("all-on")
        let log = FlagReadLog()
        let logged = flags.recordingReads(into: log)
        XCTAssertFalse(logged.isOn(FlagKey<Bool>("subtree-coping")))
        XCTAssertNil(logged[FlagKey<Bool>("join-filter-threshold")])
        XCTAssertEqual(logged[JoinFilterThreshold.threshold], 100)
        XCTAssertEqual(log.undeclared, ["subtree-coping"])
        XCTAssertEqual(log.mistyped, ["join-filter-threshold"])
        XCTAssertEqual(logged, flags, "the log is not part of the flag set's identity")
    }
}
