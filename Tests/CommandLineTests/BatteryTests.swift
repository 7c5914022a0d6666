import XCTest

/// The malformed-input battery: every case runs the built `testbed` in a fresh directory and
/// expects exit 2, a `testbed:` message naming where, and nothing created or changed on disk.
/// Tables live in RunCases, MergeCompareCases, QueryCases and OtherCases; add rows there.
final class BatteryTests: XCTestCase {
    func testRunConfigs() throws { try assertBattery(RunCases.cases) }
    func testMerge() throws { try assertBattery(MergeCompareCases.cases.filter { $0.name.hasPrefix("merge/") }) }
    func testCompare() throws { try assertBattery(MergeCompareCases.cases.filter { $0.name.hasPrefix("compare/") }) }
    func testQueryFilesAndOptions() throws { try assertBattery(QueryCases.cases.filter { $0.name.hasPrefix("query/") }) }
    func testPlan() throws { try assertBattery(QueryCases.cases.filter { $0.name.hasPrefix("plan/") }) }
    func testOutputPathsAndEmptyChangeScripts() throws { try assertBattery(QueryCases.pathsAndScripts) }
    func testQueries() throws { try assertBattery(QueryCases.cases.filter { $0.name.hasPrefix("queries/") }) }
    func testVerifyCatalog() throws { try assertBattery(QueryCases.cases.filter { $0.name.hasPrefix("verify/") }) }
    func testVerifyOptionsAndRepro() throws { try assertBattery(OtherCases.verify) }
    func testGenerate() throws { try assertBattery(OtherCases.generate) }
    func testFlagsDemoAndTopLevel() throws { try assertBattery(OtherCases.flagsAndDemo) }
    func testHuntOptions() throws { try assertBattery(OtherCases.hunt) }

    func testBatteryHasAtLeast220Cases() {
        let all = RunCases.cases + MergeCompareCases.cases + QueryCases.cases + OtherCases.generate + OtherCases.verify
            + OtherCases.flagsAndDemo + OtherCases.hunt
        XCTAssertGreaterThanOrEqual(all.count, 220)
        XCTAssertEqual(Set(all.map(\.name)).count, all.count, "case names are unique")
    }

    /// CRLF and BOM `.rq` files are accepted by every command that reads query files.
    func testCRLFAndBOMQueryFilesAreAccepted() throws {
        let all = try Battery.checkAccepted(AcceptedQueryCases.cases)
        let failures = all.filter { line in !KnownOpen.cases.contains(where: { line.hasPrefix("[\($0)]") }) }
        let stillOpen = AcceptedQueryCases.cases.map(\.name).filter { name in
            KnownOpen.cases.contains(name) && all.contains(where: { $0.hasPrefix("[\(name)]") }) }
        XCTAssertEqual(stillOpen.count, AcceptedQueryCases.cases.filter { KnownOpen.cases.contains($0.name) }.count,
                       "known-open accepted cases now pass; remove them from KnownOpen")
        if !failures.isEmpty {
            XCTFail("\(failures.count) of \(AcceptedQueryCases.cases.count) cases failed:\n" + failures.joined(separator: "\n"))
        }
    }
}
