import FileSupport
import QueryEngine
import Relational
import Workloads

/// A reduced failing case on disk, `Results/repro/<id>/`:
///
/// - `query.rq`: the case's outputs in the query language, tables by name;
/// - `<table>.csv`: each table's rows (Workloads' typed CSV encoding);
/// - `manifest.txt`: flags, backend, what disagreed, each table's indexes and the partition
///   outputs (`key: value` lines);
/// - `mismatch.txt`: the disagreement as found after reduction (for reading);
/// - `command.txt`: the one-line command that replays it.
///
/// The directory is written under a temporary name and renamed into place, so it appears
/// complete or not at all.
public enum ReproDirectory {
    public static let defaultParent = "Results/repro"

    /// Writes `failing` to `<parent>/<id>/` (replacing an older one) and returns the path.
    @discardableResult
    public static func write(_ failing: FailingCase, id: String, under parent: String = defaultParent) throws -> String {
        let loaded = try LoadedCase(failing.graph)
        return try ReproFiles.publish(id: id, under: parent) { temporary, path in
            try FileSystem.writeText(queryText(failing, loaded), to: FileSystem.join(temporary, "query.rq"))
            try ReproFiles.writeTables(failing.graph.tables, in: temporary)
            try FileSystem.writeText(manifest(failing), to: FileSystem.join(temporary, "manifest.txt"))
            try FileSystem.writeText(failing.mismatch.description + "\n", to: FileSystem.join(temporary, "mismatch.txt"))
            let engines = failing.mismatch.engine.map { " --engines \($0)" } ?? ""
            try FileSystem.writeText("swift run -c release testbed verify --repro \(path)\(engines)\n", to: FileSystem.join(temporary, "command.txt"))
        }
    }

    static func queryText(_ failing: FailingCase, _ loaded: LoadedCase) -> String {
        let header = [
            "# Reduced repro: \(failing.mismatch.kind.rawValue) mismatch (replay: testbed verify --repro DIR)",
            "# flags: \(failing.flags.canonical)",
            "# backend: \(failing.backend.rawValue)",
            "# batch size: \(failing.batchSize)",
        ]
        return header.joined(separator: "\n") + "\n" + loaded.queryText
    }

    static func manifest(_ failing: FailingCase) -> String {
        var lines = [
            "flags: \(failing.flags.canonical)",
            "backend: \(failing.backend.rawValue)",
            "kind: \(failing.mismatch.kind.rawValue)",
            "batch-size: \(failing.batchSize)",
        ]
        if let p = failing.graph.validPartition {
            lines.append("partition: \(p.whole) \(p.matching) \(p.rest)")
        }
        lines += ReproFiles.manifestLines(failing.graph.tables)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a repro directory back: the case, flags and backend it records.
    public static func read(_ path: String, catalog: HeuristicCatalog = .standard) throws -> ReproContents {
        try parse(label: path, catalog: catalog) { file in try FileSystem.readUTF8Text(FileSystem.join(path, file)) }
    }

    /// Reads a repro from its files' contents by name (`manifest.txt`, `query.rq`,
    /// `<table>.csv`): how regression tests embed a reduced case.
    public static func parse(files: [String: String], catalog: HeuristicCatalog = .standard) throws -> ReproContents {
        try parse(label: "<embedded repro>", catalog: catalog) { file in
            guard let text = files[file] else { throw VerificationError.repro(path: file, message: "missing") }
            return text
        }
    }

    static func parse(label path: String, catalog: HeuristicCatalog, file read: (String) throws -> String) throws -> ReproContents {
        let (manifest, flags, backend, _, query) = try load(label: path, catalog: catalog, file: read)
        let manifestPath = FileSystem.join(path, "manifest.txt")
        // A change repro's keys without its script: replayed as a plain repro, it would
        // check nothing the manifest asks for.
        for key in ["mode", "declare-keys"] where manifest.lines[key] != nil {
            throw VerificationError.repro(path: manifest.location(of: key, path: manifestPath),
                message: "'\(key)' belongs to a change repro, but \(ChangeReproDirectory.scriptFile) is missing")
        }
        if let partition = manifest.partition {
            let outputs = query.relations.count
            for n in [partition.whole, partition.matching, partition.rest] where n >= outputs {
                throw VerificationError.repro(path: manifest.location(of: "partition", path: manifestPath),
                    message: "partition names output \(n), but query.rq has \(outputs) output\(outputs == 1 ? "" : "s") (numbered from 0)")
            }
        }
        var graph = try CaseGraph(outputs: query.relations)
        graph.partition = manifest.partition
        // The partition oracle checks only outputs of its shape; others were skipped unsaid.
        if let partition = manifest.partition, graph.validPartition == nil {
            throw VerificationError.repro(path: manifest.location(of: "partition", path: manifestPath),
                message: "partition \(partition.whole) \(partition.matching) \(partition.rest) names outputs that are not "
                    + "`W`, `W select (p)` and `W select (not (p))` in query.rq, so the partition oracle cannot check them")
        }
        return ReproContents(graph: graph, flags: flags, backend: backend, batchSize: manifest.batchSize, kind: manifest.kind)
    }

    /// A repro's manifest, flags and backend, its tables (memory tables, by name) and its
    /// query over them.
    static func load(label path: String, catalog: HeuristicCatalog, file read: (String) throws -> String) throws
        -> (ReproManifest, FlagSet, Backend, RelationCatalog, Query)
    {
        let manifestPath = FileSystem.join(path, "manifest.txt")
        let manifest = try ReproManifest(try read("manifest.txt"), path: manifestPath)
        guard let backend = Backend(rawValue: manifest.backend) else {
            throw VerificationError.repro(path: manifest.location(of: "backend", path: manifestPath),
                message: "backend \(Printable.quoted(manifest.backend)) is not one of \(Backend.namesText)")
        }
        let flags: FlagSet
        do { flags = try catalog.parseCanonical(manifest.flags) } catch {
            throw VerificationError.repro(path: manifest.location(of: "flags", path: manifestPath), message: "flags: \(error)")
        }
        var relations = RelationCatalog()
        for table in manifest.tables {
            let file = FileSystem.join(path, "\(table.name).csv")
            let (columns, rows) = try CSVReader.parse(try read("\(table.name).csv"), file: file)
            guard rows.count == table.rows else {
                throw VerificationError.repro(path: "\(manifestPath):\(table.line)",
                    message: "table '\(Printable.escaped(table.name))' says rows \(table.rows), but \(file) has \(rows.count)")
            }
            // A relation is a set: a repeated row would pass `rows N` and load as N - 1.
            var first: [Row: Int] = [:]
            for (index, row) in rows.enumerated() {
                if let earlier = first.updateValue(index, forKey: Row(row)) {
                    throw VerificationError.repro(path: file, message: "data rows \(earlier + 1) and \(index + 1) are the same row; "
                        + "a table holds each row once")
                }
            }
            do {
                let memory = try MemoryTable(name: table.name, columns: columns, rows: rows, indexedAttributes: table.indexed)
                relations.add(Relation(source: memory), as: table.name)
            } catch let error as RelationError {
                throw VerificationError.repro(path: "\(manifestPath):\(table.line)", message: "\(file): \(error)")
            }
        }
        let query = try Query.parse(try read("query.rq"), catalog: relations, file: FileSystem.join(path, "query.rq"))
        return (manifest, flags, backend, relations, query)
    }

    /// Replays a repro directory: the mismatches it shows now (empty once the bug is fixed).
    /// A `baseline` repro needs its engine among `baselines` (`verify --repro DIR --engines E`).
    public static func replay(_ path: String, catalog: HeuristicCatalog = .standard, baselines: BaselineOracles? = nil) throws -> [Mismatch] {
        try replay(read(path, catalog: catalog), catalog: catalog, baselines: baselines)
    }

    /// The mismatches a repro shows now.
    public static func replay(_ repro: ReproContents, catalog: HeuristicCatalog = .standard, baselines: BaselineOracles? = nil) throws -> [Mismatch] {
        let checker = try CaseChecker(repro.graph, catalog: catalog, baselines: baselines)
        if repro.kind == .oracles || repro.kind == .baseline { return checker.oracleMismatches() }
        return checker.check(flags: repro.flags, backend: repro.backend, batchSize: repro.batchSize)
            + checker.oracleMismatches()
    }
}

/// What a repro directory records.
public struct ReproContents {
    public let graph: CaseGraph
    public let flags: FlagSet
    public let backend: Backend
    public let batchSize: Int
    /// What disagreed when it was written.
    public let kind: Mismatch.Kind?
}
