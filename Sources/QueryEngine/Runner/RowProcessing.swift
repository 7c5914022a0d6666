import Relational

// How each operation turns incoming rows into outgoing rows. Every node's output is a set:
// unions and projects de-duplicate; the other operations cannot create duplicates from
// duplicate-free inputs.
extension Runner {
    func receive(_ rows: [Row], along edge: Edge) {
        let id = edge.parent
        let runtime = runtimes[id]
        runtime.rowsIn += rows.count
        runtime.started = true
        var out: [Row] = []
        switch graph[id].operation {
        case .union:
            for row in rows where runtime.seen.insert(row).inserted { out.append(row) }
        case .select:
            guard let test = runtime.select else { return }
            out = rows.filter { test.matches($0) }
        case .project:
            guard let map = runtime.columnMap else { return }
            for row in rows {
                let projected = map.apply(row)
                if runtime.seen.insert(projected).inserted { out.append(projected) }
            }
        case .rename:
            guard let map = runtime.columnMap else { return }
            out = rows.map { map.apply($0) }
        case .intersection:
            let i = edge.operand
            runtime.sides[i].formUnion(rows)
            out = rows.filter { runtime.sides[1 - i].contains($0) }
        case .difference:
            if edge.operand == 1 {
                runtime.sides[1].formUnion(rows)
            } else if runtime.operandComplete[1] {
                out = rows.filter { !runtime.sides[1].contains($0) }
            } else {
                runtime.pendingLeft.append(contentsOf: rows)
            }
        case .join:
            out = join(rows, operand: edge.operand, runtime)
        case .source, .dead:
            return
        }
        if !out.isEmpty { emit(id, out) }
    }

    /// Symmetric hash join: store the new rows under their key (unless the other side is
    /// already complete, when they can never be probed) and probe the other side.
    private func join(_ rows: [Row], operand: Int, _ runtime: NodeRuntime) -> [Row] {
        guard let layout = runtime.joinLayout else { return [] }
        let other = 1 - operand
        let keep = !runtime.operandComplete[other]
        runtime.joinRows[operand] += rows.count
        var out: [Row] = []
        for row in rows {
            let key = operand == 0 ? layout.leftKey(of: row) : layout.rightKey(of: row)
            if keep { runtime.joinTables[operand][key, default: []].append(row) }
            guard let matches = runtime.joinTables[other][key] else { continue }
            for match in matches {
                out.append(operand == 0 ? layout.combine(row, match) : layout.combine(match, row))
            }
        }
        return out
    }

    /// A difference can release its held-back left rows once the right side is complete.
    func flushOnOperandComplete(_ edge: Edge) {
        guard case .difference = graph[edge.parent].operation, edge.operand == 1 else { return }
        let runtime = runtimes[edge.parent]
        let pending = runtime.pendingLeft
        runtime.pendingLeft = []
        let out = pending.filter { !runtime.sides[1].contains($0) }
        if !out.isEmpty { emit(edge.parent, out) }
    }
}
