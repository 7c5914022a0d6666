import Relational

/// Symmetric hash join: each operand's rows are stored under their key and probe the
/// other operand's table. A table that can no longer be probed (the other operand is
/// complete) is freed, and rows arriving then are not stored.
final class HashJoinKernel: Kernel {
    private let layout: JoinLayout
    private var tables: [[Row: [Row]]] = [[:], [:]]
    /// Rows delivered per operand (join-key filters look at small complete operands).
    private(set) var rowsReceived = [0, 0]
    private var complete = [false, false]

    init(layout: JoinLayout) { self.layout = layout }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        let other = 1 - operand
        let keep = !complete[other]
        rowsReceived[operand] += batch.count
        var out: [Row] = []
        for row in batch.rows {
            let key = operand == 0 ? layout.leftKey(of: row) : layout.rightKey(of: row)
            if keep { tables[operand][key, default: []].append(row) }
            guard let matches = tables[other][key] else { continue }
            for match in matches {
                out.append(operand == 0 ? layout.combine(row, match) : layout.combine(match, row))
            }
        }
        return Batch(out)
    }

    func operandCompleted(_ operand: Int) -> Batch {
        complete[operand] = true
        tables[1 - operand] = [:]
        return .empty
    }

    /// The distinct keys stored for one operand.
    func keys(ofOperand operand: Int) -> [Row] { Array(tables[operand].keys) }

    func freshCopy() -> any Kernel { HashJoinKernel(layout: layout) }
}
