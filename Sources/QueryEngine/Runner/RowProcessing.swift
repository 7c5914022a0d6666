import Relational

// The generic path of row processing: every node's rows go through its kernel
// (`Kernels/`); checked runs verify the engine's invariants on the way out (`emit`, see
// `InvariantChecks`), for every operator.
extension Runner {
    func receive(_ rows: [Row], along edge: Edge) {
        let runtime = runtimes[edge.parent]
        runtime.rowsIn += rows.count
        runtime.started = true
        guard let kernel = runtime.kernel else { return }
        let out = kernel.receive(Batch(rows), operand: edge.operand)
        if !out.isEmpty { emit(edge.parent, out.rows) }
    }

    /// Lets the node's kernel release rows it held back for the completed operand.
    func flushOnOperandComplete(_ edge: Edge) {
        guard let kernel = runtimes[edge.parent].kernel else { return }
        let out = kernel.operandCompleted(edge.operand)
        if !out.isEmpty { emit(edge.parent, out.rows) }
    }
}
