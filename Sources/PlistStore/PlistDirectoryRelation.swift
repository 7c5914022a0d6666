import FileSupport
import Relational

/// A relation stored as one binary property-list file per row, in a directory, as the
/// seed's `PlistDirectoryRelation`: a row's file is `<dir>/<ab>/<sha256>.rowplist`, where
/// the hash is `RowKey`'s of the row's primary-key value and `<ab>` its first two hex
/// digits. `relation.plist` in the directory records the scheme and key.
///
/// Reading: a filter that implies values for the key (`id == 3`, `id in {…}`, an OR of
/// such) opens only those values' files; any other filter opens every file. `filesOpened`
/// counts files read since the relation was opened (or `resetStatistics`), and the
/// estimates say the same: the number of key values for a key filter, every row otherwise.
/// Each file read is checked: it must hold a row of the scheme whose key hashes to the
/// file's name.
///
/// Changes are buffered in memory (`hasUnsavedChanges`) until `save()`, which writes them
/// atomically (see `PlistDirectoryJournal`). The key is one attribute, as in the seed, or,
/// for tables where no attribute is unique, every attribute (the row is its own key).
public final class PlistDirectoryRelation: PlistRelation {
    public let scheme: Scheme
    public let sourceName: String
    public let path: String
    public let primaryKey: [Attribute]
    private let keyPositions: [Int]

    /// Row files on disk (by name stem), as of opening or the last save.
    private var stems: Set<String>
    private var sortedStems: [String]?
    private var pending: [String: PendingRow] = [:]
    public private(set) var count: Int

    public private(set) var filesOpened = 0
    public private(set) var rowsDelivered = 0
    /// Tests: crash the next save after this many file operations.
    public var crashInjection: CrashInjection?

    /// Key value sets larger than this are fetched by a scan instead.
    public static let keyLookupLimit = 100_000
    public static let fileExtension = "rowplist"
    public static let metadataName = "relation.plist"
    static let journalName = PlistDirectoryJournal.directoryName

    enum PendingRow {
        case write(Row)
        case delete
    }

    /// Opens the relation in `path`, finishing or discarding an interrupted save first.
    /// With `create`, a missing directory is made (with its `relation.plist`); otherwise it
    /// must exist. An existing relation must have this scheme and key.
    public init(path: String, name: String, scheme: Scheme, primaryKey: [Attribute], create: Bool) throws {
        guard !primaryKey.isEmpty, Set(primaryKey).count == primaryKey.count else {
            throw PlistError(path, "a directory relation needs a primary key of distinct attributes")
        }
        self.path = path
        self.sourceName = name
        self.scheme = scheme
        self.primaryKey = primaryKey
        keyPositions = try primaryKey.map { a in
            guard let i = scheme.index(of: a) else { throw PlistError(path, "primary key '\(a)' is not in the scheme \(scheme)") }
            return i
        }
        let metadata = FileSystem.join(path, Self.metadataName)
        // Inside a database, a relation's directory that links elsewhere would have its
        // journal replayed, and files moved and deleted, outside the database.
        if FileSystem.isSymbolicLink(path) {
            throw PlistError(path, "is a symbolic link, not a relation directory of the database's own; left as it is")
        }
        if !FileSystem.isDirectory(path) {
            guard create else { throw PlistError(path, "is not a property-list directory relation (no such directory)") }
            try PlistFiles.makeDirectories(path)
        }
        if let bytes = try PlistFiles.readIfPresent(metadata) {
            let (stored, key) = try PlistMetadata.decode(bytes, path: metadata)
            guard stored == scheme, key == primaryKey else {
                throw PlistError(metadata, "holds scheme \(stored) with key [\(key.map(\.name).joined(separator: ", "))], "
                    + "expected \(scheme) with key [\(primaryKey.map(\.name).joined(separator: ", "))]")
            }
        } else {
            guard create else { throw PlistError(metadata, "does not exist: \(Printable.quoted(path)) is not a directory relation") }
            try PlistFiles.writeAtomically(PlistMetadata.encode(scheme: scheme, primaryKey: primaryKey), to: metadata)
        }
        let positions = keyPositions
        try PlistDirectoryJournal.recover(in: path) { file, stem, bytes in
            _ = try Self.decodeRow(bytes, file: file, stem: stem, scheme: scheme, keyPositions: positions)
        }
        stems = try Self.listStems(path)
        count = stems.count
    }

    /// Opens an existing relation, reading its scheme and key from `relation.plist`.
    public convenience init(path: String, name: String) throws {
        let metadata = FileSystem.join(path, Self.metadataName)
        let (scheme, key) = try PlistMetadata.decode(try PlistFiles.read(metadata), path: metadata)
        try self.init(path: path, name: name, scheme: scheme, primaryKey: key, create: false)
    }

    public var hasUnsavedChanges: Bool { !pending.isEmpty }

    public func resetStatistics() {
        filesOpened = 0
        rowsDelivered = 0
    }

    // MARK: Reading

    public func canFetchSelectively(_ filter: Predicate) -> Bool {
        filter.isUnsatisfiable || keyStems(filter) != nil
    }

    public func estimatedCount(filter: Predicate?) -> Int? {
        guard let filter else { return count }
        if filter.isUnsatisfiable { return 0 }
        if let stems = keyStems(filter) { return min(count, stems.count) }
        return count
    }

    public func makeCursor(filter: Predicate?) throws -> any RowCursor {
        let compiled = try filter.map { try CompiledPredicate($0, scheme: scheme) }
        if let filter, filter.isUnsatisfiable { return ArrayCursor([]) }
        var buffered: [Row] = []
        var files: [String] = []
        if let filter, let candidates = keyStems(filter) {
            for stem in candidates {
                switch pending[stem] {
                case let .write(row)?: buffered.append(row)
                case .delete?: break
                case nil: if stems.contains(stem) { files.append(stem) }
                }
            }
        } else {
            for (_, p) in pending.sorted(by: { $0.key < $1.key }) { if case let .write(row) = p { buffered.append(row) } }
            files = allStems().filter { pending[$0] == nil }
        }
        return PlistDirectoryCursor(relation: self, buffered: buffered, files: files, filter: compiled)
    }

    /// Every row, read from its file or the buffer.
    public func allRows() throws -> [Row] { try fetchAll() }

    /// The stems of the files a key filter names, or nil when the filter does not pin the key.
    func keyStems(_ filter: Predicate) -> [String]? {
        let sets = filter.impliedValueSets
        var product = 1
        var columns: [[Value]] = []
        for a in primaryKey {
            guard let values = sets[a] else { return nil }
            product *= max(1, values.count)
            if values.isEmpty { return [] }
            guard product <= Self.keyLookupLimit else { return nil }
            columns.append(values.sorted { Value.compare($0, $1) < 0 })
        }
        var keys: [[Value]] = [[]]
        for column in columns { keys = keys.flatMap { prefix in column.map { prefix + [$0] } } }
        var seen = Set<String>()
        return keys.map { RowKey.fileStem($0) }.filter { seen.insert($0).inserted }
    }

    /// Reads and checks one row file (counted in `filesOpened`).
    func readRow(stem: String) throws -> Row {
        let file = filePath(stem)
        filesOpened += 1
        return try Self.decodeRow(try PlistFiles.read(file), file: file, stem: stem, scheme: scheme, keyPositions: keyPositions)
    }

    /// The row a row file holds, checked: a property list of the scheme's values whose key
    /// hashes to the file's name (`stem`).
    static func decodeRow(_ bytes: [UInt8], file: String, stem: String, scheme: Scheme, keyPositions: [Int]) throws -> Row {
        let row: Row
        do {
            row = try PlistValueCoding.row(try BinaryPlistReader.decode(bytes), scheme: scheme)
        } catch let error as PlistFormatError {
            throw PlistError(file, error.problem)
        }
        guard RowKey.fileStem(row.picking(keyPositions).values) == stem else {
            throw PlistError(file, "holds a row whose key does not hash to the file's name")
        }
        return row
    }

    func delivered(_ n: Int) { rowsDelivered += n }

    private func allStems() -> [String] {
        if let sortedStems { return sortedStems }
        let sorted = stems.sorted()
        sortedStems = sorted
        return sorted
    }

    func filePath(_ stem: String) -> String {
        FileSystem.join(FileSystem.join(path, String(stem.prefix(2))), stem + "." + Self.fileExtension)
    }

    // MARK: Changing rows (buffered until save)

    /// Buffers new rows. A row whose key another row (on disk or buffered) already holds is
    /// refused, and then nothing is buffered: one file per key value.
    public func insertRows(_ rows: [Row]) throws {
        var staged: [(String, Row)] = []
        var seen = Set<String>()
        for row in rows {
            guard row.count == scheme.count else {
                throw RelationError.rowWidth(expected: scheme.count, got: row.count, relation: sourceName)
            }
            let stem = RowKey.fileStem(row.picking(keyPositions).values)
            if !seen.insert(stem).inserted || isPresent(stem) {
                throw PlistError(path, "relation \(sourceName) already holds a row with the key of \(row.values); "
                    + "a directory relation stores one row per key value")
            }
            staged.append((stem, row))
        }
        for (stem, row) in staged {
            pending[stem] = .write(row)
            count += 1
        }
    }

    /// Buffers the removal of rows that are present.
    public func removeRows(_ rows: [Row]) throws {
        for row in rows {
            let stem = RowKey.fileStem(row.picking(keyPositions).values)
            guard isPresent(stem) else { continue }
            pending[stem] = stems.contains(stem) ? .delete : nil
            count -= 1
        }
    }

    private func isPresent(_ stem: String) -> Bool {
        switch pending[stem] {
        case .write?: return true
        case .delete?: return false
        case nil: return stems.contains(stem)
        }
    }

    // MARK: Saving

    /// Writes every buffered change atomically: after a crash at any point, opening the
    /// relation again shows all of them or none.
    public func save() throws {
        guard !pending.isEmpty else { return }
        var writes: [(String, [UInt8])] = []
        var deletes: [String] = []
        for (stem, p) in pending.sorted(by: { $0.key < $1.key }) {
            switch p {
            case let .write(row): writes.append((stem, BinaryPlistWriter.encode(PlistValueCoding.rowObject(row, scheme: scheme))))
            case .delete: deletes.append(stem)
            }
        }
        try PlistDirectoryJournal(directory: path, crash: crashInjection).commit(writes: writes, deletes: deletes)
        for (stem, _) in writes { stems.insert(stem) }
        for stem in deletes { stems.remove(stem) }
        sortedStems = nil
        pending = [:]
    }

    /// Drops buffered changes.
    public func discardChanges() {
        pending = [:]
        count = stems.count
    }

    /// Applies a file deleted from outside (cloud sync): the row `file` held is gone, from
    /// disk and from the buffer. Returns the rows removed, or nil when `file` is not one of
    /// this relation's row files.
    public func deleteLocalFile(_ file: String) throws -> [Row]? {
        let prefix = path.hasSuffix("/") ? path : path + "/"
        guard file.hasPrefix(prefix) else { return nil }
        let parts = file.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        let suffix = "." + Self.fileExtension
        guard parts.count == 2, parts[1].hasSuffix(suffix) else { return nil }
        let stem = String(parts[1].dropLast(suffix.count))
        guard Self.isStem(stem), parts[0] == stem.prefix(2) else { return nil }
        var removed: [Row] = []
        if stems.contains(stem) {
            if pending[stem] == nil, let row = try? readRow(stem: stem) { removed.append(row) }
            try PlistFiles.remove(filePath(stem))
            stems.remove(stem)
            sortedStems = nil
            if pending[stem] == nil { count -= 1 }
            if case .delete? = pending[stem] { pending[stem] = nil }
        }
        return removed
    }

    // MARK: Listing

    static func isStem<S: StringProtocol>(_ s: S) -> Bool {
        s.utf8.count == 64 && s.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// The row files' stems. Entries that are not two-hex-digit directories or row files
    /// are ignored, except a `.rowplist` file in the wrong place or with a bad name.
    /// Every row file's stem. Anything else that is not hidden (temporaries and the journal
    /// start with `.`) is refused rather than skipped: a shard directory misnamed `BB`, a row
    /// file at the top, or a file where a shard belongs held rows that silently went missing.
    /// A shard directory that is a symbolic link is refused too (a journal's replay would
    /// move and delete files through it, outside the database).
    private static func listStems(_ path: String) throws -> Set<String> {
        guard let top = FileSystem.entries(of: path) else { throw PlistError(path, "cannot be listed") }
        var out = Set<String>()
        let suffix = "." + fileExtension
        for name in top where name != metadataName && !name.hasPrefix(".") {
            let directory = FileSystem.join(path, name)
            guard isShardName(name) else {
                throw PlistError(directory, "is not part of a directory relation (\(metadataName), .journal and shard directories "
                    + "named by two lower-case hex digits)")
            }
            try refuseLinkedShard(directory)
            guard FileSystem.isDirectory(directory) else { throw PlistError(directory, "is not a shard directory") }
            guard let files = FileSystem.entries(of: directory) else { throw PlistError(directory, "cannot be listed") }
            for file in files where !file.hasPrefix(".") {
                guard file.hasSuffix(suffix) else {
                    throw PlistError(FileSystem.join(directory, file), "is not a row file (<sha256>.rowplist)")
                }
                let stem = String(file.dropLast(suffix.count))
                guard isStem(stem), stem.hasPrefix(name) else {
                    throw PlistError(FileSystem.join(directory, file), "is not named <sha256>.rowplist under its first two digits")
                }
                out.insert(stem)
            }
        }
        return out
    }

    static func isShardName(_ name: String) -> Bool {
        name.utf8.count == 2 && isStem(name + String(repeating: "0", count: 62))
    }

    static func refuseLinkedShard(_ directory: String) throws {
        if FileSystem.isSymbolicLink(directory) {
            throw PlistError(directory, "is a symbolic link, not a shard directory of the relation's own; left as it is")
        }
    }
}

/// Delivers a directory relation's rows: buffered rows first, then files one by one, each
/// read only when the cursor gets to it.
final class PlistDirectoryCursor: RowCursor {
    private let relation: PlistDirectoryRelation
    private var buffered: [Row]
    private let files: [String]
    private let filter: CompiledPredicate?
    private var position = 0

    init(relation: PlistDirectoryRelation, buffered: [Row], files: [String], filter: CompiledPredicate?) {
        self.relation = relation
        self.buffered = buffered.reversed()
        self.files = files
        self.filter = filter
    }

    func next(maxRows: Int) throws -> [Row] {
        var out: [Row] = []
        let limit = max(1, maxRows)
        while out.count < limit, let row = buffered.popLast() {
            if filter?.matches(row) ?? true { out.append(row) }
        }
        while out.count < limit && position < files.count {
            let row = try relation.readRow(stem: files[position])
            position += 1
            if filter?.matches(row) ?? true { out.append(row) }
        }
        relation.delivered(out.count)
        return out
    }
}
