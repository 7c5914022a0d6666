import FileSupport
import Relational

/// A whole relation in one binary property-list file, as the seed's `PlistFileRelation`:
/// opening reads the file into a memory table (indexed on the primary keys), queries run
/// on that table, changes are buffered there until `save()`, which rewrites the whole file
/// atomically (a temporary sibling renamed over it). The file is a dictionary of
/// `attributes` and `primaryKey` (names) and `rows` (arrays of values in attribute order).
public final class PlistFileRelation: PlistRelation {
    public let path: String
    public let primaryKey: [Attribute]
    private var table: MemoryTable
    public private(set) var hasUnsavedChanges = false
    public private(set) var filesOpened = 0

    public var scheme: Scheme { table.scheme }
    public var sourceName: String { table.sourceName }
    public var count: Int { table.count }

    /// Opens `path`; a missing file is an empty relation with `create` (written by the first
    /// save), an error otherwise. An existing file must have this scheme.
    public init(path: String, name: String, scheme: Scheme, primaryKey: [Attribute], create: Bool) throws {
        self.path = path
        self.primaryKey = primaryKey
        table = try MemoryTable(name: name, scheme: scheme, indexedAttributes: primaryKey)
        if let bytes = try PlistFiles.readIfPresent(path) {
            filesOpened = 1
            let (stored, key, rows) = try Self.decode(bytes, path: path)
            guard stored == scheme, key == primaryKey else {
                throw PlistError(path, "holds scheme \(stored) with key [\(key.map(\.name).joined(separator: ", "))], "
                    + "expected \(scheme) with key [\(primaryKey.map(\.name).joined(separator: ", "))]")
            }
            try table.add(contentsOf: rows)
        } else if !create {
            throw PlistError(path, "does not exist")
        } else {
            hasUnsavedChanges = true
        }
    }

    /// Opens an existing file, taking the scheme and key from it.
    public init(path: String, name: String) throws {
        self.path = path
        let bytes = try PlistFiles.read(path)
        filesOpened = 1
        let (scheme, key, rows) = try Self.decode(bytes, path: path)
        primaryKey = key
        table = try MemoryTable(name: name, scheme: scheme, indexedAttributes: key)
        try table.add(contentsOf: rows)
    }

    public func resetStatistics() {
        filesOpened = 0
        table.resetStatistics()
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor { try table.makeCursor(filter: filter) }
    public func canFetchSelectively(_ filter: Predicate) -> Bool { table.canFetchSelectively(filter) }
    public func estimatedCount(filter: Predicate?) -> Int? { table.estimatedCount(filter: filter) }
    public var allRows: [Row] { table.allRows }

    public func insertRows(_ rows: [Row]) throws {
        try table.insertRows(rows)
        if !rows.isEmpty { hasUnsavedChanges = true }
    }

    public func removeRows(_ rows: [Row]) throws {
        try table.removeRows(rows)
        if !rows.isEmpty { hasUnsavedChanges = true }
    }

    public func save() throws {
        guard hasUnsavedChanges else { return }
        try PlistFiles.writeAtomically(Self.encode(scheme: scheme, primaryKey: primaryKey, rows: table.allRows), to: path)
        hasUnsavedChanges = false
    }

    /// The file was deleted from outside: the relation is now empty (and saved so).
    public func deleteLocalFile(_ file: String) throws -> [Row]? {
        guard file == path else { return nil }
        let removed = table.allRows
        try PlistFiles.remove(path)
        table = try MemoryTable(name: table.sourceName, scheme: scheme, indexedAttributes: primaryKey)
        hasUnsavedChanges = false
        return removed
    }

    static func encode(scheme: Scheme, primaryKey: [Attribute], rows: [Row]) -> [UInt8] {
        let body = rows.map { PlistObject.array($0.values.map(PlistValueCoding.object)) }
        return BinaryPlistWriter.encode(.dictionary(PlistMetadata.fields(scheme: scheme, primaryKey: primaryKey) + [("rows", .array(body))]))
    }

    static func decode(_ bytes: [UInt8], path: String) throws -> (Scheme, [Attribute], [Row]) {
        do {
            let root = try BinaryPlistReader.decode(bytes)
            let (scheme, key) = try PlistMetadata.read(root, otherKeys: ["rows"])
            guard case let .dictionary(pairs) = root, let body = pairs.first(where: { $0.0 == "rows" })?.1 else {
                throw PlistFormatError("'rows' is missing")
            }
            guard case let .array(items) = body else { throw PlistFormatError("'rows' is not an array") }
            var rows: [Row] = []
            rows.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                guard case let .array(cells) = item, cells.count == scheme.count else {
                    throw PlistFormatError("row \(i) is not an array of \(scheme.count) values")
                }
                var values: [Value] = []
                values.reserveCapacity(cells.count)
                for cell in cells {
                    guard let v = PlistValueCoding.value(cell) else { throw PlistFormatError("row \(i) holds a container, not a value") }
                    values.append(v)
                }
                rows.append(Row(values))
            }
            try checkKey(key, of: rows, scheme: scheme)
            return (scheme, key, rows)
        } catch let error as PlistFormatError {
            throw PlistError(path, error.problem)
        }
    }

    /// A relation is a set with a key: no two rows may share the key's values (the whole
    /// row when the key is empty), or queries would see both, as no backend can hold them.
    private static func checkKey(_ key: [Attribute], of rows: [Row], scheme: Scheme) throws {
        let positions = key.isEmpty ? Array(0..<scheme.count) : key.compactMap { scheme.index(of: $0) }
        var first: [Row: Int] = [:]
        first.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() {
            let value = row.picking(positions)
            guard let earlier = first.updateValue(i, forKey: value) else { continue }
            let shown = zip(positions, value.values).map { "\(scheme.attributes[$0].name) = \($1.displayText)" }
            throw PlistFormatError("row \(i) has the primary key (\(shown.joined(separator: ", "))) of row \(earlier); "
                + "a relation holds one row per key value")
        }
    }
}
