import Relational

// The generic path of row processing: every node's rows go through its kernel
// (`Kernels/`), and checked runs verify the engine's invariants here, for every operator.
extension Runner {
    func receive(_ rows: [Row], along edge: Edge) {
        let id = edge.parent
        let runtime = runtimes[id]
        if checkInvariants && runtime.operandComplete[edge.operand] {
            noteViolation("node \(id) (\(graph[id].operation.label)) received \(rows.count) row(s) on operand \(edge.operand) after it completed")
        }
        runtime.rowsIn += rows.count
        runtime.started = true
        guard let kernel = runtime.kernel else { return }
        let out = kernel.receive(Batch(rows), operand: edge.operand)
        if !out.isEmpty { emit(id, out.rows) }
    }

    /// Lets the node's kernel release rows it held back for the completed operand.
    func flushOnOperandComplete(_ edge: Edge) {
        guard let kernel = runtimes[edge.parent].kernel else { return }
        let out = kernel.operandCompleted(edge.operand)
        if !out.isEmpty { emit(edge.parent, out.rows) }
    }

    /// Checked runs: a node never emits the same row twice.
    func checkEmitted(_ id: NodeID, _ rows: [Row]) {
        let runtime = runtimes[id]
        for row in rows where !runtime.emitted.insert(row).inserted {
            noteViolation("node \(id) (\(graph[id].operation.label)) emitted the row (\(row.values.map(\.description).joined(separator: ", "))) twice")
            return
        }
    }

    /// Keeps the first broken invariant; the run fails with it once the current drain ends.
    func noteViolation(_ message: String) {
        if invariantViolation == nil { invariantViolation = message }
    }
}
