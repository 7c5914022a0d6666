import XCTest
import Relational
@testable import Workloads

/// Datasets are sized before they are generated, and refused when they cannot fit.
final class MemoryEstimateTests: XCTestCase {
    private let oneGB = MachineMemory(availableBytes: 1_000_000_000, source: "test")

    private func refusal(_ body: () throws -> Void) -> (message: String, estimate: Int)? {
        do {
            try body()
            return nil
        } catch let WorkloadError.insufficientMemory(_, estimate, memory, _) {
            XCTAssertEqual(memory, oneGB)
            return ("\(WorkloadError.insufficientMemory(activity: "x", estimate: estimate, memory: memory, hint: "h"))", estimate)
        } catch {
            XCTFail("expected insufficientMemory, got \(error)")
            return nil
        }
    }

    func testOversizeRequestsAreRefusedBeforeGeneratingWithTheEstimateAndTheMemory() throws {
        // The issue's cases, all within the documented parameter limits.
        do {
            _ = try Shape.pets.generate(rows: 1000, seed: 1, parameters: ShapeParameters(["added": "100000000"]), memory: oneGB)
            XCTFail("pets added=100000000 must be refused with 1 GB")
        } catch let error as WorkloadError {
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("generating pets with 1000 rows (added=100000000) in memory needs about "), text)
            XCTAssertTrue(text.contains(" GB of memory (estimated), more than the 1.0 GB available (test); "), text)
        }
        let todo = try Shape.todo.estimatedMemory(rows: 10_000_000, parameters: ShapeParameters(["tags": "10000000"]))
        XCTAssertGreaterThan(todo, 1_000_000_000)
        XCTAssertNotNil(refusal { _ = try Shape.todo.generate(rows: 10_000_000, seed: 1, parameters: ShapeParameters(["tags": "10000000"]), memory: oneGB) })
        XCTAssertNotNil(refusal { _ = try Shape.documents.generate(rows: 100_000_000, seed: 1, memory: oneGB) })
        XCTAssertNotNil(refusal { try Shape.employees.checkFitsInMemory(rows: 100_000_000, parameters: ShapeParameters(["max-equipment": "1000"]), memory: oneGB) })
    }

    /// `query`, `plan` and `verify` check the load before generating: a dataset that fits in
    /// memory on its own but not with its load is refused with the whole load's estimate
    /// (the check after generating would give only what the load adds, after minutes of work).
    func testALoadThatCannotFitIsRefusedBeforeGenerating() throws {
        // A size in the window where generating fits and generating plus loading does not
        // (a memory table adds only its indexes to the generated columns, so it is narrow).
        let sizes = stride(from: 1_000_000, through: 20_000_000, by: 500_000)
        let window = try sizes.first { rows in
            try Shape.documents.estimatedMemory(rows: rows, use: .generate) < oneGB.availableBytes
                && Shape.documents.estimatedMemory(rows: rows, use: .load(.memory)) > oneGB.availableBytes
        }
        let rows = try XCTUnwrap(window, "no documents size fits in 1 GB generated but not loaded")
        let loaded = try Shape.documents.estimatedMemory(rows: rows, use: .load(.memory))
        do {
            _ = try LoadedDataset.generate(.documents, rows: rows, seed: 1, backend: .memory, memory: oneGB)
            XCTFail("a load estimated at \(loaded) bytes must be refused with 1 GB")
        } catch let WorkloadError.insufficientMemory(activity, estimate, _, _) {
            XCTAssertEqual(activity, "loading documents with \(rows) rows into the memory backend")
            XCTAssertEqual(estimate, loaded)
        }
        XCTAssertEqual(try LoadedDataset.generate(.documents, rows: 50, seed: 1, backend: .sqlite, memory: oneGB).dataset.rowsRequested, 50)
    }

    func testTheMessageGivesBothFigures() {
        let error = WorkloadError.insufficientMemory(
            activity: "generating documents with 100000000 rows in memory", estimate: 21_345_000_000,
            memory: MachineMemory(availableBytes: 8_012_000_000, source: "MemAvailable in /proc/meminfo"), hint: "use fewer rows")
        XCTAssertEqual("\(error)",
            "generating documents with 100000000 rows in memory needs about 21.3 GB of memory (estimated), more than the "
            + "8.0 GB available (MemAvailable in /proc/meminfo); use fewer rows")
        XCTAssertEqual(MachineMemory.format(512_400_000), "512 MB")
    }

    func testWhatFitsIsNotRefused() throws {
        XCTAssertNoThrow(try Shape.documents.checkFitsInMemory(rows: 100_000, memory: oneGB))
        XCTAssertNoThrow(try Shape.todo.generate(rows: 1000, seed: 1, memory: oneGB))
        // Streaming the documented maximum fits where holding it does not.
        XCTAssertNoThrow(try Shape.documents.checkFitsInMemory(rows: 100_000_000, use: .stream, memory: oneGB))
        XCTAssertNotNil(refusal { try Shape.documents.checkFitsInMemory(rows: 100_000_000, use: .generate, memory: oneGB) })
    }

    func testParametersThatNeedEveryRowInMemoryAreEstimatedAsSuch() throws {
        // Shuffled ids and subtree selection are written from memory, so their estimate is the
        // in-memory one and the write is refused when that does not fit.
        let plain = try Shape.documents.estimatedMemory(rows: 50_000_000, use: .stream)
        let shuffled = try Shape.documents.estimatedMemory(rows: 50_000_000, parameters: ShapeParameters(["order": "shuffled"]), use: .write)
        let subtree = try Shape.documents.estimatedMemory(rows: 50_000_000, parameters: ShapeParameters(["selected": "subtree"]), use: .write)
        XCTAssertGreaterThan(shuffled, 10 * plain)
        XCTAssertGreaterThan(subtree, shuffled)
        XCTAssertNotNil(refusal {
            _ = try Shape.documents.write(rows: 50_000_000, seed: 1, parameters: ShapeParameters(["order": "shuffled"]), to: nil, memory: oneGB)
        })
        // The estimate grows with the rows and with every size parameter.
        XCTAssertGreaterThan(try Shape.pets.estimatedMemory(rows: 1000, parameters: ShapeParameters(["added": "1000000"])),
                             try Shape.pets.estimatedMemory(rows: 1000))
        XCTAssertGreaterThan(try Shape.employees.estimatedMemory(rows: 1000, parameters: ShapeParameters(["max-equipment": "100"])),
                             try Shape.employees.estimatedMemory(rows: 1000))
        XCTAssertGreaterThan(try Shape.todo.estimatedMemory(rows: 2000), try Shape.todo.estimatedMemory(rows: 1000))
    }

    func testLoadingIsCheckedAgainstWhatIsLeft() throws {
        let dataset = try Shape.documents.generate(rows: 1000, seed: 1)
        let none = MachineMemory(availableBytes: 1000, source: "test")
        for backend in Backend.allCases {
            XCTAssertThrowsError(try LoadedDataset(dataset, backend: backend, memory: none)) { error in
                XCTAssertTrue("\(error)".hasPrefix("loading documents with 1000 rows into the \(backend.rawValue) backend needs about "), "\(error)")
            }
            XCTAssertNoThrow(try LoadedDataset(dataset, backend: backend, memory: oneGB))
        }
    }

    func testMachineMemoryIsRead() {
        let memory = MachineMemory.current()
        XCTAssertGreaterThan(memory.availableBytes, 0)
        XCTAssertFalse(memory.source.isEmpty)
    }
}
