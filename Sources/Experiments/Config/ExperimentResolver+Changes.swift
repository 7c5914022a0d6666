import FileSupport
import QueryEngine
import Relational
import Workloads

extension ExperimentResolver {
    /// `changes:` and `modes:`: the session (its name, count and parameters checked as
    /// `generate --session` checks them) or the script (read and parsed against every
    /// query's relations on the shape's probe), and the modes. nil without `changes:`.
    func resolveChanges(
        _ config: ExperimentConfig, shape: Shape, relations: RelationCatalog, queries: [ExperimentQuery],
        fail: ([String], String) -> ConfigError
    ) throws -> ChangeStream? {
        guard let changes = config.changes else {
            if config.modes != nil { throw fail(["modes"], "modes need a changes: block (a session or a script to run)") }
            return nil
        }
        if !config.baselines.isEmpty {
            throw fail(["baselines"], "SQLite baselines do not run change streams; remove baselines from a config with changes")
        }
        var modes: [ChangeMode] = []
        let names = config.modes ?? [ChangeMode.incremental.rawValue, ChangeMode.requery.rawValue]
        if names.isEmpty { throw fail(["modes"], "expected at least one mode (\(ChangeMode.names.joined(separator: ", ")))") }
        for (i, name) in names.enumerated() {
            let path = ["modes"] + (config.modes.map { $0.count > 1 ? ["[\(i)]"] : [] } ?? [])
            guard let mode = ChangeMode(rawValue: name) else {
                let hint = closestMatch(to: name, among: ChangeMode.names).map { "; did you mean '\($0)'?" } ?? ""
                throw fail(path, "unknown mode '\(name)'\(hint); expected \(ChangeMode.names.joined(separator: ", "))")
            }
            if modes.contains(mode) { throw fail(path, "'\(name)' is listed twice") }
            modes.append(mode)
        }
        let orderedBy = try resolveOrdering(changes, modes: modes, relations: relations, queries: queries, fail: fail)
        if let n = changes.transactions, !ChangeSessions.transactionRange.contains(n) {
            throw fail(["changes", "transactions"], "expected an integer in \(ChangeSessions.transactionRange.lowerBound)..."
                + "\(ChangeSessions.transactionRange.upperBound), got \(n)")
        }
        if let session = changes.session {
            let parameters = ShapeParameters(Dictionary(changes.params.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
            let transactions = changes.transactions ?? 100
            do {
                try ChangeSessions.validate(shape: shape, session: session, transactions: transactions, parameters: parameters)
            } catch let error as WorkloadError {
                var path = ["changes", "session"]
                if case let .unknownParameter(key, _, _, _) = error { path = ["changes", "params", key] }
                if case let .outOfRange(name, _, _, _) = error, parameters[name] != nil { path = ["changes", "params", name] }
                if case let .badParameter(name, _, _) = error, name != "session" {
                    path = name == "transactions" ? ["changes", "transactions"]
                        : ["changes", "params"] + (parameters[name] != nil ? [name] : [])
                }
                throw fail(path, "\(error)")
            }
            return ChangeStream(source: .session(name: session, seed: changes.seed, parameters: parameters),
                                transactions: transactions, modes: modes, orderedBy: orderedBy)
        }
        let path = changes.script ?? ""
        let text: String
        do { text = try FileSystem.readText(path) } catch {
            throw fail(["changes", "script"], "cannot read the change script \(Printable.quoted(path)): \(error)")
        }
        var count = 0
        for query in queries {
            do {
                let parsed = try Query.parse(query.text, catalog: relations, file: query.origin)
                let script = try ChangeScript.parse(text, targets: ChangeScript.targets(tables: relations, query: parsed), file: path)
                count = script.transactions.count
            } catch {
                throw fail(["changes", "script"], "\(error)" + (queries.count > 1 ? " (with query '\(query.name)')" : ""))
            }
        }
        guard count > 0 else { throw fail(["changes", "script"], "the change script has no transactions") }
        if let n = changes.transactions, n > count {
            throw fail(["changes", "transactions"], "the change script has \(count) transactions, fewer than \(n)")
        }
        return ChangeStream(source: .script(path: path, text: text), transactions: changes.transactions ?? count, modes: modes,
                            orderedBy: orderedBy)
    }

    /// `changes: ordered-by:`, which the ordered modes need and the others refuse; every
    /// attribute must be in every output of every query.
    private func resolveOrdering(
        _ changes: ChangesSection, modes: [ChangeMode], relations: RelationCatalog, queries: [ExperimentQuery],
        fail: ([String], String) -> ConfigError
    ) throws -> [Attribute] {
        let ordered = modes.filter(\.needsOrdering).map(\.rawValue)
        guard let names = changes.orderedBy else {
            if ordered.isEmpty { return [] }
            throw fail(["changes"], "mode \(ordered.joined(separator: " and ")) needs 'ordered-by: [attribute, …]' here")
        }
        if ordered.isEmpty {
            throw fail(["changes", "ordered-by"], "only the modes ordered and regenerate-sort-diff use ordered-by; add one to modes or remove it")
        }
        let attributes = names.map { Attribute(stringLiteral: $0) }
        for query in queries {
            guard let parsed = try? Query.parse(query.text, catalog: relations, file: query.origin) else { continue }
            for (relation, output) in zip(parsed.relations, parsed.outputNames) {
                do { _ = try RowOrdering(attributes, in: relation.scheme) } catch {
                    throw fail(["changes", "ordered-by"], "\(error) (query '\(query.name)', output \(output))")
                }
            }
        }
        return attributes
    }
}
