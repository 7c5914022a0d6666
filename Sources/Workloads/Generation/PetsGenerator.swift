import Relational

/// Seed 000's pets: `pets(id, name, animal)` with ids 1...rows, `added` (new pets with ids
/// above rows) and `removed` (rows copied from `pets`, so `pets union added minus removed`
/// drops them). Parameters: `added` and `removed` counts (default 1% of rows, at least 1);
/// `added` is at most the largest row count (100 million), `removed` at most `rows`.
/// `reals` and `null-names` (`ValueVariants`): ids stored as equal reals in any of the three
/// tables (a removed row may hold `3.0` where `pets` holds `3`), and null names (a removed
/// row keeps its pet's null name, so nulls reach the difference's right side).
struct PetsGenerator: ShapeGenerator {
    static let parameterNames = ["added", "null-names", "reals", "removed"]

    let request: GenerationRequest
    let addedCount: Int
    let removedCount: Int
    let variants: ValueVariants

    init(_ request: GenerationRequest) throws {
        self.request = request
        let (rows, parameters) = (request.rows, request.parameters)
        let onePercent = max(1, rows / 100)
        addedCount = try parameters.integer("added", default: onePercent, maximum: Shape.rowRange.upperBound)
        removedCount = try parameters.integer("removed", default: onePercent, maximum: rows)
        variants = try ValueVariants(request)
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
        var pets = (1...rows).map { pet($0) }
        var added = addedCount == 0 ? [] : (1...addedCount).map { pet(rows + $0) }
        let removedIndices = random.distinctIndices(removedCount, below: rows).sorted()
        var removed = removedIndices.map { pets[$0] }
        if variants.isActive {
            // Scheme order: animal, id, name.
            var v = variants
            pets = pets.map { Row([$0[0], v.key($0[1]), v.name($0[2])]) }
            added = added.map { Row([$0[0], v.key($0[1]), v.name($0[2])]) }
            removed = removedIndices.map { Row([pets[$0][0], v.key(.integer(Int64($0 + 1))), pets[$0][2]]) }
        }
        let scheme = try Scheme(["id", "name", "animal"])
        var statistics = DatasetStatistics()
        statistics.notes = ["added: \(added.count) new pets, removed: \(removed.count) existing pets"] + variants.notes
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

extension PetsGenerator {
    /// One pet's random draws, as `generate` makes them: name index, then animal index.
    private static func draw(_ random: inout SplitMix64Generator) -> UInt8 {
        let name = random.index(below: Vocabulary.petNames.count)
        let animal = random.index(below: 2) == 0 ? random.index(below: 2) : random.index(below: Vocabulary.animals.count)
        return UInt8(animal * Vocabulary.petNames.count + name)
    }

    private static func row(id: Int, code: UInt8) -> Row {
        let (animal, name) = (Int(code) / Vocabulary.petNames.count, Int(code) % Vocabulary.petNames.count)
        return Row([.text(Vocabulary.animals[animal]), .integer(Int64(id)), .text(Vocabulary.petNames[name])])
    }

    /// Writes added, pets and removed (name order) in id order, as `generate` stores them,
    /// keeping one byte a pet; the content hash (rows in value order, animal first) is then
    /// computed from those bytes, one pass per animal.
    func stream(into writer: StreamingTableWriter) throws -> (statistics: DatasetStatistics, contentHashHex: String?) {
        var random = SplitMix64Generator(seed: seed)
        var codes = [UInt8]()
        codes.reserveCapacity(rows + addedCount)
        for _ in 0..<(rows + addedCount) { codes.append(Self.draw(&random)) }
        let removed = random.distinctIndices(removedCount, below: rows).sorted()

        let scheme = try Scheme(["id", "name", "animal"])
        let tables: [(name: String, indexed: [Attribute], ids: [Int])] = [
            ("added", ["id"], []), ("pets", ["id", "animal"], []), ("removed", ["id"], []),
        ]
        // id → index into `codes`: added are rows+1..., pets 1...rows, removed picked.
        func indices(_ table: String) -> AnySequence<Int> {
            switch table {
            case "added": return AnySequence(rows..<(rows + addedCount))
            case "pets": return AnySequence(0..<rows)
            default: return AnySequence(removed)
            }
        }
        func count(_ table: String) -> Int { table == "added" ? addedCount : table == "pets" ? rows : removed.count }
        for t in tables {
            try writer.begin(TableHeader(
                name: t.name, scheme: scheme, rowCount: count(t.name), indexedAttributes: t.indexed, primaryKey: ["id"]))
            for i in indices(t.name) { try writer.append(Self.row(id: i + 1, code: codes[i])) }
            try writer.end()
        }

        var hasher = ContentHasher()
        let animalsInOrder = Vocabulary.animals.indices.sorted { Vocabulary.animals[$0] < Vocabulary.animals[$1] }
        for t in tables {
            hasher.addHeader(table: t.name, scheme: scheme, rowCount: count(t.name))
            for animal in animalsInOrder {
                for i in indices(t.name) where Int(codes[i]) / Vocabulary.petNames.count == animal {
                    hasher.add(row: Self.row(id: i + 1, code: codes[i]))
                }
            }
        }
        var statistics = DatasetStatistics()
        statistics.notes = ["added: \(addedCount) new pets, removed: \(removed.count) existing pets"]
        return (statistics, hasher.hex)
    }
}
