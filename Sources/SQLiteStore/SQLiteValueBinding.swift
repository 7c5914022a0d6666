import CSQLite
import Relational

// Moving `Value`s in and out of SQLite. Columns carry no declared type (no affinity), so a
// value is stored exactly as bound: 3.0 stays real, "007" stays text, null is SQL NULL and
// blobs are raw bytes.

/// SQLite's SQLITE_TRANSIENT: SQLite copies the bytes before the bind call returns.
@inline(__always)
private func transient() -> sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}

extension SQLiteStatement {
    /// Binds `value` to the 1-based parameter `index`.
    func bind(_ value: Value, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, index)
        case let .integer(i):
            rc = sqlite3_bind_int64(handle, index, i)
        case let .real(d):
            // SQLite turns NaN into NULL; refuse it rather than change the value silently.
            guard !d.isNaN else {
                throw SQLiteError(.unsupportedValue,
                    "cannot bind NaN to parameter \(index) of \(abbreviatedSQL(sql)): SQLite stores NaN as NULL")
            }
            rc = sqlite3_bind_double(handle, index, d)
        case let .text(s):
            var copy = s
            rc = copy.withUTF8 { buffer -> Int32 in
                // A nil base address would bind NULL instead of the empty string.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(buffer.count), transient())
                }
            }
        case let .blob(bytes):
            if bytes.isEmpty {
                // sqlite3_bind_blob with a nil pointer binds NULL; zeroblob(0) is the empty blob.
                rc = sqlite3_bind_zeroblob(handle, index, 0)
            } else {
                rc = bytes.withUnsafeBytes { raw in
                    sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), transient())
                }
            }
        }
        if rc != SQLITE_OK {
            throw SQLiteError.sqlite("binding parameter \(index) (\(value.typeName)) of \(abbreviatedSQL(sql))",
                code: rc, db: databaseHandle)
        }
    }

    /// Binds `values` to parameters 1...n, after clearing earlier bindings.
    func bind(_ values: [Value]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(.usage,
                "\(abbreviatedSQL(sql)) has \(expected) parameters but \(values.count) values were given")
        }
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    /// The value in result column `column` (0-based) of the current row.
    func value(at column: Int32) -> Value {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let raw = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: raw, count: count)))
        default:
            return .null
        }
    }

    /// The current row's first `width` columns.
    func row(width: Int) -> Row {
        var values = [Value]()
        values.reserveCapacity(width)
        for i in 0..<Int32(width) { values.append(value(at: i)) }
        return Row(values)
    }
}
