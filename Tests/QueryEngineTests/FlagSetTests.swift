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
            "closure-seeding=off,difference-to-select=off,filter-aware-ordering=off,initiator-ordering=declaration,join-conjunct-pushdown=off,join-filter-pushdown=off,"
                + "join-filter-threshold=0,late-filter-narrowing=off,late-subtree-copying=off,provably-empty-first=off,sampled-estimate-ordering=off,select-activation-narrowing=off,select-pushdown=off,self-operand-folding=off,"
                + "set-operand-filter=off,subtree-copy-limit=100,subtree-copying=off,union-flattening=off")
        // `seed`: seed 000's five at their defaults, every later heuristic off.
        XCTAssertEqual(
            try catalog.preset("seed").canonical,
            "closure-seeding=off,difference-to-select=off,filter-aware-ordering=off,initiator-ordering=smallest-estimate,join-conjunct-pushdown=off,join-filter-pushdown=off,"
                + "join-filter-threshold=100,late-filter-narrowing=off,late-subtree-copying=off,provably-empty-first=off,sampled-estimate-ordering=off,select-activation-narrowing=off,select-pushdown=on,self-operand-folding=off,"
                + "set-operand-filter=off,subtree-copy-limit=100,subtree-copying=on,union-flattening=on")
        for key in [ClosureSeeding.seeding, FilterAwareOrdering.awareness, JoinFilterPushdown.pushdown, SetOperandFilter.filtering,
                    LateFilterNarrowing.narrowing, LateSubtreeCopying.copying, ProvablyEmptyFirst.emptyFirst, JoinConjunctPushdown.pushdown,
                    SampledEstimateOrdering.sampling, SelfOperandFolding.folding, SelectActivationNarrowing.narrowing] {
            XCTAssertEqual(try catalog.preset("seed").isOn(key), false, key.name)
            XCTAssertEqual(try catalog.preset("all-on").isOn(key), true, key.name)
            XCTAssertEqual(try catalog.preset("all-off").isOn(key), false, key.name)
        }
        // The seed preset is exactly the seed's five heuristics: every later flag at its all-off value.
        let seed = try catalog.preset("seed")
        for spec in catalog.flags where spec.laterThanSeed { XCTAssertEqual(seed[spec.name], spec.allOff, spec.name) }
    }

    func testAdjustmentsApplyInOrderAndRoundTrip() throws {
        let flags = try catalog.flagSet(
            preset: "all-off", enable: ["subtree-copying"], disable: [],
            assignments: ["join-filter-threshold=10", "union-fold-max-operands=3"])
        XCTAssertTrue(flags.isOn(SubtreeCopying.copying))
        XCTAssertEqual(flags[JoinFilterThreshold.threshold], 10)
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
            XCTAssertEqual("\(error)", "unknown preset 'most-on'; expected all-on, seed or all-off")
        }
        XCTAssertThrowsError(try catalog.flagSet(preset: "all-on", enable: [], disable: [], assignments: ["x"])) { error in
            XCTAssertEqual("\(error)", "'x' is not NAME=VALUE")
        }
    }

    func testAHeuristicBothSetAndEnabledOrDisabledIsRefused() {
        // `--set subtree-copying=on --disable subtree-copying` ran with it on: set came last.
        XCTAssertThrowsError(try catalog.flagSet(preset: "all-on", enable: [], disable: ["subtree-copying"],
                                                 assignments: ["subtree-copying=on"])) { error in
            XCTAssertEqual(error as? FlagError, .setAndToggled("subtree-copying", toggle: "disable", value: "on"))
            XCTAssertEqual("\(error)", "heuristic 'subtree-copying' is both set ('on') and named in disable; name it in only one of them")
        }
        XCTAssertThrowsError(try catalog.flagSet(enable: ["union-flattening"], set: ["union-flattening": "off"])) { error in
            XCTAssertEqual(error as? FlagError, .setAndToggled("union-flattening", toggle: "enable", value: "off"))
        }
        XCTAssertNoThrow(try catalog.flagSet(enable: ["union-flattening"], set: ["subtree-copying": "off"]))
    }

    func testAHeuristicBothEnabledAndDisabledIsRefused() {
        // The one construction configs and the command line share refuses it, in either order.
        XCTAssertThrowsError(try catalog.flagSet(enable: ["select-pushdown", "subtree-copying"], disable: ["subtree-copying"])) { error in
            XCTAssertEqual(error as? FlagError, .enabledAndDisabled("subtree-copying"))
            XCTAssertEqual("\(error)", "heuristic 'subtree-copying' is both enabled and disabled; name it in only one of enable and disable")
        }
        XCTAssertThrowsError(try catalog.flagSet(preset: "all-off", enable: ["union-flattening"], disable: ["union-flattening"],
                                                 assignments: []))
        // An unknown or non-toggle name is still reported as such.
        XCTAssertThrowsError(try catalog.flagSet(enable: ["nope"], disable: ["nope"])) { error in
            XCTAssertEqual(error as? FlagError, .unknownFlag("nope", suggestion: nil))
        }
        // Naming one heuristic twice on one side is harmless.
        XCTAssertNoThrow(try catalog.flagSet(disable: ["subtree-copying", "subtree-copying"]))
    }

    func testAHeuristicSetTwiceIsRefusedNotLastWins() {
        XCTAssertThrowsError(try catalog.flagSet(preset: "all-on", enable: [], disable: [],
                                                 assignments: ["join-filter-threshold=10", "join-filter-threshold=20"])) { error in
            XCTAssertEqual(error as? FlagError, .assignedTwice("join-filter-threshold", first: "10", second: "20"))
            XCTAssertEqual("\(error)", "heuristic 'join-filter-threshold' is set twice ('10', then '20'); set it once")
        }
        // Even with the same value, and in canonical text (compare --baseline, repro manifests).
        XCTAssertThrowsError(try catalog.flagSet(preset: "all-on", enable: [], disable: [],
                                                 assignments: ["subtree-copying=on", "subtree-copying=on"]))
        XCTAssertThrowsError(try catalog.parseCanonical("select-pushdown=on,select-pushdown=off")) { error in
            XCTAssertEqual(error as? FlagError, .assignedTwice("select-pushdown", first: "on", second: "off"))
        }
        XCTAssertNoThrow(try catalog.flagSet(preset: "all-on", enable: [], disable: [],
                                             assignments: ["join-filter-threshold=10", "subtree-copy-limit=5"]))
    }
}
