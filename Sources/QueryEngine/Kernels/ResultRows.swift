import Relational

/// One output's rows as the runner produced them: the emitted batches' pieces (column
/// views into memory tables' snapshots, or decoded rows), decoded into `Row`s only when
/// `rows` is first read, and then kept. An unread view costs its positions (8 bytes a row
/// and a part) and shares the tables' storage; `count` needs no decoding.
public final class ResultRows {
    private var pieces: [BatchPiece] = []
    private var decoded: [Row]?
    /// Rows in the result.
    public private(set) var count = 0

    init() {}

    func append(_ batch: Batch) {
        if batch.isEmpty { return }
        if decoded != nil {
            decoded?.append(contentsOf: batch.rows)
        } else {
            pieces.append(contentsOf: batch.pieces)
        }
        count += batch.count
    }

    /// Every row, in the order the runner emitted them (decoded once, on first use).
    public var rows: [Row] {
        if let decoded { return decoded }
        var batch = Batch()
        batch.pieces = pieces
        let rows = batch.rows
        decoded = rows
        pieces = []
        return rows
    }
}
