import Relational

// The generic path of row processing: every node's rows go through its kernel
// (`Kernels/`); checked runs verify the engine's invariants on the way out (`emit`, see
// `InvariantChecks`), for every operator.
extension Runner {
    func receive(_ batch: Batch, along edge: Edge) {
        // Under a row limit a large batch (a closure's or a difference's rows, released
        // at once) goes to the kernel in parts, so a join that multiplies it is stopped at
        // `emit` after one part, not after the whole product. A part is at most the run's
        // batch size, and small enough that its rows cannot make more than the limit even
        // if each matched every row the node has received (what a join can have stored):
        // held-out hunt seed 194 case 665 at `--rows 3000` asked one part of 1,024 rows for
        // a 4 GB match list and was killed at 24 GB.
        let runtime = runtimes[edge.parent]
        if rowLimit < Int.max {
            let part = max(1, min(batchSize, rowLimit / max(1, runtime.rowsIn)))
            if batch.count > part {
                for piece in batch.parts(of: part) where rowsEmitted <= rowLimit { receive(piece, along: edge) }
                return
            }
        }
        runtime.rowsIn += batch.count
        runtime.started = true
        guard let kernel = runtime.kernel else { return }
        let out = kernel.receive(batch, operand: edge.operand)
        if !out.isEmpty { emit(edge.parent, out) }
    }

    /// Lets the node's kernel release rows it held back for the completed operand.
    func flushOnOperandComplete(_ edge: Edge) {
        guard let kernel = runtimes[edge.parent].kernel else { return }
        if rowLimit < Int.max { kernel.limitWork(to: rowLimit) }
        let out = kernel.operandCompleted(edge.operand)
        if !out.isEmpty { emit(edge.parent, out) }
        if rowLimit < Int.max { abandonIfPastTheLimit(kernel) }
    }

    /// Drains a cursor over `source` for node `id`, batch by batch: a memory table's
    /// batches arrive as column views (nothing decoded), any other source's as rows.
    /// Returns the rows read.
    @discardableResult
    func drain(_ id: NodeID, _ source: any SourceRelation, filter: Predicate?) throws -> Int {
        var read = 0
        if let table = source as? MemoryTable {
            // A value, not a cursor object: no allocation per fetch.
            var scan = try table.makeBatchScan(filter: filter)
            while true {
                let batch = scan.next(maxRows: batchSize)
                if batch.isEmpty { break }
                counters.sourceRowsRead += batch.count
                read += batch.count
                emit(id, Batch(.columns(ColumnView(batch))))
                // The call after the last batch only says so: not made (a selective fetch's
                // one batch is the last).
                if scan.isDrained { break }
            }
            return read
        }
        let cursor = try source.makeCursor(filter: filter)
        while true {
            let rows = try cursor.next(maxRows: batchSize)
            if rows.isEmpty { break }
            counters.sourceRowsRead += rows.count
            read += rows.count
            emit(id, Batch(rows))
        }
        return read
    }
}
