import QueryEngine
import Relational

/// Runs random transactions on a case and checks each transaction's propagated changes:
/// every output's RowChange is exact (disjoint, removed ⊆ before, added ∩ before = ∅) and
/// the state before plus the change equals the reference evaluator's answer after; a
/// refused transaction leaves every table as it was and notifies nobody.
public enum ChangeCheck {
    /// Problems found (empty when every transaction checks out).
    ///
    /// With `declareKeys`, each table whose rows differ in their first attribute gets that
    /// attribute as a declared key, and the key must still hold after every transaction.
    public static func check(
        _ graph: CaseGraph, transactions: [[RandomStatement]], flags: FlagSet,
        mode: TransactionalDatabase.Mode = .incremental, declareKeys: Bool = false,
        catalog: HeuristicCatalog = .standard
    ) throws -> [String] {
        let tables = try graph.tables.map { t -> MemoryTable in
            let table = try MemoryTable(name: t.name, scheme: t.scheme, indexedAttributes: t.indexedAttributes)
            try table.add(contentsOf: t.rows)
            return table
        }
        let sources = tables.map { Relation(source: $0) }
        // Outputs and every reachable node, built once so they share their relations.
        let reachable = graph.reachableNodes
        let built = try CaseGraph(tables: graph.tables, nodes: graph.nodes, outputs: graph.outputs + reachable)
            .relations(over: sources)
        let outputs = Array(built.prefix(graph.outputs.count))
        var targets = Targets(
            tables: Dictionary(zip(graph.tables.map(\.name), sources), uniquingKeysWith: { a, _ in a }), nodes: [:])
        for (node, relation) in zip(reachable, built.dropFirst(graph.outputs.count)) { targets.nodes[node] = relation }
        return try check(
            tables: tables, sources: sources, outputs: outputs,
            transactions: transactions.map { statements in
                { db in try db.transaction { for s in statements { try apply(s, db, targets) } } }
            },
            flags: flags, mode: mode, declareKeys: declareKeys, catalog: catalog)
    }

    /// The same check over given tables (`sources` wraps them, in order) and outputs built on
    /// them; each transaction is run by a closure, and one that throws `ChangeError` counts
    /// as refused (it must have changed nothing). A repro directory replays this way.
    public static func check(
        tables: [MemoryTable], sources: [Relation], outputs: [Relation],
        transactions: [(TransactionalDatabase) throws -> PropagationReport], flags: FlagSet,
        mode: TransactionalDatabase.Mode, declareKeys: Bool, catalog: HeuristicCatalog = .standard
    ) throws -> [String] {
        let db = TransactionalDatabase(engine: QueryEngine(flags: flags, catalog: catalog), mode: mode)
        var keyed: [MemoryTable] = []
        if declareKeys {
            for (table, source) in zip(tables, sources) where isKey(0, of: table.allRows) {
                try db.declareKey([table.scheme.attributes[0]], of: source)
                keyed.append(table)
            }
        }
        var notified = Array(repeating: 0, count: outputs.count)
        for (i, o) in outputs.enumerated() { try db.observe(o) { _ in notified[i] += 1 } }
        var states = try outputs.map { Set(try ReferenceEvaluator.evaluate($0)) }
        var problems: [String] = []

        for (number, transaction) in transactions.enumerated() {
            let tablesBefore = tables.map { Set($0.allRows) }
            let notifiedBefore = notified
            let report: PropagationReport
            do {
                report = try transaction(db)
            } catch is ChangeError {
                if tables.map({ Set($0.allRows) }) != tablesBefore {
                    problems.append("transaction \(number): refused, but the tables changed")
                }
                if notified != notifiedBefore { problems.append("transaction \(number): refused, but observers were called") }
                continue
            }
            for table in keyed where !isKey(0, of: table.allRows) {
                problems.append("transaction \(number): two rows of \(table.sourceName) share their declared key")
            }
            for (i, output) in outputs.enumerated() {
                let change = report.changes[i]
                for v in change.violations(before: states[i]) {
                    problems.append("transaction \(number), output \(i): \(v)")
                }
                let expected = Set(try ReferenceEvaluator.evaluate(output))
                if change.applied(to: states[i]) != expected {
                    problems.append("transaction \(number), output \(i): before + change has "
                        + "\(change.applied(to: states[i]).count) rows, requery \(expected.count)")
                }
                if change.isEmpty == (notified[i] != notifiedBefore[i]) {
                    problems.append("transaction \(number), output \(i): observer called \(notified[i] - notifiedBefore[i]) "
                        + "time(s) for a change of \(change.added.count)+\(change.removed.count) rows")
                }
                states[i] = expected
            }
        }
        return problems
    }

    private static func isKey(_ position: Int, of rows: [Row]) -> Bool {
        Set(rows.map { $0[position] }).count == rows.count
    }

    /// What statements name: sources by table name, relations by case node.
    struct Targets {
        var tables: [String: Relation]
        var nodes: [Int: Relation]
    }

    /// Applies a statement to its table or node; when that is gone, or lacks an attribute
    /// the statement names, nothing happens.
    static func apply(_ s: RandomStatement, _ db: TransactionalDatabase, _ targets: Targets) throws {
        func fits(_ r: Relation, _ p: Predicate, _ set: [Attribute: Value] = [:]) -> Bool {
            p.attributes.union(set.keys).allSatisfy(r.scheme.contains)
        }
        switch s {
        case let .add(t, rows):
            if let source = targets.tables[t] { try db.add(rows: rows, to: source) }
        case let .delete(t, p):
            if let source = targets.tables[t] { try db.delete(from: source, where: p) }
        case let .update(t, p, set):
            if let source = targets.tables[t] { try db.update(source, where: p, set: set) }
        case let .deleteNode(n, p):
            if let r = targets.nodes[n], fits(r, p) { try db.delete(from: r, where: p) }
        case let .updateNode(n, p, set):
            if let r = targets.nodes[n], fits(r, p, set) { try db.update(r, where: p, set: set) }
        }
    }
}
