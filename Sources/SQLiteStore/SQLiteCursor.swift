import Relational

/// Steps one SELECT lazily, a batch of rows per call. The statement goes back to the
/// database's cache when the cursor is drained or released.
final class SQLiteCursor: RowCursor {
    private let table: SQLiteTable
    private var statement: SQLiteStatement?
    private let width: Int

    init(table: SQLiteTable, sql: String, parameters: [Value]) throws {
        self.table = table
        self.width = table.scheme.count
        let statement = try table.database.checkout(sql)
        _ = statement.takeFullScanSteps()
        do {
            try statement.bind(parameters)
        } catch {
            table.database.checkin(statement)
            throw error
        }
        self.statement = statement
    }

    func next(maxRows: Int) throws -> [Row] {
        guard let statement else { return [] }
        var out: [Row] = []
        let limit = max(1, maxRows)
        out.reserveCapacity(min(limit, 4096))
        do {
            while out.count < limit {
                guard try statement.step() else {
                    finish()
                    break
                }
                out.append(statement.row(width: width))
            }
        } catch {
            finish()
            throw error
        }
        table.recordBatch(delivered: out.count)
        return out
    }

    private func finish() {
        guard let statement else { return }
        table.recordScan(steps: statement.takeFullScanSteps())
        table.database.checkin(statement)
        self.statement = nil
    }

    deinit { finish() }
}
