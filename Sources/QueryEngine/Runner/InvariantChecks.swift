import Relational

/// What checked mode tracks while rows move, beyond the graph validation: every row each
/// node has emitted (a node must never emit one twice: relations are sets, and a repeat
/// means wasted or doubled work that set-based oracles cannot see). Only built in checked
/// mode, as it holds a copy of every row.
final class InvariantChecks {
    private var emitted: [NodeID: Set<Row>] = [:]

    /// The first row of `rows` that `node` already emitted (or emits twice now), if any.
    func repeatedRow(emittedBy node: NodeID, _ rows: [Row]) -> Row? {
        var seen = emitted[node, default: []]
        defer { emitted[node] = seen }
        for row in rows where !seen.insert(row).inserted { return row }
        return nil
    }
}

extension Runner {
    /// Records a broken invariant; the run fails with it at the next check point.
    func violated(_ problem: String) {
        violations.append(problem)
    }

    /// Throws the first recorded violation.
    func throwIfViolated() throws {
        if let first = violations.first { throw EngineInvariantError(problem: first) }
    }

    /// Checked mode: rows about to leave `id` are new, and no parent receives them on an
    /// operand that is already complete.
    func checkEmission(_ id: NodeID, _ batch: Batch) {
        guard let checks else { return }
        if let row = checks.repeatedRow(emittedBy: id, batch.rows) {
            violated("node \(id) (\(graph[id].operation.label)) emitted row \(row) twice")
        }
        for edge in graph[id].parents where runtimes[edge.parent].operandComplete[edge.operand] {
            violated("rows arrived on operand \(edge.operand) of node \(edge.parent) after it was complete")
        }
    }

    /// Checked mode: a kernel that hands an operand's rows to a heuristic counts them first
    /// (`Kernel.retainedRowCount`), so that an operand over the heuristic's limit is refused
    /// without decoding it (`set-operand-filter` once decoded a difference's 99,000 rows
    /// every run to refuse them).
    func uncountedRows(_ node: NodeID, _ operand: Int, _ count: Int?, _ made: Int) {
        violated("node \(node) (\(graph[node].operation.label)) made \(made) rows of operand \(operand) "
            + "for a heuristic but counted \(count.map(String.init) ?? "none") beforehand")
    }

    /// Checked mode: the graph is well formed after a runtime edit.
    func validateAfterEdit(_ stage: @autoclosure () -> String) {
        guard checks != nil else { return }
        do { try graph.validate(after: stage()) } catch { violated("\(error)") }
    }
}
