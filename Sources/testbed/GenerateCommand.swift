import ArgumentParser
import Workloads

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a deterministic dataset and write it as an SQLite file or CSV files.",
        discussion: """
            The same shape, rows, seed and parameters give byte-identical data on every machine; \
            the summary ends with the content hash. Without --sqlite or --csv only the summary is printed.

            Shapes and their --param keys:
              documents  roots=N|FRACTION fanout=uniform|fixed|zipf fanout-k=K zipf-max=M zipf-s=S
                         max-depth=D order=parents-first|shuffled selected=K|subtree
              pets       added=N removed=N
              todo       tags=N max-tags-per-item=N selected=N
              employees  max-equipment=N

            CSV encoding: one <table>.csv per table plus manifest.txt; null is an empty unquoted \
            field, text is always double-quoted ("" doubles a quote), numbers are bare, blobs are x'hex'.
            """
    )

    @Option(help: "documents | pets | todo | employees")
    var shape: String

    @Option(help: "Rows of the shape's main table (documents, pets, items, employees).")
    var rows: Int

    @Option(help: "Seed of the SplitMix64 generator.")
    var seed: UInt64 = 42

    @Option(help: "Write an SQLite database file.")
    var sqlite: String?

    @Option(help: "Write CSV files into this (new or empty) directory.")
    var csv: String?

    @Option(name: .customLong("param"), help: "Shape parameter key=value (repeatable).")
    var parameters: [String] = []

    @Flag(help: "Run ANALYZE after loading the SQLite file.")
    var analyze = false

    @Flag(help: "Replace an existing SQLite file.")
    var force = false

    func run() throws {
        if sqlite != nil && csv != nil { throw usageFailure("give either --sqlite FILE or --csv DIR, not both") }
        let dataset: Dataset
        do {
            let shape = try Shape.named(shape)
            let parameters = try ShapeParameters(assignments: parameters)
            dataset = try shape.generate(rows: rows, seed: seed, parameters: parameters)
        } catch let error as WorkloadError {
            throw usageFailure("\(error)")
        }
        do {
            if let sqlite {
                try dataset.writeSQLite(to: sqlite, analyze: analyze, replace: force)
                print("wrote SQLite database \(sqlite)" + (analyze ? " (analyzed)" : ""))
            } else if let csv {
                try dataset.writeCSV(to: csv)
                print("wrote CSV directory \(csv)")
            }
        } catch {
            throw usageFailure("\(error)")
        }
        print(dataset.summary(), terminator: "")
    }
}
