import QueryEngine
import Relational
import Workloads

/// One disagreement found by an oracle, with everything needed to read and replay it.
public struct Mismatch: CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The engine's output differs from the reference evaluator's.
        case reference
        /// The engine's output differs from SQLite's (translated SQL on the same data).
        case sqlite
        /// `Q select p` and `Q select not p` are not a partition of `Q` in the engine's run.
        case partition
        /// The engine delivered a row twice (relations are sets).
        case duplicates
        /// The engine threw.
        case engineError = "engine-error"
        /// The two oracles disagree with each other, or SQLite returned a row twice (no
        /// engine involved).
        case oracles
        /// A baseline engine (`--engines`, e.g. DuckDB) differs from the reference evaluator,
        /// returned a row twice, or failed: that engine's own bug (or the translation's), not the testbed's.
        case baseline

        /// Whether the engine is to blame (all but an oracle or baseline disagreement).
        public var blamesEngine: Bool { self != .oracles && self != .baseline }
    }

    public let kind: Kind
    /// Canonical flag set, nil for an oracle disagreement.
    public let flags: String?
    public let backend: Backend?
    public let output: Int
    public let queryText: String
    public let expected: [Row]
    public let actual: [Row]
    public let detail: String
    /// The engine's batch size, nil for an oracle disagreement.
    public var batchSize: Int?
    /// The baseline engine's label, for a `baseline` disagreement.
    public var engine: String?

    public init(
        kind: Kind, flags: String?, backend: Backend?, output: Int, queryText: String, expected: [Row],
        actual: [Row], detail: String, batchSize: Int? = nil
    ) {
        self.kind = kind
        self.flags = flags
        self.backend = backend
        self.output = output
        self.queryText = queryText
        self.expected = expected
        self.actual = actual
        self.detail = detail
        self.batchSize = batchSize
    }

    public var description: String {
        var lines = ["\(kind.rawValue) mismatch on output \(output): \(detail)"]
        if let flags { lines.append("flags: \(flags)") }
        if let backend { lines.append("backend: \(backend.rawValue)") }
        if let engine { lines.append("baseline engine: \(engine)") }
        if let batchSize { lines.append("batch size: \(batchSize)") }
        lines.append("query:")
        lines.append(queryText.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        lines.append("expected (\(expected.count) rows): " + Mismatch.render(expected))
        lines.append("actual (\(actual.count) rows): " + Mismatch.render(actual))
        return lines.joined(separator: "\n")
    }

    static func render(_ rows: [Row]) -> String {
        let sorted = ReferenceOrder.sorted(rows)
        let shown = sorted.prefix(12).map { "(" + $0.values.map(\.description).joined(separator: ", ") + ")" }
        return shown.joined(separator: " ") + (sorted.count > 12 ? " … \(sorted.count - 12) more" : "")
    }
}
