import FileSupport
import Relational

/// Where `testbed generate` puts a dataset.
public enum DatasetOutput: Sendable {
    case sqlite(SQLiteDestination)
    case csv(CSVDestination)
    case plist(PlistDestination)
}

/// What writing a dataset did: the overview to print, and whether (and how) it streamed.
public struct GenerationReport: Sendable {
    public let overview: DatasetOverview
    /// True when rows went to the output as they were generated.
    public let streamed: Bool
    /// The most rows held at once by the writer (streamed or not), and chunks written.
    public let maximumBufferedRows: Int
    public let chunksWritten: Int
}

extension Shape {
    /// Generates the dataset and writes it to `output` (or only summarizes it, if nil).
    /// Documents in parents-first order with a counted selection are streamed: generated
    /// and written in chunks of `chunkRows`, so memory does not grow with the rows. Pets
    /// stream holding one byte a pet (for the content hash, which needs value order). Every
    /// other combination needs the whole dataset in memory first. Either way the memory
    /// this takes is estimated first and refused (`WorkloadError.insufficientMemory`) when
    /// it does not fit. The output is written to a temporary and renamed into place (into an
    /// empty directory given, see `publishDirectory`), so a failure leaves nothing behind.
    public func write(
        rows: Int, seed: UInt64, parameters: ShapeParameters = ShapeParameters(), to output: DatasetOutput?,
        chunkRows: Int = StreamingTableWriter.defaultChunkRows, memory: MachineMemory = .current()
    ) throws -> GenerationReport {
        let generator = try generator(rows: rows, seed: seed, parameters: parameters)
        if let source = generator.streamingSource {
            try generator.checkFits(use: .stream, memory: memory)
            var writer: StreamingTableWriter?
            let body = { (sink: TableSink) throws -> DatasetOverview in
                let w = StreamingTableWriter(sink: sink, chunkRows: chunkRows, hashing: source.rowsInValueOrder)
                writer = w
                let (statistics, hash) = try source.run(w)
                return DatasetOverview(
                    shape: self, rowsRequested: rows, seed: seed, parameters: parameters,
                    tables: w.tables, statistics: statistics, contentHashHex: hash ?? w.contentHashHex)
            }
            let overview = try Self.run(body, to: output)
            return GenerationReport(
                overview: overview, streamed: true,
                maximumBufferedRows: writer?.maximumBufferedRows ?? 0, chunksWritten: writer?.chunksWritten ?? 0)
        }
        try generator.checkFits(use: output == nil ? .generate : .write, memory: memory)
        let dataset = try generator.generate()
        var writer: StreamingTableWriter?
        let body = { (sink: TableSink) throws -> DatasetOverview in
            let w = StreamingTableWriter(sink: sink, chunkRows: chunkRows, hashing: false)
            writer = w
            if output != nil { try dataset.stream(into: w) }
            return dataset.overview
        }
        let overview = try Self.run(body, to: output)
        return GenerationReport(
            overview: overview, streamed: false,
            maximumBufferedRows: writer?.maximumBufferedRows ?? 0, chunksWritten: writer?.chunksWritten ?? 0)
    }

    private static func run(_ body: (TableSink) throws -> DatasetOverview, to output: DatasetOutput?) throws -> DatasetOverview {
        switch output {
        case nil: return try body(DiscardingSink())
        case let .sqlite(destination): return try destination.write(body)
        case let .csv(destination): return try destination.write(body)
        case let .plist(destination): return try destination.write(body)
        }
    }
}

extension DatasetOutput {
    /// An SQLite output from a command-line path, checked where it enters: not empty, blank,
    /// the root or a directory, its directory existing, and an existing file only with
    /// `replace`. Errors name `option`.
    public static func sqlite(path: String, option: String = "--sqlite", analyze: Bool = false, replace: Bool = false) throws -> DatasetOutput {
        let path = try checkedFilePath(path, option: option)
        if FileSystem.kind(of: path) == .file && !replace {
            throw WorkloadError.output("\(option): \(Printable.quoted(path)) already exists; pass --force to replace it")
        }
        return .sqlite(SQLiteDestination(path: path, analyze: analyze, replace: replace))
    }

    /// A file output's command-line path, checked as `sqlite`'s (whether it may be replaced
    /// is the caller's): not empty, blank, the root, a directory or a link, not ending in
    /// '/', and its directory existing. Errors name `option`.
    public static func checkedFilePath(_ path: String, option: String) throws -> String {
        let path = try FileSystem.checkedOutputPath(path, option: option, directory: false)
        try requireParent(of: path, option: option, directory: false)
        return path
    }

    /// A CSV output directory from a command-line path: not empty, blank, the root or an
    /// existing file, its parent existing, and if it exists, empty.
    public static func csv(directory: String, option: String = "--csv") throws -> DatasetOutput {
        let path = try FileSystem.checkedOutputPath(directory, option: option, directory: true)
        try requireParent(of: path, option: option)
        if FileSystem.isDirectory(path) && !FileSystem.isEmptyDirectory(path) {
            throw WorkloadError.output("\(option): \(Printable.quoted(path)) already exists and is not empty; choose a new directory")
        }
        return .csv(CSVDestination(directory: path))
    }

    /// A property-list database directory from a command-line path, checked as `csv`'s.
    public static func plist(directory: String, layout: PlistLayout, option: String = "--plist") throws -> DatasetOutput {
        let path = try FileSystem.checkedOutputPath(directory, option: option, directory: true)
        try requireParent(of: path, option: option)
        if FileSystem.isDirectory(path) && !FileSystem.isEmptyDirectory(path) {
            throw WorkloadError.output("\(option): \(Printable.quoted(path)) already exists and is not empty; choose a new directory")
        }
        return .plist(PlistDestination(directory: path, layout: layout))
    }

    private static func requireParent(of path: String, option: String, directory: Bool = true) throws {
        // Found only when the dataset, generated, could not be renamed onto the link.
        if FileSystem.isSymbolicLink(path) {
            // A file is written beside its place and renamed onto it, which would replace the
            // link rather than write where it points: `--sqlite` was told to give "the
            // directory itself (or the link with a trailing '/')", neither of which a file is.
            throw WorkloadError.output("\(option): \(Printable.quoted(path)) is a symbolic link; "
                + (directory ? "give the directory itself (or the link with a trailing '/')"
                             : "give the file's own path, not a link to it"))
        }
        // A file is written beside its place and renamed onto it: `out/` found only then that
        // no file can have that name, after the whole dataset was generated.
        if !directory, path.count > 1, path.hasSuffix("/") {
            throw WorkloadError.output("\(option): \(Printable.quoted(path)) ends in '/', which names a directory; give a file path")
        }
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        // The output is written beside its place and renamed onto it, which a path ending in
        // `.` or `..` (the working directory, say) cannot take: refused before any work.
        if let last = trimmed.split(separator: "/").last, last == "." || last == ".." {
            throw WorkloadError.output("\(option): \(Printable.quoted(path)) ends in '\(last)'; give the new directory by its own name "
                + "(e.g. data), not as '.' or '..'")
        }
        let parent = FileSystem.parentDirectory(of: trimmed)
        guard FileSystem.isDirectory(parent) else {
            throw WorkloadError.output(
                "\(option): \(Printable.quoted(path)) cannot be created: its directory \(Printable.quoted(parent)) does not exist")
        }
    }
}
