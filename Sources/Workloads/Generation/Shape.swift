import Relational

/// The workload shapes of the design's contract.
public enum Shape: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case documents
    case pets
    case todo
    case employees

    public var description: String { rawValue }

    /// The shape called `name`, or an error listing the shapes with a did-you-mean.
    public static func named(_ name: String) throws -> Shape {
        if let shape = Shape(rawValue: name) { return shape }
        throw WorkloadError.unknownShape(name, suggestion: closestMatch(to: name, among: allCases.map(\.rawValue)))
    }

    /// One line per shape for help text.
    public var summary: String {
        switch self {
        case .documents:
            return "documents(id, name, parent_id) hierarchy + selected_documents(id)"
        case .pets:
            return "pets(id, name, animal) with added and removed deltas (seed 000)"
        case .todo:
            return "items(item_id, title, status), tags(tag_id, name), item_tags, selected_item_ids (seed 000)"
        case .employees:
            return "employees(id, name), equipment(owner_id, serial_number, comment) (seed 001)"
        }
    }

    /// Parameter names this shape accepts, for validation and help.
    public var parameterNames: [String] {
        switch self {
        case .documents: return DocumentsGenerator.parameterNames
        case .pets: return PetsGenerator.parameterNames
        case .todo: return TodoGenerator.parameterNames
        case .employees: return EmployeesGenerator.parameterNames
        }
    }

    /// Generates the dataset. `rows` is the size of the shape's main table (documents,
    /// pets, items, employees); the others are sized by parameters.
    public func generate(rows: Int, seed: UInt64, parameters: ShapeParameters = ShapeParameters()) throws -> Dataset {
        guard rows >= 1 else { throw WorkloadError.badParameter(name: "rows", value: String(rows), expected: "an integer >= 1") }
        try parameters.requireOnly(parameterNames, shape: self)
        switch self {
        case .documents: return try DocumentsGenerator(rows: rows, seed: seed, parameters: parameters).generate()
        case .pets: return try PetsGenerator(rows: rows, seed: seed, parameters: parameters).generate()
        case .todo: return try TodoGenerator(rows: rows, seed: seed, parameters: parameters).generate()
        case .employees: return try EmployeesGenerator(rows: rows, seed: seed, parameters: parameters).generate()
        }
    }
}
