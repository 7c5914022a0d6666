/// What a dataset is about to be used for, which decides how much memory it takes.
public enum DatasetUse: Sendable, Equatable {
    /// Generated and held in memory (`Shape.generate`).
    case generate
    /// Generated in memory, then written to an SQLite file or CSV directory.
    case write
    /// Generated, then loaded as query sources into a backend (`LoadedDataset`).
    case load(Backend)
    /// Streamed to a file as it is generated (documents in parents-first order).
    case stream
}

/// Estimates of a dataset's peak resident memory, from its shape, rows and parameters alone,
/// before anything is generated. The model follows how the data is held: a dataset's tables
/// are column stores (`ColumnStore`: a tag byte and an 8-byte payload per value, each
/// distinct text once in its column's dictionary), which a memory table takes over without
/// copying, adding only its indexes. Generators that build `Row`s first (every shape but
/// documents) hold those rows, arrays of `Value`s, while the columns are built, so their
/// peak counts both. The generators' working arrays come on top. Calibrated against
/// `testbed-bench bulk-memory` (1M documents: 80 bytes a row resident after loading, 114
/// bytes a row at the peak) and the peak resident set of `testbed generate` (issue 9).
enum MemoryModel {
    /// A value in a column: its tag and payload.
    static let columnValue = 9
    /// A distinct text beside its bytes: its end offset and its dictionary slots.
    static let distinctText = 16
    /// A decoded row: its slot in `[Row]` (with growth slack) plus the malloc'd array of values.
    static func row(columns: Int) -> Int {
        switch columns {
        case 0: return 16
        case 1: return 16 + 64
        case 2: return 16 + 96
        default: return 16 + 112
        }
    }
    /// Text over 15 UTF-8 bytes in a decoded row lives on the heap (up to 31 bytes: one 64-byte block).
    static let longText = 64
    /// `Set<Value>` / dictionary entry, by capacity (power of two, at most 3/4 full).
    static func hashTable(entries: Int, bytesPerSlot: Int) -> Int {
        var capacity = 1
        while capacity * 3 / 4 < entries { capacity *= 2 }
        return capacity * bytesPerSlot
    }
    /// Per row and index of a memory table (`ColumnIndex`: a 4-byte chain link per row and
    /// 4-byte slots for the distinct values, at most 2/3 full).
    static let memoryTableIndexEntry = 12
    /// Per row of a memory table without a unique index: its membership slots.
    static let memoryTableMembership = 12
    /// Per row of an in-memory SQLite table with its indexes.
    static let sqliteRow = 110
    /// The process itself, libraries, SQLite's cache and the writers' buffers.
    static let baseline = 64 << 20
}

/// One table's expected size, for the estimate.
struct TableEstimate {
    let rows: Int
    let columns: Int
    /// Fraction (0...1) of rows holding one long (heap) text, while decoded rows exist.
    let longTextFraction: Double
    /// Bytes of distinct text per row in the columns (texts drawn from a small vocabulary
    /// are stored once and count as nothing).
    var distinctTextBytes = 0
    /// Whether the generator builds the table as rows before its columns.
    var builtAsRows = true
    /// Whether the SQLite writer checks the first indexed attribute for uniqueness with a
    /// set of all its values (it does for tables keyed by an id).
    let keyed: Bool
    let indexes: Int

    /// The table held as columns.
    var columnBytes: Int {
        let textBytes = distinctTextBytes == 0 ? 0 : distinctTextBytes + MemoryModel.distinctText
        return rows * (columns * MemoryModel.columnValue + textBytes)
    }

    /// The decoded rows a generator builds first (none when it writes columns).
    var rowBytes: Int {
        guard builtAsRows else { return 0 }
        return rows * MemoryModel.row(columns: columns) + Int(Double(rows) * longTextFraction) * MemoryModel.longText
    }

    var bytes: Int { columnBytes + rowBytes }

    /// What a memory table adds when it takes the columns over.
    var memoryTableBytes: Int {
        rows * (indexes * MemoryModel.memoryTableIndexEntry + MemoryModel.memoryTableMembership)
    }
}

extension Shape {
    /// Estimated peak resident bytes for `use` of this dataset; checks `rows` and every
    /// parameter as `validate` does first.
    public func estimatedMemory(rows: Int, parameters: ShapeParameters = ShapeParameters(), use: DatasetUse = .generate) throws -> Int {
        try generator(rows: rows, seed: 0, parameters: parameters).estimatedMemory(use: use)
    }

    /// Throws `WorkloadError.insufficientMemory` (exit 2 on the command line), giving the
    /// estimate and the machine's memory, when `use` of this dataset cannot fit. Call it
    /// before materializing a dataset: `generate` and `LoadedDataset` do; a config
    /// validator should for every size before it creates any output.
    public func checkFitsInMemory(
        rows: Int, parameters: ShapeParameters = ShapeParameters(), use: DatasetUse = .generate,
        memory: MachineMemory = .current()
    ) throws {
        try generator(rows: rows, seed: 0, parameters: parameters).checkFits(use: use, memory: memory)
    }
}

extension ShapeGenerator {
    func checkFits(use: DatasetUse, memory: MachineMemory) throws {
        let estimate = estimatedMemory(use: use)
        guard estimate > memory.availableBytes else { return }
        throw WorkloadError.insufficientMemory(
            activity: activity(use), estimate: estimate, memory: memory, hint: hint(use))
    }

    func estimatedMemory(use: DatasetUse) -> Int {
        let tables = tableEstimates
        let data = tables.reduce(0) { $0 + $1.bytes } + workingBytes
        switch use {
        case .generate:
            return MemoryModel.baseline + data
        case .stream:
            return MemoryModel.baseline + streamingBytes
        case .write:
            let keySet = tables.filter(\.keyed).map { MemoryModel.hashTable(entries: $0.rows, bytesPerSlot: 24) }.max() ?? 0
            return MemoryModel.baseline + data + keySet
        // A plist backend's files are written from the dataset; a file relation then holds
        // its rows as a memory table (a directory relation far less), so memory's bound holds.
        case .load(.memory), .load(.plistFile), .load(.plistDirectory), .load(.plistDatabase):
            return MemoryModel.baseline + data + tables.reduce(0) { $0 + $1.memoryTableBytes }
        case .load(.sqlite):
            let keySet = tables.filter(\.keyed).map { MemoryModel.hashTable(entries: $0.rows, bytesPerSlot: 24) }.max() ?? 0
            let database = tables.reduce(0) { $0 + $1.rows * MemoryModel.sqliteRow }
            return MemoryModel.baseline + data + keySet + database
        }
    }

    private func activity(_ use: DatasetUse) -> String {
        let params = parameters.description
        let what = "\(shapeName) with \(rows) rows" + (params.isEmpty ? "" : " (\(params))")
        switch use {
        case .generate: return "generating \(what) in memory"
        case .write: return "generating \(what) in memory to write it"
        case let .load(backend): return "loading \(what) into the \(backend.rawValue) backend"
        case .stream: return "streaming \(what)"
        }
    }

    private func hint(_ use: DatasetUse) -> String {
        if use == .generate && streamingSource != nil {
            return "use fewer rows (`testbed generate --sqlite FILE` or `--csv DIR` streams these parameters to a file without holding them)"
        }
        return "use fewer rows or smaller parameters"
    }
}

extension DocumentsGenerator {
    var shapeName: String { "documents" }

    var tableEstimates: [TableEstimate] {
        let longNames = max(0, rows - 999_999)  // "Document 1000000" and up: 16+ bytes
        let selected: Int
        switch selection {
        case let .count(k): selected = k
        case .subtree: selected = rows  // at worst a root's whole tree
        case .root: selected = 1
        }
        return [
            // Written as columns; every name ("Document 123456") is distinct.
            TableEstimate(rows: rows, columns: 3, longTextFraction: Double(longNames) / Double(rows),
                          distinctTextBytes: 16, builtAsRows: false, keyed: true, indexes: 2),
            TableEstimate(rows: selected, columns: 1, longTextFraction: 0, keyed: true, indexes: 1),
        ]
    }

    /// Parent links and ids (4 + 8 bytes a document), the tree builder's child counts,
    /// for `selected=subtree` the children lists (about 48 bytes a document), for
    /// `selected=root` the list of roots, and with `reals` or `null-names` the varied copy
    /// of the rows (about a row's slots, 80 bytes).
    var workingBytes: Int {
        var perRow = 4 + 8 + DocumentTree.bytesPerDocument
        if case .subtree = selection { perRow += 48 }
        if case .root = selection { perRow += 8 }
        if variants.isActive { perRow += 80 }
        if case let .count(k) = selection { return rows * perRow + k * 64 }
        return rows * perRow
    }

    /// The tree builder only (child counts, level tables) and the selection.
    var streamingBytes: Int {
        if case let .count(k) = selection { return rows / 2 * 4 + k * 80 }
        return workingBytes
    }

    var streamingSource: StreamingSource? {
        streams ? StreamingSource(rowsInValueOrder: true) { (try stream(into: $0), nil) } : nil
    }
}

extension PetsGenerator {
    var shapeName: String { "pets" }

    var tableEstimates: [TableEstimate] {
        [
            TableEstimate(rows: rows, columns: 3, longTextFraction: 0, keyed: true, indexes: 2),
            TableEstimate(rows: addedCount, columns: 3, longTextFraction: 0, keyed: true, indexes: 1),
            // Removed rows share their values with pets: only the slots.
            TableEstimate(rows: removedCount, columns: 0, longTextFraction: 0, keyed: true, indexes: 1),
        ]
    }

    /// The distinct-index draw for `removed` (a dictionary and the sorted indices), and with
    /// `reals` or `null-names` the varied copy of the rows.
    var workingBytes: Int { removedCount * 80 + (variants.isActive ? (rows + addedCount + removedCount) * 80 : 0) }
    /// One byte a pet (its name and animal) plus the removed draw.
    var streamingBytes: Int { rows + addedCount + removedCount * 80 }
    /// The variants are applied to the finished tables, so they do not stream.
    var streamingSource: StreamingSource? {
        variants.isActive ? nil : StreamingSource(rowsInValueOrder: false) { try stream(into: $0) }
    }
}

extension TodoGenerator {
    var shapeName: String { "todo" }

    var tableEstimates: [TableEstimate] {
        let perItem = min(perItem, tagCount)
        let itemTags = rows * perItem / 2
        return [
            TableEstimate(rows: rows, columns: 3, longTextFraction: 0.3, keyed: true, indexes: 1),
            TableEstimate(rows: tagCount, columns: 2, longTextFraction: 0, distinctTextBytes: 16, keyed: true, indexes: 1),
            TableEstimate(rows: itemTags, columns: 2, longTextFraction: 0, keyed: true, indexes: 2),
            TableEstimate(rows: selectedCount, columns: 1, longTextFraction: 0, keyed: true, indexes: 1),
        ]
    }

    var workingBytes: Int {
        selectedCount * 80 + min(perItem, tagCount) * 160
            + (variants.isActive ? (tagCount + rows * min(perItem, tagCount) / 2) * 80 : 0)
    }
    /// One byte an item plus the draws' working sets.
    var streamingBytes: Int { rows + workingBytes }
    /// The variants are applied to the finished tables, so they do not stream.
    var streamingSource: StreamingSource? {
        variants.isActive ? nil : StreamingSource(rowsInValueOrder: false) { try stream(into: $0) }
    }
}

extension EmployeesGenerator {
    var shapeName: String { "employees" }

    var tableEstimates: [TableEstimate] {
        [
            TableEstimate(rows: rows, columns: 2, longTextFraction: 0.2, distinctTextBytes: 16, keyed: true, indexes: 1),
            TableEstimate(rows: rows * maxEquipment / 2, columns: 3, longTextFraction: 0, distinctTextBytes: 10, keyed: true, indexes: 2),
        ]
    }

    var workingBytes: Int { 0 }
    var streamingBytes: Int { 0 }
    var streamingSource: StreamingSource? { nil }
}

extension Dataset {
    /// Refuses loading this (already generated) dataset into `backend` when the memory the
    /// load adds does not fit in what is available now.
    public func checkLoadFits(into backend: Backend, memory: MachineMemory = .current()) throws {
        let generator = try shape.generator(rows: rowsRequested, seed: seed, parameters: parameters)
        let extra = generator.estimatedMemory(use: .load(backend)) - generator.estimatedMemory(use: .generate)
        guard extra > memory.availableBytes else { return }
        throw WorkloadError.insufficientMemory(
            activity: "loading \(shape) with \(rowsRequested) rows into the \(backend.rawValue) backend",
            estimate: extra, memory: memory, hint: "use fewer rows or smaller parameters")
    }
}
