import FileSupport
import PlistStore
import Relational

/// How a dataset's tables are laid out as property lists: every table one file, every
/// table one directory of row files, or a database mixing both (tables of more than
/// `PlistLayout.directoryThreshold` rows as directories, smaller ones as files). Named as
/// the backends that load them.
public enum PlistLayout: String, CaseIterable, Sendable {
    case file = "plist-file"
    case directory = "plist-directory"
    case database = "plist-database"

    public static let directoryThreshold = 1000

    func kind(rows: Int) -> PlistRelationDeclaration.Kind {
        switch self {
        case .file: return .file
        case .directory: return .directory
        case .database: return rows > Self.directoryThreshold ? .directory : .file
        }
    }
}

/// Writes streamed tables as relations of a property-list database in `root`: each table
/// becomes a file or directory relation as the layout says, its key being the header's
/// primary key (the whole row when it has none); `finish` lists them in `database.plist`.
/// A directory relation is saved chunk by chunk, so memory stays bounded.
final class PlistTableSink: TableSink {
    private let root: String
    private let layout: PlistLayout
    private var declarations: [PlistRelationDeclaration] = []
    private var current: (any PlistRelation)?

    init(root: String, layout: PlistLayout) {
        self.root = root
        self.layout = layout
    }

    func begin(_ table: TableHeader) throws {
        let key = table.primaryKey.isEmpty ? table.scheme.attributes : table.primaryKey
        let d = PlistRelationDeclaration(name: table.name, kind: layout.kind(rows: table.rowCount), scheme: table.scheme, primaryKey: key)
        let path = FileSystem.join(root, d.relativePath)
        switch d.kind {
        case .file: current = try PlistFileRelation(path: path, name: d.name, scheme: d.scheme, primaryKey: key, create: true)
        case .directory: current = try PlistDirectoryRelation(path: path, name: d.name, scheme: d.scheme, primaryKey: key, create: true)
        }
        declarations.append(d)
    }

    func write(_ rows: [Row]) throws {
        guard let current else { throw WorkloadError.output("rows written outside a table") }
        try current.insertRows(rows)
        if current is PlistDirectoryRelation { try current.save() }
    }

    func end() throws {
        try current?.save()
        current = nil
    }

    func finish() throws {
        try PlistDatabase.writeManifest(root, declarations)
    }
}

/// A property-list database directory being written by `testbed generate --plist`: built
/// under a temporary sibling name and renamed into place when complete, so the directory
/// is either the whole dataset or absent.
public struct PlistDestination: Sendable {
    public let directory: String
    public let layout: PlistLayout

    public init(directory: String, layout: PlistLayout) {
        self.directory = directory
        self.layout = layout
    }

    @discardableResult
    public func write(_ body: (TableSink) throws -> DatasetOverview) throws -> DatasetOverview {
        try publishDirectory(directory, describedAs: "property-list directory", removing: FileSystem.removeTree) { temporary in
            let sink = PlistTableSink(root: temporary, layout: layout)
            let overview = try body(sink)
            try sink.finish()
            return overview
        }
    }
}

/// A dataset written as property lists into a temporary directory and opened as query
/// sources: the backends `plist-file`, `plist-directory` and `plist-database`. The files
/// are removed when this object goes away. Or an existing database opened in place.
public final class PlistDataset {
    public let database: PlistDatabase
    public let catalog: RelationCatalog
    private let directory: TemporaryDirectory?

    public init(_ dataset: Dataset, layout: PlistLayout) throws {
        let directory = try TemporaryDirectory()
        let root = FileSystem.join(directory.path, "data")
        try FileSystem.makeDirectory(root)
        let sink = PlistTableSink(root: root, layout: layout)
        try dataset.stream(into: StreamingTableWriter(sink: sink, hashing: false))
        try sink.finish()
        self.directory = directory
        database = try PlistDatabase.open(root)
        catalog = RelationCatalog(sources: database.relations)
    }

    /// The database in `root` (as `testbed generate --plist` writes it), read in place.
    public init(opening root: String) throws {
        directory = nil
        database = try PlistDatabase.open(root)
        catalog = RelationCatalog(sources: database.relations)
    }
}
