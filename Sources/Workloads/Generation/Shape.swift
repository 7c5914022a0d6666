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

    /// The row counts every shape accepts: at least 1, at most 100 million. The cap keeps
    /// documents' parent links within their 32-bit indices and a request within what one
    /// machine can hold; larger counts are refused rather than left to run for hours.
    public static let rowRange = 1...100_000_000

    /// Checks `rows` and every parameter (names and ranges) exactly as `generate` does, but
    /// generates nothing; a config validator calls it for each size before creating output.
    /// The error names the parameter, the value given and what is allowed.
    public func validate(rows: Int, parameters: ShapeParameters = ShapeParameters()) throws {
        _ = try generator(rows: rows, seed: 0, parameters: parameters)
    }

    /// Generates the dataset. `rows` is the size of the shape's main table (documents,
    /// pets, items, employees); the others are sized by parameters. Every input is checked
    /// (as `validate` does) before any work starts.
    /// Refuses (`WorkloadError.insufficientMemory`) a dataset whose estimated size does not
    /// fit in the machine's available memory, before generating anything.
    public func generate(
        rows: Int, seed: UInt64, parameters: ShapeParameters = ShapeParameters(), memory: MachineMemory = .current()
    ) throws -> Dataset {
        let generator = try generator(rows: rows, seed: seed, parameters: parameters)
        try generator.checkFits(use: .generate, memory: memory)
        return try generator.generate()
    }

    func generator(rows: Int, seed: UInt64, parameters: ShapeParameters) throws -> any ShapeGenerator {
        guard Shape.rowRange.contains(rows) else {
            throw WorkloadError.outOfRange(
                name: "rows", value: String(rows), minimum: Shape.rowRange.lowerBound, maximum: Shape.rowRange.upperBound)
        }
        try parameters.requireOnly(parameterNames, shape: self)
        let request = GenerationRequest(rows: rows, seed: seed, parameters: parameters)
        switch self {
        case .documents: return try DocumentsGenerator(request)
        case .pets: return try PetsGenerator(request)
        case .todo: return try TodoGenerator(request)
        case .employees: return try EmployeesGenerator(request)
        }
    }
}

/// What a generator is asked for; `rows` is already within `Shape.rowRange`.
struct GenerationRequest {
    let rows: Int
    let seed: UInt64
    let parameters: ShapeParameters
}

/// A shape's generator: the initializer reads and range-checks every parameter (so
/// constructing one is the validation), and `generate` only does the work.
protocol ShapeGenerator {
    init(_ request: GenerationRequest) throws
    var request: GenerationRequest { get }
    func generate() throws -> Dataset

    // Memory (see MemoryEstimate.swift).
    var shapeName: String { get }
    /// The tables' expected row counts and layouts.
    var tableEstimates: [TableEstimate] { get }
    /// Working arrays of the in-memory generator beyond the tables.
    var workingBytes: Int { get }
    /// What the streaming writer holds (only meaningful when `streamingSource` is set).
    var streamingBytes: Int { get }
    /// Streams the tables in name order, rows in value order, as they are generated; nil
    /// when these parameters need the whole dataset in memory first.
    var streamingSource: StreamingSource? { get }
}

extension ShapeGenerator {
    var rows: Int { request.rows }
    var seed: UInt64 { request.seed }
    var parameters: ShapeParameters { request.parameters }
}
