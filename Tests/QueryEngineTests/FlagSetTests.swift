import XCTest
@testable import QueryEngine

final class FlagSetTests: XCTestCase {
    let catalog = HeuristicCatalog.standard

    func testPresetsAreWrittenCanonically() throws {
        XCTAssertEqual(
            try catalog.preset("all-on").canonical,
            "initiator-ordering=smallest-estimate,join-filter-threshold=100,select-pushdown=on,"
                + "subtree-copy-limit=100,subtree-copying=on,union-flattening=on")
        XCTAssertEqual(
            try catalog.preset("all-off").canonical,
            "initiator-ordering=declaration,join-filter-threshold=0,select-pushdown=off,"
                + "subtree-copy-limit=100,subtree-copying=off,union-flattening=off")
    }

    func testAdjustmentsApplyInOrderAndRoundTrip() throws {
        let flags = try catalog.flagSet(
            preset: "all-off", enable: ["subtree-copying"], disable: [],
            assignments: ["join-filter-threshold=10", "union-fold-max-operands=3"])
        XCTAssertTrue(flags.isOn("subtree-copying"))
        XCTAssertEqual(flags.integer("join-filter-threshold"), 10)
        XCTAssertTrue(flags.canonical.contains("union-fold-max-operands=3"))
        XCTAssertEqual(try catalog.parseCanonical(flags.canonical), flags)
    }

    func testBadFlagsSayWhatWasExpected() {
        XCTAssertThrowsError(try catalog.flagSet(enable: ["subtree-coping"])) { error in
            XCTAssertEqual("\(error)", "unknown heuristic 'subtree-coping'; did you mean 'subtree-copying'? (`testbed flags` lists them)")
        }
        XCTAssertThrowsError(try catalog.flagSet(set: ["join-filter-threshold": "-1"])) { error in
            XCTAssertEqual("\(error)", "heuristic 'join-filter-threshold': '-1' is not valid; expected integer >= 0 or unlimited")
        }
        XCTAssertThrowsError(try catalog.flagSet(enable: ["join-filter-threshold"])) { error in
            XCTAssertEqual("\(error)", "heuristic 'join-filter-threshold' is not on/off; use --set join-filter-threshold=VALUE")
        }
        XCTAssertThrowsError(try catalog.preset("most-on")) { error in
            XCTAssertEqual("\(error)", "unknown preset 'most-on'; expected all-on or all-off")
        }
        XCTAssertThrowsError(try catalog.flagSet(preset: "all-on", enable: [], disable: [], assignments: ["x"])) { error in
            XCTAssertEqual("\(error)", "'x' is not NAME=VALUE")
        }
    }
}
