import FileSupport
import QueryEngine
import Relational
import Workloads

/// A reduced failing change case on disk, `Results/repro/<id>/`, laid out like the result
/// fuzzer's repros (`ReproDirectory`) plus the transactions:
///
/// - `query.rq`: the case's outputs; each derived node a statement writes to is a `let`
///   named `node_N`, so the change script can name it;
/// - `<table>.csv`: each table's rows;
/// - `changes.changes`: the transactions as a change script, one `begin`/`commit` each
///   (statements the case ignores, on a table or node it no longer has, are left out);
/// - `manifest.txt`: flags, `mode`, `declare-keys` and the tables;
/// - `problems.txt`: what the check found after reduction; `command.txt`: the replay command.
///
/// `testbed verify --repro DIR` replays it (a directory with `changes.changes` is a change
/// repro). Written under a temporary name and renamed into place.
public enum ChangeReproDirectory {
    public static let scriptFile = "changes.changes"

    /// Whether `path` holds a change repro.
    public static func isChangeRepro(_ path: String) -> Bool {
        FileSystem.exists(FileSystem.join(path, scriptFile))
    }

    @discardableResult
    public static func write(_ failure: ChangeFailure, id: String, under parent: String = ReproDirectory.defaultParent) throws -> String {
        let graph = failure.graph
        let tables = try graph.tables.map { t -> Relation in
            let table = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            try table.add(contentsOf: t.rows)
            return Relation(source: table)
        }
        var catalog = RelationCatalog()
        for (t, r) in zip(graph.tables, tables) { catalog.add(r, as: t.name) }
        let reachable = graph.reachableNodes
        let built = try CaseGraph(tables: graph.tables, nodes: graph.nodes, outputs: graph.outputs + reachable)
            .relations(over: tables)
        var nodes: [Int: Relation] = [:]
        for (node, relation) in zip(reachable, built.dropFirst(graph.outputs.count)) { nodes[node] = relation }
        let targeted = Set(failure.transactions.flatMap { $0.compactMap(\.node) })
        for n in targeted { nodes[n]?.name = "node_\(n)" }
        let query = try QueryPrinter.print(Array(built.prefix(graph.outputs.count)), catalog: catalog)
        let script = changeScript(failure.transactions, graph: graph, nodes: nodes)

        return try ReproFiles.publish(id: id, under: parent) { temporary, path in
            let header = "# Reduced change repro, case \(failure.caseIndex) (replay: testbed verify --repro DIR)\n"
            try FileSystem.writeText(header + query, to: FileSystem.join(temporary, "query.rq"))
            try ReproFiles.writeTables(graph.tables, in: temporary)
            try FileSystem.writeText(script, to: FileSystem.join(temporary, scriptFile))
            let manifest = [
                "flags: \(failure.flags.canonical)",
                "mode: \(failure.mode.rawValue)",
                "declare-keys: \(failure.declareKeys ? "yes" : "no")",
            ] + ReproFiles.manifestLines(graph.tables)
            try FileSystem.writeText(manifest.joined(separator: "\n") + "\n", to: FileSystem.join(temporary, "manifest.txt"))
            try FileSystem.writeText(failure.problems.joined(separator: "\n") + "\n", to: FileSystem.join(temporary, "problems.txt"))
            try FileSystem.writeText("swift run -c release testbed verify --repro \(path)\n", to: FileSystem.join(temporary, "command.txt"))
        }
    }

    /// The transactions in change-script syntax.
    static func changeScript(_ transactions: [[RandomStatement]], graph: CaseGraph, nodes: [Int: Relation]) -> String {
        let tables = Dictionary(graph.tables.map { ($0.name, $0.scheme) }, uniquingKeysWith: { a, _ in a })
        var out = "# One begin/commit per transaction of the reduced case.\n"
        for statements in transactions {
            let lines = statements.compactMap { line($0, tables: tables, nodes: nodes) }
            guard !lines.isEmpty else { continue }
            out += "begin\n" + lines.map { "  " + $0 + "\n" }.joined() + "commit\n"
        }
        return out
    }

    /// One statement, or nil when the case would skip it (see `ChangeCheck.apply`).
    private static func line(_ s: RandomStatement, tables: [String: Scheme], nodes: [Int: Relation]) -> String? {
        func fits(_ scheme: Scheme, _ p: Predicate, _ set: [Attribute: Value] = [:]) -> Bool {
            p.attributes.union(set.keys).allSatisfy(scheme.contains)
        }
        func assignments(_ set: [Attribute: Value]) -> String {
            set.sorted { $0.key < $1.key }.map { "\(identifier($0.key.name)) = \(PredicateText.literal($0.value))" }
                .joined(separator: ", ")
        }
        switch s {
        case let .add(t, rows):
            guard let scheme = tables[t], !scheme.attributes.isEmpty else { return nil }
            let names = scheme.attributes.map { identifier($0.name) }.joined(separator: ", ")
            let tuples = rows.map { "(" + $0.values.map(PredicateText.literal).joined(separator: ", ") + ")" }
            return "add \(identifier(t)) [\(names)] { \(tuples.joined(separator: ", ")) }"
        case let .delete(t, p):
            guard tables[t] != nil else { return nil }
            return "delete \(identifier(t)) where (\(PredicateText.render(p)))"
        case let .update(t, p, set):
            guard tables[t] != nil else { return nil }
            return "update \(identifier(t)) set [\(assignments(set))] where (\(PredicateText.render(p)))"
        case let .deleteNode(n, p):
            guard let r = nodes[n], fits(r.scheme, p) else { return nil }
            return "delete node_\(n) where (\(PredicateText.render(p)))"
        case let .updateNode(n, p, set):
            guard let r = nodes[n], fits(r.scheme, p, set) else { return nil }
            return "update node_\(n) set [\(assignments(set))] where (\(PredicateText.render(p)))"
        }
    }

    /// Replays a change repro: the problems the check finds now (empty once fixed).
    public static func replay(_ path: String, catalog: HeuristicCatalog = .standard) throws -> [String] {
        let read = { (file: String) throws -> String in try FileSystem.readUTF8Text(FileSystem.join(path, file)) }
        let (manifest, flags, _, relations, query) = try ReproDirectory.load(label: path, catalog: catalog, file: read)
        let manifestPath = FileSystem.join(path, "manifest.txt")
        // A change replay runs on memory tables with the engine's batch size and checks its
        // own way; lines saying otherwise were read and then ignored ("0 problems").
        for key in ["backend", "kind", "batch-size", "partition"] where manifest.lines[key] != nil {
            throw VerificationError.repro(path: manifest.location(of: key, path: manifestPath),
                message: "'\(key)' belongs to a results repro; a change repro (with \(scriptFile)) takes flags, mode, "
                    + "declare-keys and tables")
        }
        let modeName = manifest.mode ?? TransactionalDatabase.Mode.incremental.rawValue
        guard let mode = TransactionalDatabase.Mode(rawValue: modeName) else {
            throw VerificationError.repro(path: manifest.location(of: "mode", path: manifestPath),
                message: "mode \(Printable.quoted(modeName)) is not one of: "
                    + TransactionalDatabase.Mode.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let scriptPath = FileSystem.join(path, scriptFile)
        let script = try ChangeScript.parse(try read(scriptFile), targets: ChangeScript.targets(tables: relations, query: query),
                                            file: scriptPath)
        // As `observe --changes`: a script of no transaction checks nothing ("0 problems").
        guard !script.transactions.isEmpty else {
            throw VerificationError.repro(path: scriptPath, message: "no transactions; a change repro replays at least one add, delete or update")
        }
        let sources = manifest.tables.compactMap { relations[$0.name] }
        let tables = sources.compactMap { $0.source as? MemoryTable }
        return try ChangeCheck.check(
            tables: tables, sources: sources, outputs: query.relations,
            transactions: script.transactions.map { t in
                { db in
                    do { return try script.apply(t, to: db) } catch let e as QueryError { throw ChangeError(e.description) }
                }
            },
            flags: flags, mode: mode, declareKeys: manifest.declareKeys, catalog: catalog)
    }
}

extension RandomStatement {
    /// The derived node the statement writes to, if any.
    var node: Int? {
        switch self {
        case let .deleteNode(n, _), let .updateNode(n, _, _): return n
        case .add, .delete, .update: return nil
        }
    }
}
