import Relational

/// Seed 001's employees: `employees(id, name)` (rows of them) and
/// `equipment(owner_id, serial_number, comment)`, each employee owning a uniform
/// 0...`max-equipment` (default 3, at most 1000) items. Serial numbers are unique.
struct EmployeesGenerator: ShapeGenerator {
    static let parameterNames = ["max-equipment"]
    /// Largest `max-equipment`: about 500 items per employee on average.
    static let maxEquipmentLimit = 1000

    let request: GenerationRequest
    let maxEquipment: Int

    init(_ request: GenerationRequest) throws {
        self.request = request
        maxEquipment = try request.parameters.integer("max-equipment", default: 3, maximum: Self.maxEquipmentLimit)
    }

    func generate() throws -> Dataset {
        var random = SplitMix64Generator(seed: seed)
        var employees: [Row] = []
        var equipment: [Row] = []
        employees.reserveCapacity(rows)
        var serial = 0
        for id in 1...rows {
            let first = Vocabulary.firstNames[random.index(below: Vocabulary.firstNames.count)]
            let last = Vocabulary.lastNames[random.index(below: Vocabulary.lastNames.count)]
            employees.append(Row([.integer(Int64(id)), .text("\(first) \(last)")]))
            for _ in 0..<random.index(below: maxEquipment + 1) {
                serial += 1
                let kind = Vocabulary.equipmentKinds[random.index(below: Vocabulary.equipmentKinds.count)]
                // Scheme order: comment, owner_id, serial_number.
                equipment.append(Row([.text(kind), .integer(Int64(id)), .text("SN-\(100_000 + serial)")]))
            }
        }
        var statistics = DatasetStatistics()
        statistics.notes = ["\(equipment.count) pieces of equipment"]
        return Dataset(
            shape: .employees, rowsRequested: rows, seed: seed, parameters: parameters,
            tables: [
                try DatasetTable(name: "employees", scheme: Scheme(["id", "name"]), rows: employees, indexedAttributes: ["id"]),
                try DatasetTable(
                    name: "equipment", scheme: Scheme(["owner_id", "serial_number", "comment"]), rows: equipment,
                    indexedAttributes: ["owner_id", "serial_number"]),
            ],
            statistics: statistics)
    }
}
