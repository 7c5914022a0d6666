#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport
import Relational

/// One query of the catalog: a `.rq` file whose first comment line says what it exercises
/// and whose `# shape: S` line names the dataset shape it needs.
public struct CatalogQuery: Sendable {
    public let name: String
    public let description: String
    public let shape: Shape?
    public let text: String
    public let path: String

    /// Reads the header of query text: the first `#` line is the description, a line
    /// `# shape: S` the shape. `text` is kept as `SourceText.normalized` gives it (no BOM,
    /// LF line ends), so the header and the parser read the same lines. An unknown or
    /// repeated shape is an error at its line and column.
    public init(name: String, text: String, path: String) throws {
        let text = SourceText.normalized(text)
        self.name = name
        self.text = text
        self.path = path
        var description = ""
        var shape: Shape?
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, raw) in lines.enumerated() {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard line.hasPrefix("#") else {
                if String(line).trimmed.isEmpty { continue }
                // Below the first statement it is an ordinary comment, and the file was then
                // said to have no `# shape:` line at all.
                if shape == nil, let late = lines[number...].firstIndex(where: { Self.isShapeLine($0) }) {
                    throw QueryError(file: path, position: SourcePosition(line: late + 1, column: 1),
                                     message: "a `# shape:` line belongs in the header, above the first statement (line \(number + 1))")
                }
                break
            }
            let comment = line.dropFirst().drop { $0 == " " || $0 == "\t" }
            if comment.hasPrefix("shape:") {
                let afterColon = comment.dropFirst("shape:".count)
                let value = String(afterColon).trimmed
                let column = raw.unicodeScalars.count - afterColon.drop { $0 == " " || $0 == "\t" }.unicodeScalars.count + 1
                let at = SourcePosition(line: number + 1, column: column)
                guard shape == nil else {
                    throw QueryError(file: path, position: at, message: "a second `# shape:` line; give the shape once")
                }
                guard let named = Shape(rawValue: value) else {
                    let suggestion = closestMatch(to: value, among: Shape.allCases.map(\.rawValue))
                        .map { "; did you mean '\($0)'?" } ?? ""
                    throw QueryError(file: path, position: at, message: "unknown shape \(Printable.quoted(value)) in the "
                        + "`# shape:` line\(suggestion) (expected one of: "
                        + Shape.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                }
                shape = named
            } else if description.isEmpty {
                description = String(comment).trimmed
            }
        }
        self.description = description
        self.shape = shape
    }

    private static func isShapeLine(_ raw: Substring) -> Bool {
        let line = raw.drop { $0 == " " || $0 == "\t" }
        return line.hasPrefix("#") && line.dropFirst().drop { $0 == " " || $0 == "\t" }.hasPrefix("shape:")
    }

    /// Parses the query against `catalog`; errors name this query's file.
    public func parse(catalog: RelationCatalog) throws -> Query {
        try Query.parse(text, catalog: catalog, file: path)
    }
}

/// The query catalog: every `*.rq` file of a directory (default `Workloads/queries`).
public enum QueryCatalog {
    public static let fileExtension = "rq"

    /// `$TESTBED_QUERIES` if set, else `Workloads/queries` under the working directory if
    /// it exists, else the one in the source tree this module was built from.
    public static var defaultDirectory: String {
        if let value = getenv("TESTBED_QUERIES") { return String(cString: value) }
        if FileSystem.kind(of: "Workloads/queries") == .directory { return "Workloads/queries" }
        var path = #filePath
        for _ in 0..<4 { path = FileSystem.parentDirectory(of: path) }
        return path + "/Workloads/queries"
    }

    /// Every catalog query, sorted by name. A directory that cannot be read, or holds no
    /// `.rq` file, is an error naming it: listing or verifying nothing is a mistake.
    public static func load(directory: String? = nil) throws -> [CatalogQuery] {
        // Where the directory came from, when the environment chose it: a stale or empty
        // `TESTBED_QUERIES` is then named, not just the path it holds.
        let origin = directory == nil && getenv("TESTBED_QUERIES") != nil ? " (from TESTBED_QUERIES)" : ""
        let directory = directory ?? defaultDirectory
        guard !directory.isEmpty else {
            throw WorkloadError.output("query catalog directory\(origin) is empty; give a directory, or unset TESTBED_QUERIES")
        }
        guard FileSystem.kind(of: directory) == .directory, let entries = FileSystem.entries(of: directory) else {
            let problem = FileSystem.kind(of: directory) == .missing ? "does not exist" : "is not a readable directory"
            throw WorkloadError.output("query catalog directory \(Printable.quoted(directory))\(origin) \(problem)")
        }
        let files = entries.filter { $0.hasSuffix(".\(fileExtension)") && $0.count > fileExtension.count + 1 }
        guard !files.isEmpty else {
            throw WorkloadError.output("query catalog directory \(Printable.quoted(directory))\(origin) holds no .\(fileExtension) files")
        }
        // Two file names that are one text in two Unicode forms (a composed and a decomposed
        // `é`) compare equal as Swift strings, so one would stand for the other.
        var seen: [String: String] = [:]
        for file in files {
            if let earlier = seen.updateValue(file, forKey: file) {
                throw WorkloadError.output("query catalog directory \(Printable.quoted(directory))\(origin) holds "
                    + "\(Printable.quoted(earlier)) and \(Printable.quoted(file)), one name in two Unicode forms; rename one")
            }
        }
        return try files.map { file in
            let path = FileSystem.join(directory, file)
            return try CatalogQuery(name: String(file.dropLast(fileExtension.count + 1)), text: FileSystem.readText(path), path: path)
        }.sorted { $0.name < $1.name }
    }

    /// Parses every query against its shape's tables, so that a catalog is checked whole
    /// before it is listed or run; the first error names file:line:column. A query without
    /// a `# shape:` line is refused at line 1, since its dataset could not be generated.
    public static func check(_ queries: [CatalogQuery]) throws {
        var probes: [Shape: RelationCatalog] = [:]
        for query in queries {
            guard let shape = query.shape else {
                throw QueryError(file: query.path, position: SourcePosition(line: 1, column: 1),
                                 message: "no `# shape:` line; a catalog query needs one to generate its dataset")
            }
            let relations = try probes[shape] ?? shape.parsingProbe()
            probes[shape] = relations
            _ = try query.parse(catalog: relations)
        }
    }

    /// A catalog query by name, or a query file by path (anything with `/` or ending `.rq`).
    public static func find(_ nameOrFile: String, directory: String? = nil) throws -> CatalogQuery {
        let bareName = !nameOrFile.contains("/") && !nameOrFile.hasSuffix(".\(fileExtension)")
        // A bare name that is both a file here and a catalog query is refused: taking the
        // file silently measured another query under the catalog query's name.
        if bareName, FileSystem.kind(of: nameOrFile) == .file,
           (try? load(directory: directory))?.contains(where: { $0.name.unicodeScalars.elementsEqual(nameOrFile.unicodeScalars) }) == true {
            throw WorkloadError.output("\(Printable.quoted(nameOrFile)) is both a catalog query and a file in the working directory; "
                + "write ./\(Printable.escaped(nameOrFile)) for the file, or move it")
        }
        if !bareName || FileSystem.kind(of: nameOrFile) == .file {
            switch FileSystem.kind(of: nameOrFile) {
            case .file: break
            case .directory: throw WorkloadError.output("\(Printable.quoted(nameOrFile)) is a directory, not a query file")
            case .other: throw WorkloadError.output("\(Printable.quoted(nameOrFile)) is not a regular file (a device, pipe or socket); give a query file")
            case .missing: throw WorkloadError.output("no query file \(Printable.quoted(nameOrFile))")
            }
            var base = nameOrFile.split(separator: "/").last.map(String.init) ?? nameOrFile
            if base.hasSuffix(".\(fileExtension)") { base.removeLast(fileExtension.count + 1) }
            return try CatalogQuery(name: base, text: FileSystem.readText(nameOrFile), path: nameOrFile)
        }
        let all = try load(directory: directory)
        if let query = all.first(where: { $0.name.unicodeScalars.elementsEqual(nameOrFile.unicodeScalars) }) { return query }
        let suggestion = closestMatch(to: nameOrFile, among: all.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
        throw WorkloadError.output("no catalog query named \(Printable.quoted(nameOrFile))\(suggestion) (`testbed queries` lists them)")
    }
}

extension Shape {
    /// The relations of a one-row dataset of this shape: every table and column, which is
    /// all parsing needs, so query text is checked before a real dataset is generated.
    /// Its few rows are not checked against the memory available: the check is the real
    /// dataset's, whose refusal names its real size (the probe's said "with 1 rows").
    public func parsingProbe() throws -> RelationCatalog {
        try generate(rows: 1, seed: 0, memory: MachineMemory(availableBytes: Int.max, source: "a one-row parsing probe")).memoryRelations()
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s = s.dropLast() }
        return String(s)
    }
}
