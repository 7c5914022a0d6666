import Relational

// SQLite tables as mutable sources for transactional databases: the transaction layer has
// already checked the rows, so these only store them, each call in one SQLite transaction.

extension SQLiteTable: MutableSource {
    public func insertRows(_ rows: [Row]) throws {
        try add(rows)
    }

    public func removeRows(_ rows: [Row]) throws {
        guard !rows.isEmpty else { return }
        // Chunks keep each DELETE's bound parameters far below SQLite's limit.
        let chunk = max(1, 2000 / max(1, scheme.count))
        try database.transaction {
            for start in stride(from: 0, to: rows.count, by: chunk) {
                try delete(where: .matchingRows(rows[start..<min(start + chunk, rows.count)], scheme: scheme))
            }
        }
    }
}
