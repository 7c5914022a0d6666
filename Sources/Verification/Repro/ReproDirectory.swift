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
        try FileSystem.makeDirectories(parent)
        let path = parent + "/" + id
        let temporary = FileSystem.temporarySibling(of: path)
        FileSystem.removeDirectory(temporary)
        try FileSystem.makeDirectories(temporary)
        do {
            try FileSystem.writeText(queryText(failing, loaded), to: temporary + "/query.rq")
            for t in failing.graph.tables {
                try FileSystem.writeText(CSVWriter.text(scheme: t.scheme, rows: t.rows), to: temporary + "/\(t.name).csv")
            }
            try FileSystem.writeText(manifest(failing), to: temporary + "/manifest.txt")
            try FileSystem.writeText(failing.mismatch.description + "\n", to: temporary + "/mismatch.txt")
            try FileSystem.writeText("swift run -c release testbed verify --repro \(path)\n", to: temporary + "/command.txt")
            FileSystem.removeDirectory(path)
            try FileSystem.rename(temporary, to: path)
        } catch {
            FileSystem.removeDirectory(temporary)
            throw error
        }
        return path
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
        for t in failing.graph.tables {
            lines.append("table: \(t.name) indexed [\(t.indexedAttributes.map(\.name).joined(separator: ", "))] rows \(t.rows.count)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a repro directory back: the case, flags and backend it records.
    public static func read(_ path: String, catalog: HeuristicCatalog = .standard) throws -> ReproContents {
        try parse(label: path, catalog: catalog) { file in try FileSystem.readText(path + "/" + file) }
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
        let manifestPath = path + "/manifest.txt"
        var flagsText = "", backendText = "memory"
        var kind: Mismatch.Kind?
        var batchSize = CaseChecker.defaultBatchSize
        var partition: PartitionOutputs?
        var tableLines: [(name: String, indexed: [Attribute])] = []
        for raw in try read("manifest.txt").split(separator: "\n") {
            let line = String(raw)
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            let value = String(line[line.index(after: colon)...]).drop { $0 == " " }
            switch key {
            case "flags": flagsText = String(value)
            case "backend": backendText = String(value)
            case "kind": kind = Mismatch.Kind(rawValue: String(value))
            case "batch-size":
                guard let n = Int(value), n >= 1 else {
                    throw VerificationError.repro(path: manifestPath, message: "batch-size '\(value)' is not a positive integer")
                }
                batchSize = n
            case "partition":
                let n = value.split(separator: " ").compactMap { Int($0) }
                if n.count == 3 { partition = PartitionOutputs(whole: n[0], matching: n[1], rest: n[2]) }
            case "table":
                let name = String(value.prefix { $0 != " " })
                var indexed: [Attribute] = []
                if let open = value.firstIndex(of: "["), let close = value.firstIndex(of: "]"), open < close {
                    indexed = value[value.index(after: open)..<close].split(separator: ",")
                        .map { Attribute(String($0).filter { $0 != " " }) }
                }
                tableLines.append((name, indexed))
            default: continue
            }
        }
        guard let backend = Backend(rawValue: backendText) else {
            throw VerificationError.repro(path: manifestPath, message: "backend '\(backendText)' is not memory or sqlite")
        }
        let flags: FlagSet
        do { flags = try catalog.parseCanonical(flagsText) } catch {
            throw VerificationError.repro(path: manifestPath, message: "flags: \(error)")
        }
        var relations = RelationCatalog()
        for (name, indexed) in tableLines {
            let file = path + "/\(name).csv"
            let (columns, rows) = try CSVReader.parse(try read("\(name).csv"), file: file)
            let table = try MemoryTable(name: name, columns: columns, rows: rows, indexedAttributes: indexed)
            relations.add(Relation(source: table), as: name)
        }
        let query = try Query.parse(try read("query.rq"), catalog: relations, file: path + "/query.rq")
        var graph = try CaseGraph(outputs: query.relations)
        graph.partition = partition
        return ReproContents(graph: graph, flags: flags, backend: backend, batchSize: batchSize, kind: kind)
    }

    /// Replays a repro directory: the mismatches it shows now (empty once the bug is fixed).
    public static func replay(_ path: String, catalog: HeuristicCatalog = .standard) throws -> [Mismatch] {
        try replay(read(path, catalog: catalog), catalog: catalog)
    }

    /// The mismatches a repro shows now.
    public static func replay(_ repro: ReproContents, catalog: HeuristicCatalog = .standard) throws -> [Mismatch] {
        let checker = try CaseChecker(repro.graph, catalog: catalog)
        if repro.kind == .oracles { return checker.oracleMismatches() }
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
