import CSQLite
import Relational

// Filters whose SQL binds more parameters than one statement allows (SQLite's
// SQLITE_LIMIT_VARIABLE_NUMBER, 32,766 by default): a join's key filter with an unlimited
// threshold can hold that many keys. The filter's disjuncts, with large IN-sets cut into
// chunks, are packed into several statements run one after another; a row two statements
// both return is delivered once. Anything that cannot be cut that way (a large IN-set under
// AND or NOT) is fetched by a scan tested in Swift. Either way the cursor delivers exactly
// the rows that satisfy the filter, each once, as every cursor must.

extension SQLiteDatabase {
    /// The most parameters one statement of this connection can bind.
    var parameterLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }
}

extension SQLiteTable {
    var parameterLimit: Int { max(1, maxParametersPerStatement ?? database.parameterLimit) }

    func largeFilterCursor(_ filter: Predicate) throws -> any RowCursor {
        let limit = parameterLimit
        var parts = [filter]
        if case let .or(inner) = filter { parts = inner }
        var pieces: [Predicate] = []
        for part in parts {
            guard case let .inSet(attributes, keys) = part, keys.count * max(1, attributes.count) > limit else {
                pieces.append(part)
                continue
            }
            let perChunk = max(1, limit / max(1, attributes.count))
            let sorted = keys.sorted()
            for start in stride(from: 0, to: sorted.count, by: perChunk) {
                let chunk = Set(sorted[start..<min(start + perChunk, sorted.count)])
                pieces.append(.inSet(attributes: attributes, keys: chunk))
            }
        }
        var statements: [(sql: String, parameters: [Value])] = []
        var group: [Predicate] = []
        var bound = 0
        func flush() throws {
            guard !group.isEmpty else { return }
            let (condition, parameters) = try whereClause(.any(group))
            statements.append(("SELECT \(selectList) FROM \(quotedName) WHERE \(condition)", parameters))
            group = []
            bound = 0
        }
        for piece in pieces {
            let needed = try whereClause(piece).1.count
            if needed > limit {
                let test = try CompiledPredicate(filter, scheme: scheme)
                return ChainedSQLiteCursor(table: self, statements: [("SELECT \(selectList) FROM \(quotedName)", [])], test: test)
            }
            if bound + needed > limit { try flush() }
            group.append(piece)
            bound += needed
        }
        try flush()
        return ChainedSQLiteCursor(table: self, statements: statements, test: nil)
    }
}

/// Runs statements one after another as one cursor: rows are tested with `test` when given,
/// and de-duplicated when there is more than one statement.
final class ChainedSQLiteCursor: RowCursor {
    private let table: SQLiteTable
    private var statements: ArraySlice<(sql: String, parameters: [Value])>
    private var current: SQLiteCursor?
    private let test: CompiledPredicate?
    private var delivered: Set<Row>?

    init(table: SQLiteTable, statements: [(sql: String, parameters: [Value])], test: CompiledPredicate?) {
        self.table = table
        self.statements = statements[...]
        self.test = test
        self.delivered = statements.count > 1 ? [] : nil
    }

    func next(maxRows: Int) throws -> [Row] {
        while true {
            if current == nil {
                guard let (sql, parameters) = statements.popFirst() else { return [] }
                current = try SQLiteCursor(table: table, sql: sql, parameters: parameters)
            }
            guard let cursor = current else { return [] }
            let batch = try cursor.next(maxRows: maxRows)
            if batch.isEmpty {
                current = nil
                continue
            }
            var out = batch
            if let test { out = out.filter { test.matches($0) } }
            if delivered != nil { out = out.filter { delivered?.insert($0).inserted ?? true } }
            if !out.isEmpty { return out }
        }
    }
}
