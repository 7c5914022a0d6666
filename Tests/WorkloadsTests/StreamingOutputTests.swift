import XCTest
import Relational
import FileSupport
import SQLiteStore
@testable import Workloads

/// `generate --sqlite/--csv` streams documents in parents-first order: the files must be
/// byte for byte what the in-memory dataset writes, with at most one chunk of rows held.
final class StreamingOutputTests: XCTestCase {
    private var scratch = ""

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.path + "/streaming-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Parameter sets covering each fanout, the max-depth overflow and counted selections.
    private let streamedCases: [[String: String]] = [
        [:],
        ["fanout": "zipf", "zipf-max": "40"],
        ["fanout": "fixed", "fanout-k": "3", "roots": "1", "max-depth": "4"],
        ["roots": "5", "max-depth": "1"],
        ["selected": "12", "roots": "0.05"],
        ["order": "parents-first", "fanout-k": "9", "max-depth": "2"],
    ]

    /// The database the code before streaming wrote: `Dataset.load` in one go.
    private func referenceSQLite(_ dataset: Dataset, at path: String) throws {
        let database = try SQLiteDatabase(path: path, create: true)
        try database.executeScript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
        try dataset.load(into: database)
    }

    func testStreamedFilesEqualTheInMemoryDatasetsByteForByte() throws {
        for (n, params) in streamedCases.enumerated() {
            let parameters = ShapeParameters(params)
            let dataset = try Shape.documents.generate(rows: 3000, seed: 11, parameters: parameters)

            let referenceDB = scratch + "/ref\(n).sqlite"
            try referenceSQLite(dataset, at: referenceDB)
            let memoryDB = scratch + "/mem\(n).sqlite"
            try dataset.writeSQLite(to: memoryDB)
            let streamedDB = scratch + "/str\(n).sqlite"
            let report = try Shape.documents.write(
                rows: 3000, seed: 11, parameters: parameters, to: .sqlite(SQLiteDestination(path: streamedDB)), chunkRows: 97)
            XCTAssertTrue(report.streamed, "\(params)")
            XCTAssertEqual(try bytes(streamedDB), try bytes(referenceDB), "SQLite \(params)")
            XCTAssertEqual(try bytes(memoryDB), try bytes(referenceDB), "SQLite in memory \(params)")
            XCTAssertEqual(report.overview.summary(), dataset.summary(), "\(params)")

            let memoryCSV = scratch + "/mem\(n)", streamedCSV = scratch + "/str\(n)"
            try dataset.writeCSV(to: memoryCSV)
            _ = try Shape.documents.write(rows: 3000, seed: 11, parameters: parameters, to: .csv(CSVDestination(directory: streamedCSV)), chunkRows: 97)
            for file in ["documents.csv", "selected_documents.csv", "manifest.txt"] {
                XCTAssertEqual(try bytes(streamedCSV + "/" + file), try bytes(memoryCSV + "/" + file), "\(file) \(params)")
            }
        }
    }

    func testPinnedHashesAreTheSameStreamed() throws {
        let report = try Shape.documents.write(rows: 200, seed: 7, parameters: ShapeParameters(["roots": "3"]), to: nil, chunkRows: 16)
        XCTAssertTrue(report.streamed)
        XCTAssertEqual(report.overview.contentHashHex, "a8ab99b145325191")
        let todo = try Shape.todo.write(rows: 50, seed: 7, to: nil, chunkRows: 16)
        XCTAssertTrue(todo.streamed)
        XCTAssertEqual(todo.overview.contentHashHex, "11cfc8c655b72457")
        let pets = try Shape.pets.write(rows: 50, seed: 7, to: nil, chunkRows: 16)
        XCTAssertTrue(pets.streamed)
        XCTAssertEqual(pets.overview.contentHashHex, "6b9990bbeaaa227d")
    }

    func testStreamedPetsAndTodoEqualTheInMemoryDatasetsByteForByte() throws {
        let cases: [(Shape, [String: String])] = [
            (.pets, [:]), (.pets, ["added": "0"]), (.pets, ["removed": "0"]), (.pets, ["added": "900", "removed": "333"]),
            (.todo, [:]), (.todo, ["tags": "3000", "max-tags-per-item": "40"]), (.todo, ["max-tags-per-item": "1"]),
            (.todo, ["max-tags-per-item": "0", "selected": "77"]), (.todo, ["tags": "1", "max-tags-per-item": "1"]),
            (.todo, ["tags": "123"]),
        ]
        for (n, (shape, params)) in cases.enumerated() {
            let parameters = ShapeParameters(params)
            let dataset = try shape.generate(rows: 1000, seed: 21, parameters: parameters)
            let reference = scratch + "/pets-ref\(n).sqlite", streamed = scratch + "/pets\(n).sqlite"
            try referenceSQLite(dataset, at: reference)
            let report = try shape.write(
                rows: 1000, seed: 21, parameters: parameters, to: .sqlite(SQLiteDestination(path: streamed)), chunkRows: 64)
            XCTAssertTrue(report.streamed)
            XCTAssertLessThanOrEqual(report.maximumBufferedRows, 64)
            XCTAssertEqual(try bytes(streamed), try bytes(reference), "\(params)")
            XCTAssertEqual(report.overview.summary(), dataset.summary(), "\(params)")
            let memoryCSV = scratch + "/pets-mem\(n)", streamedCSV = scratch + "/pets-str\(n)"
            try dataset.writeCSV(to: memoryCSV)
            _ = try shape.write(rows: 1000, seed: 21, parameters: parameters, to: .csv(CSVDestination(directory: streamedCSV)), chunkRows: 64)
            for file in dataset.tables.map({ $0.name + ".csv" }) + ["manifest.txt"] {
                XCTAssertEqual(try bytes(streamedCSV + "/" + file), try bytes(memoryCSV + "/" + file), "\(file) \(params)")
            }
        }
    }

    func testOtherShapesAndParametersAreWrittenFromMemoryUnchanged() throws {
        let cases: [(Shape, [String: String])] = [
            (.documents, ["order": "shuffled"]), (.documents, ["selected": "subtree"]),
            (.employees, [:]), (.employees, ["max-equipment": "7"]),
        ]
        for (n, (shape, params)) in cases.enumerated() {
            let parameters = ShapeParameters(params)
            let dataset = try shape.generate(rows: 700, seed: 3, parameters: parameters)
            let reference = scratch + "/other-ref\(n).sqlite"
            try referenceSQLite(dataset, at: reference)
            let written = scratch + "/other\(n).sqlite"
            let report = try shape.write(rows: 700, seed: 3, parameters: parameters, to: .sqlite(SQLiteDestination(path: written)), chunkRows: 50)
            XCTAssertFalse(report.streamed, "\(shape) \(params)")
            XCTAssertEqual(try bytes(written), try bytes(reference), "\(shape) \(params)")
            XCTAssertEqual(report.overview.summary(), dataset.summary())
            XCTAssertLessThanOrEqual(report.maximumBufferedRows, 50)
        }
    }

    func testStreamingHoldsAtMostOneChunkOfRows() throws {
        let report = try Shape.documents.write(rows: 60_000, seed: 2, to: .csv(CSVDestination(directory: scratch + "/big")), chunkRows: 256)
        XCTAssertTrue(report.streamed)
        XCTAssertEqual(report.maximumBufferedRows, 256)
        // 60,000 documents and 1 selected id: 235 chunks of documents (234 full, one of 96), 1 of selected.
        XCTAssertEqual(report.chunksWritten, 236)
        // And the estimate of what streaming holds does not grow with the rows' values:
        // the documented maximum streams in a small fraction of what it takes in memory.
        let streamed = try Shape.documents.estimatedMemory(rows: 100_000_000, use: .stream)
        let inMemory = try Shape.documents.estimatedMemory(rows: 100_000_000, use: .generate)
        XCTAssertLessThan(streamed, 1_000_000_000)
        XCTAssertGreaterThan(inMemory, 8_000_000_000)  // columns: about 91 bytes a document
    }

    func testOrderCheckRefusesUnsortedStreams() throws {
        let writer = StreamingTableWriter(sink: DiscardingSink(), hashing: true)
        try writer.begin(TableHeader(name: "t", scheme: Scheme(["a"]), rowCount: 2, indexedAttributes: [], primaryKey: []))
        try writer.append(Row([2]))
        XCTAssertThrowsError(try writer.append(Row([1])))
    }
}

/// Failures while writing leave nothing behind: no target, no temporary sibling.
final class OutputFailureTests: XCTestCase {
    private struct Boom: Error {}

    private func scratchDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.path + "/output-failure-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Streams documents until `failAfter` chunks have gone to the sink, then throws.
    private func failingBody(failAfter: Int) -> (TableSink) throws -> DatasetOverview {
        { sink in
            let writer = StreamingTableWriter(sink: sink, chunkRows: 10, hashing: true)
            try writer.begin(TableHeader(name: "t", scheme: Scheme(["a"]), rowCount: 1000, indexedAttributes: ["a"], primaryKey: ["a"]))
            for i in 0..<1000 {
                if writer.chunksWritten == failAfter { throw Boom() }
                try writer.append(Row([.integer(Int64(i))]))
            }
            throw Boom()
        }
    }

    func testAFailedSQLiteWriteLeavesNothing() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertThrowsError(try SQLiteDestination(path: dir + "/x.sqlite").write(failingBody(failAfter: 5))) { error in
            XCTAssertEqual("\(error)", "cannot write SQLite database '\(dir)/x.sqlite' (nothing was left behind): Boom()")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
    }

    func testAFailedCSVWriteLeavesNothing() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertThrowsError(try CSVDestination(directory: dir + "/out").write(failingBody(failAfter: 5))) { error in
            XCTAssertEqual("\(error)", "cannot write CSV directory '\(dir)/out' (nothing was left behind): Boom()")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
        // An existing empty directory stays as it was.
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: false)
        XCTAssertThrowsError(try CSVDestination(directory: dir + "/empty").write(failingBody(failAfter: 2)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["empty"])
    }

    func testReplacingAnSQLiteFileThatFailsKeepsTheOldOne() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/keep.sqlite"
        try Shape.pets.generate(rows: 20, seed: 1).writeSQLite(to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SQLiteDestination(path: path, replace: true).write(failingBody(failAfter: 3)))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["keep.sqlite"])
    }

    func testOutputPathsAreCheckedWhereTheyEnter() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/file", contents: Data("x".utf8)))
        try FileManager.default.createDirectory(atPath: dir + "/full", withIntermediateDirectories: false)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/full/a", contents: Data()))
        func message(_ make: () throws -> DatasetOutput) -> String {
            do { _ = try make(); return "accepted" } catch { return "\(error)" }
        }
        XCTAssertEqual(message { try .csv(directory: "") }, "--csv: '' is empty; give a directory path")
        XCTAssertEqual(message { try .sqlite(path: "") }, "--sqlite: '' is empty; give a file path")
        XCTAssertEqual(message { try .sqlite(path: " ") }, "--sqlite: ' ' is blank; give a file path")
        XCTAssertEqual(message { try .csv(directory: "/") }, "--csv: '/' is the file-system root; give a directory below it")
        XCTAssertEqual(message { try .csv(directory: dir + "/file") }, "--csv: '\(dir)/file' is an existing file, not a directory")
        XCTAssertEqual(message { try .sqlite(path: dir) }, "--sqlite: '\(dir)' is an existing directory, not a file")
        XCTAssertEqual(message { try .sqlite(path: dir + "/file") }, "--sqlite: '\(dir)/file' already exists; pass --force to replace it")
        XCTAssertEqual(message { try .sqlite(path: dir + "/file", replace: true) }, "accepted")
        XCTAssertEqual(message { try .csv(directory: dir + "/full") }, "--csv: '\(dir)/full' already exists and is not empty; choose a new directory")
        XCTAssertEqual(message { try .sqlite(path: dir + "/missing/x.sqlite") },
            "--sqlite: '\(dir)/missing/x.sqlite' cannot be created: its directory '\(dir)/missing' does not exist")
        XCTAssertEqual(message { try .csv(directory: dir + "/missing/out/") },
            "--csv: '\(dir)/missing/out/' cannot be created: its directory '\(dir)/missing' does not exist")
        XCTAssertEqual(message { try .csv(directory: "a\u{1b}b") }, "--csv: 'a\\u{1b}b' contains a control character")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["file", "full"])
    }
}
