import Relational
import Workloads

/// A change experiment's stream (config `changes:` and `modes:`), resolved: a generated
/// session (regenerated for each dataset size, since it names that size's rows) or a
/// change script's text, the number of transactions run, and the modes compared.
public struct ChangeStream: Sendable {
    public enum Source: Sendable {
        case session(name: String, seed: UInt64, parameters: ShapeParameters)
        case script(path: String, text: String)
    }

    public let source: Source
    /// Transactions per replay: the session's count, or the first this many of the script.
    public let transactions: Int
    public let modes: [ChangeMode]
    /// The sort key of the ordered modes (`changes: ordered-by:`); empty without one.
    public var orderedBy: [Attribute] = []

    /// The change-script text for one size's dataset, and where parse errors point.
    func script(for dataset: Dataset) throws -> (text: String, file: String) {
        switch source {
        case let .session(name, seed, parameters):
            let text = try ChangeSessions.generate(
                dataset: dataset, session: name, transactions: transactions, seed: seed, parameters: parameters)
            return (text, "\(name)-\(dataset.rowsRequested).changes")
        case let .script(path, text):
            return (text, path)
        }
    }
}
