import Relational

/// Seed 000's pets: `pets(id, name, animal)` with ids 1...rows, `added` (new pets with ids
/// above rows) and `removed` (rows copied from `pets`, so `pets union added minus removed`
/// drops them). Parameters: `added` and `removed` counts (default 1% of rows, at least 1);
/// `added` is at most the largest row count (100 million), `removed` at most `rows`.
struct PetsGenerator: ShapeGenerator {
    static let parameterNames = ["added", "removed"]

    let request: GenerationRequest
    let addedCount: Int
    let removedCount: Int

    init(_ request: GenerationRequest) throws {
        self.request = request
        let (rows, parameters) = (request.rows, request.parameters)
        let onePercent = max(1, rows / 100)
        addedCount = try parameters.integer("added", default: onePercent, maximum: Shape.rowRange.upperBound)
        removedCount = try parameters.integer("removed", default: onePercent, maximum: rows)
    }

    func generate() throws -> Dataset {
        var random = SplitMix64Generator(seed: seed)
        func pet(_ id: Int) -> Row {
            let name = Vocabulary.petNames[random.index(below: Vocabulary.petNames.count)]
            // Cats and dogs dominate, as in the seed: half the draws pick between them.
            let animal = random.index(below: 2) == 0
                ? Vocabulary.animals[random.index(below: 2)]
                : Vocabulary.animals[random.index(below: Vocabulary.animals.count)]
            // Scheme order: animal, id, name.
            return Row([.text(animal), .integer(Int64(id)), .text(name)])
        }
        let pets = (1...rows).map { pet($0) }
        let added = addedCount == 0 ? [] : (1...addedCount).map { pet(rows + $0) }
        let removed = random.distinctIndices(removedCount, below: rows).sorted().map { pets[$0] }
        let scheme = try Scheme(["id", "name", "animal"])
        var statistics = DatasetStatistics()
        statistics.notes = ["added: \(added.count) new pets, removed: \(removed.count) existing pets"]
        return Dataset(
            shape: .pets, rowsRequested: rows, seed: seed, parameters: parameters,
            tables: [
                try DatasetTable(name: "pets", scheme: scheme, rows: pets, indexedAttributes: ["id", "animal"]),
                try DatasetTable(name: "added", scheme: scheme, rows: added, indexedAttributes: ["id"]),
                try DatasetTable(name: "removed", scheme: scheme, rows: removed, indexedAttributes: ["id"]),
            ],
            statistics: statistics)
    }
}
