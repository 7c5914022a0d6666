import FileSupport
import Relational

/// How one relation of a property-list database is stored.
public struct PlistRelationDeclaration: Equatable, Sendable {
    public enum Kind: String, Sendable { case file, directory }

    public let name: String
    public let kind: Kind
    public let scheme: Scheme
    public let primaryKey: [Attribute]

    public init(name: String, kind: Kind, scheme: Scheme, primaryKey: [Attribute]) {
        self.name = name
        self.kind = kind
        self.scheme = scheme
        self.primaryKey = primaryKey
    }

    /// The relation's place under the database root: `<name>.plist` or `<name>/`.
    public var relativePath: String { kind == .file ? name + ".plist" : name }
}

/// A directory of relations, as the seed's `PlistDatabase`: each declared relation is a
/// `PlistFileRelation` (`<root>/<name>.plist`) or a `PlistDirectoryRelation`
/// (`<root>/<name>/`), and `database.plist` lists the declarations, so `open` needs only
/// the root. `saveRelations` saves every relation with buffered changes, each atomically.
public final class PlistDatabase {
    public static let manifestName = "database.plist"

    public let root: String
    public let declarations: [PlistRelationDeclaration]
    public let relations: [any PlistRelation]

    /// Creates a database in `root` (a missing or empty directory) with empty relations.
    public static func create(_ root: String, _ declarations: [PlistRelationDeclaration]) throws -> PlistDatabase {
        if FileSystem.exists(root) && !FileSystem.isEmptyDirectory(root) {
            throw PlistError(root, "already exists and is not an empty directory")
        }
        var names = Set<String>()
        for d in declarations {
            guard !d.name.isEmpty, !d.name.contains("/"), !d.name.hasPrefix("."), names.insert(d.name).inserted else {
                throw PlistError(root, "relation name '\(d.name)' is empty, repeated, hidden or holds a '/'")
            }
        }
        try PlistFiles.makeDirectories(root)
        try writeManifest(root, declarations)
        return try PlistDatabase(root, declarations, create: true)
    }

    /// Opens the database in `root`, finishing or discarding any interrupted save.
    public static func open(_ root: String) throws -> PlistDatabase {
        let path = FileSystem.join(root, manifestName)
        guard FileSystem.isDirectory(root) else {
            throw PlistError(root, "is not a property-list database (" + (FileSystem.exists(root) ? "a file, not a directory)" : "no such directory)"))
        }
        guard let bytes = try PlistFiles.readIfPresent(path) else {
            throw PlistError(path, "does not exist: \(Printable.quoted(root)) is not a property-list database")
        }
        let declarations: [PlistRelationDeclaration]
        do { declarations = try readManifest(try BinaryPlistReader.decode(bytes)) } catch let error as PlistFormatError {
            throw PlistError(path, error.problem)
        }
        return try PlistDatabase(root, declarations, create: false)
    }

    private init(_ root: String, _ declarations: [PlistRelationDeclaration], create: Bool) throws {
        self.root = root
        self.declarations = declarations
        relations = try declarations.map { d in
            let path = FileSystem.join(root, d.relativePath)
            switch d.kind {
            case .file: return try PlistFileRelation(path: path, name: d.name, scheme: d.scheme, primaryKey: d.primaryKey, create: create)
            case .directory: return try PlistDirectoryRelation(path: path, name: d.name, scheme: d.scheme, primaryKey: d.primaryKey, create: create)
            }
        }
    }

    public subscript(name: String) -> (any PlistRelation)? {
        declarations.firstIndex { $0.name == name }.map { relations[$0] }
    }

    public var hasUnsavedChanges: Bool { relations.contains { $0.hasUnsavedChanges } }

    /// Saves every relation with buffered changes, one after another, each atomically: a
    /// crash leaves each relation all old or all new. The first failure stops the save.
    public func saveRelations() throws {
        for r in relations where r.hasUnsavedChanges { try r.save() }
    }

    /// Applies a file deleted from outside the database (cloud sync): a file relation's file
    /// empties it, a directory relation's row file removes that row. Returns the rows
    /// removed, or nil (and does nothing) when `file` is not one of the database's files.
    public func deleteLocalFile(_ file: String) throws -> [Row]? {
        for r in relations { if let removed = try r.deleteLocalFile(file) { return removed } }
        return nil
    }

    /// Files read by all relations since opening (or their `resetStatistics`).
    public var filesOpened: Int { relations.reduce(0) { $0 + $1.filesOpened } }

    // MARK: Manifest

    /// Writes `database.plist` for relations already in `root` (a writer that creates the
    /// relations one by one, as `testbed generate --plist` does, lists them last).
    public static func writeManifest(_ root: String, _ declarations: [PlistRelationDeclaration]) throws {
        try PlistFiles.writeAtomically(manifest(declarations), to: FileSystem.join(root, manifestName))
    }

    private static func manifest(_ declarations: [PlistRelationDeclaration]) -> [UInt8] {
        BinaryPlistWriter.encode(.dictionary([("relations", .array(declarations.map { d in
            .dictionary([("name", .string(d.name)), ("kind", .string(d.kind.rawValue))]
                + PlistMetadata.fields(scheme: d.scheme, primaryKey: d.primaryKey))
        }))]))
    }

    private static func readManifest(_ object: PlistObject) throws -> [PlistRelationDeclaration] {
        guard case let .dictionary(pairs) = object, case let .array(items)? = pairs.first(where: { $0.0 == "relations" })?.1 else {
            throw PlistFormatError("no 'relations' array")
        }
        if let other = pairs.first(where: { $0.0 != "relations" }) {
            throw PlistFormatError("'\(Printable.escaped(other.0))' is not a key of this file; expected 'relations' alone")
        }
        guard pairs.count == 1 else { throw PlistFormatError("'relations' is given twice") }
        var names = Set<String>()
        return try items.enumerated().map { i, item in
            guard case let .dictionary(fields) = item,
                  case let .string(name)? = fields.first(where: { $0.0 == "name" })?.1,
                  case let .string(kindName)? = fields.first(where: { $0.0 == "kind" })?.1 else {
                throw PlistFormatError("relation \(i) lacks a 'name' or 'kind' string")
            }
            guard let kind = PlistRelationDeclaration.Kind(rawValue: kindName) else {
                throw PlistFormatError("relation '\(name)' has kind '\(kindName)'; expected file or directory")
            }
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), names.insert(name).inserted else {
                throw PlistFormatError("relation name '\(name)' is empty, repeated, hidden or holds a '/'")
            }
            let (scheme, key) = try PlistMetadata.read(item, otherKeys: ["name", "kind"])
            return PlistRelationDeclaration(name: name, kind: kind, scheme: scheme, primaryKey: key)
        }
    }
}
