import Workloads
import XCTest
@testable import Experiments

/// Where config errors that Yams, the generators or SQLite find are reported, and the
/// checks that depend on the machine or on SQLite rather than on the config's keys.
final class ConfigLocationTests: XCTestCase {
    private func error(_ text: String) -> ConfigError? {
        do {
            _ = try ExperimentResolver.resolve(text: text, file: "c.yaml")
            return nil
        } catch let error as ConfigError {
            return error
        } catch {
            XCTFail("not a ConfigError: \(error)")
            return nil
        }
    }

    private func config(rows: String = "[20]", params: String = "", query: String = "\"output documents\"",
                        baselines: String = "[]") -> String {
        """
        name: t
        dataset:
          shape: documents
          rows: \(rows)
        \(params.isEmpty ? "" : "  params: \(params)\n")backend: [memory]
        queries:
          - name: q
            text: \(query)
        flagsets:
          on: {preset: all-on}
        baselines: \(baselines)
        """
    }

    func testARepeatedKeyIsReportedAtItsSecondOccurrenceWithItsKeyPath() {
        let text = "name: t\ndataset:\n  shape: documents\n  rows: [20]\n  rows: [30]\n  rows: [40]\n"
        let found = error(text)
        XCTAssertEqual(found?.keyPath, "dataset.rows")
        XCTAssertEqual(found?.line, 5)
        XCTAssertEqual(found?.column, 3)
        XCTAssertEqual(found?.message, "given twice (first at 4:3); keep one")
    }

    func testARepeatedKeyInAFlowMappingInsideAListIsLocated() {
        let text = "name: t\nqueries:\n  - {name: a, text: x}\n  - {name: b, text: x, \"name\": c}\n"
        let found = error(text)
        XCTAssertEqual(found?.keyPath, "queries[1].name")
        XCTAssertEqual(found?.line, 4)
        XCTAssertEqual(found?.column, 24)
    }

    func testAControlCharacterIsLocatedInCharactersNotBytes() {
        let found = error("name: t\ndescription: é€ \u{1}\n")
        XCTAssertEqual(found?.line, 2)
        XCTAssertEqual(found?.column, 17)
        XCTAssertEqual(found.map { $0.message.contains("U+0001") }, true)
    }

    func testAParameterErrorStandsAtTheParameterEvenWhenItDependsOnTheSize() {
        let found = error(config(params: "{roots: 21}"))
        XCTAssertEqual(found?.keyPath, "dataset.params.roots")
        XCTAssertEqual(found?.line, 5)
        XCTAssertEqual(found.map { $0.message.contains("at most the row count 20") }, true)
    }

    func testResolvingAHundredMillionRowsGeneratesNothing() throws {
        // Parsing the queries needs only the schemes; merge and compare resolve such configs
        // on machines that could not hold the data.
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            _ = try ExperimentResolver.resolve(text: config(rows: "[100000000]", params: "{order: shuffled}"), file: "c.yaml")
        }
        XCTAssertLessThan(elapsed, .seconds(30), "resolving generated the dataset")
    }

    func testTheMemoryCheckNamesTheSizeThatDoesNotFitAndOnlyTheShardsCells() throws {
        let text = config(rows: "[20, 2000000]")
        let experiment = try ExperimentResolver.resolve(text: text, file: "c.yaml")
        let small = MachineMemory(availableBytes: 200_000_000, source: "test")
        XCTAssertThrowsError(try MachineCheck.checkMemory(experiment, cells: experiment.cells, file: "c.yaml", memory: small)) { error in
            let error = error as? ConfigError
            XCTAssertEqual(error?.keyPath, "dataset.rows[1]")
            XCTAssertEqual(error?.line, 4)
            XCTAssertEqual(error.map { $0.message.contains("2000000 rows") && $0.message.contains("200 MB") }, true, "\(String(describing: error))")
        }
        let firstSize = experiment.cells.filter { $0.rows == 20 }
        XCTAssertNoThrow(try MachineCheck.checkMemory(experiment, cells: firstSize, file: "c.yaml", memory: small))
    }

    func testEachPlaceTheDataIsLoadedCountsTowardsTheEstimate() throws {
        let memoryOnly = try ExperimentResolver.resolve(text: config(rows: "[1000000]"), file: "c.yaml")
        let withBaselines = try ExperimentResolver.resolve(text: config(rows: "[1000000]", baselines: "[sqlite, sqlite-analyzed]"), file: "c.yaml")
        let memoryEstimate = try Shape.documents.estimatedMemory(rows: 1_000_000, use: .load(.memory))
        // Just enough for the memory tables alone: the run with both SQLite copies does not fit.
        let enough = MachineMemory(availableBytes: memoryEstimate, source: "test")
        XCTAssertNoThrow(try MachineCheck.checkMemory(memoryOnly, cells: memoryOnly.cells, file: "c.yaml", memory: enough))
        XCTAssertThrowsError(try MachineCheck.checkMemory(withBaselines, cells: withBaselines.cells, file: "c.yaml", memory: enough)) {
            XCTAssertTrue("\($0)".contains("memory, sqlite, sqlite-analyzed"), "\($0)")
        }
    }

    func testAQuerySQLiteWouldRefuseIsRefusedOnlyWhenABaselineRunsIt() throws {
        let levels = (1...13).map { "      let b\($0) = b\($0 - 1) join b\($0 - 1)" }.joined(separator: "\n")
        let query = "|\n      let b0 = documents join documents\n\(levels)\n      output b13"
        let found = error(config(query: query, baselines: "[sqlite]"))
        XCTAssertEqual(found?.keyPath, "queries[0].text")
        XCTAssertEqual(found?.line, 8)
        XCTAssertEqual(found.map { $0.message.contains("query 'q'") && $0.message.contains("16384 table references") }, true,
                       "\(String(describing: found))")
        // The testbed's own engine runs it.
        XCTAssertNil(error(config(query: query)))
    }
}
