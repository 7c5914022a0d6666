#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CLibPQ
import Relational

/// One libpq connection. Statements take their constants as bound parameters (`$1`, `$2`,
/// ...) only; parameters and results travel in binary form and come back as `Value`s. Not
/// for use from two threads at once.
public final class PostgresConnection {
    private var connection: OpaquePointer?
    /// Where the server was, for messages.
    public let socketDirectory: String

    /// Connects over the Unix socket in `socketDirectory`.
    public init(socketDirectory: String, port: Int, user: String, database: String) throws {
        self.socketDirectory = socketDirectory
        let keys = ["host", "port", "user", "dbname", "client_encoding", "application_name"]
        let values = [socketDirectory, String(port), user, database, "UTF8", "testbed"]
        let keyPointers: [UnsafeMutablePointer<CChar>?] = keys.map { strdup($0) } + [nil]
        let valuePointers: [UnsafeMutablePointer<CChar>?] = values.map { strdup($0) } + [nil]
        defer { for p in keyPointers + valuePointers { free(p) } }
        let connection = keyPointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { k in
            valuePointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                PQconnectdbParams(k.baseAddress, v.baseAddress, 0)
            }
        }
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            throw PostgresError(.connection, "cannot connect to PostgreSQL at '\(socketDirectory)': \(reason)")
        }
        self.connection = connection
    }

    deinit { close() }

    public func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// Runs one statement with bound parameters and returns every row of its result (none
    /// for statements without one).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [Value] = []) throws -> PostgresRows {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return try PostgresRows(result)
    }

    /// Runs a statement without parameters or results (SET, CREATE, ANALYZE, ...).
    public func command(_ sql: String) throws {
        try execute(sql)
    }

    /// The plan of `sql` as PostgreSQL's `EXPLAIN (FORMAT JSON)` document; with `analyze`,
    /// the statement is run and the plan carries actual rows and times.
    public func explain(_ sql: String, _ parameters: [Value] = [], analyze: Bool = false) throws -> String {
        let options = analyze ? "FORMAT JSON, ANALYZE, BUFFERS" : "FORMAT JSON"
        let rows = try execute("EXPLAIN (\(options)) " + sql, parameters)
        return rows.rows.compactMap { row -> String? in
            if case let .text(line)? = row.values.first { return line }
            return nil
        }.joined(separator: "\n")
    }

    /// Loads rows into `table` (whose columns are `columns`, of `types`) through
    /// `COPY ... FROM STDIN` in binary form. Values must match their column's type (see
    /// `BinaryCodec.encode`); a failure leaves the table as it was.
    public func copy<Rows: Sequence>(into table: String, columns: [String], types: [PostgresType], rows: Rows) throws
        where Rows.Element == [Value]
    {
        guard columns.count == types.count else {
            throw PostgresError(.usage, "COPY into \(table): \(columns.count) columns but \(types.count) types")
        }
        let list = columns.map(PostgresSQL.quoteIdentifier).joined(separator: ", ")
        let start = try run("COPY \(PostgresSQL.quoteIdentifier(table)) (\(list)) FROM STDIN (FORMAT binary)", [])
        let status = PQresultStatus(start)
        PQclear(start)
        guard status == PGRES_COPY_IN else {
            throw PostgresError(.statement, "COPY into \(table) did not start: \(lastError)")
        }
        var buffer: [UInt8] = Array("PGCOPY\n\u{FF}\r\n\0".utf8.prefix(11))
        // The signature's \377 is one byte, not UTF-8's two.
        buffer = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]
        BinaryCodec.append(UInt32(0), &buffer)  // flags
        BinaryCodec.append(UInt32(0), &buffer)  // header extension length
        var failure: Error?
        var field: [UInt8] = []
        rowLoop: for (number, row) in rows.enumerated() {
            guard row.count == columns.count else {
                failure = PostgresError(.usage, "COPY into \(table): row \(number + 1) has \(row.count) values for \(columns.count) columns")
                break
            }
            BinaryCodec.append(UInt16(columns.count), &buffer)
            for (value, type) in zip(row, types) {
                if value.isNull {
                    BinaryCodec.append(UInt32(bitPattern: -1), &buffer)
                    continue
                }
                field.removeAll(keepingCapacity: true)
                do {
                    try BinaryCodec.encode(value, as: type, into: &field)
                } catch {
                    failure = error
                    break rowLoop
                }
                BinaryCodec.append(UInt32(field.count), &buffer)
                buffer.append(contentsOf: field)
            }
            if buffer.count >= 1 << 20 {
                try send(&buffer)
            }
        }
        if let failure {
            // Aborting the COPY rolls it back on the server.
            _ = PQputCopyEnd(connection, "testbed: bad row")
            drainResults()
            throw failure
        }
        BinaryCodec.append(UInt16(0xFFFF), &buffer)
        try send(&buffer)
        guard PQputCopyEnd(connection, nil) == 1 else {
            throw PostgresError(.connection, "COPY into \(table) could not finish: \(lastError)")
        }
        var error: PostgresError?
        while let result = PQgetResult(connection) {
            if PQresultStatus(result) != PGRES_COMMAND_OK && error == nil {
                error = statementError(result, "COPY into \(table)")
            }
            PQclear(result)
        }
        if let error { throw error }
    }

    // MARK: internals

    private func send(_ buffer: inout [UInt8]) throws {
        let sent = buffer.withUnsafeBytes { bytes in
            PQputCopyData(connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        }
        buffer.removeAll(keepingCapacity: true)
        guard sent == 1 else {
            throw PostgresError(.connection, "COPY data could not be sent: \(lastError)")
        }
    }

    private func drainResults() {
        while let result = PQgetResult(connection) { PQclear(result) }
    }

    private var lastError: String {
        connection.map { Self.trimmed(PQerrorMessage($0)) } ?? "the connection is closed"
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        var text = String(cString: message)
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    /// Runs `sql` with `parameters` in binary; the result belongs to the caller.
    private func run(_ sql: String, _ parameters: [Value]) throws -> OpaquePointer {
        guard let connection else { throw PostgresError(.usage, "the PostgreSQL connection is closed") }
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var types: [UInt32] = []
        for value in parameters {
            offsets.append(bytes.count)
            guard let type = PostgresType.of(value) else {
                // A null parameter: no bytes, type left to the server (the statement casts it).
                lengths.append(-1)
                types.append(0)
                continue
            }
            try BinaryCodec.encode(value, as: type, into: &bytes)
            lengths.append(Int32(bytes.count - offsets[offsets.count - 1]))
            types.append(type.oid)
        }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let pointers: [UnsafePointer<CChar>?] = zip(offsets, lengths).map { offset, length in
                length < 0 ? nil : (base.map { $0 + offset } ?? UnsafePointer(bitPattern: 1))
            }
            return PQexecParams(connection, sql, Int32(parameters.count), types, pointers, lengths, formats, 1)
        }
        guard let result else {
            throw PostgresError(.connection, "PostgreSQL did not answer: \(lastError)")
        }
        let status = PQresultStatus(result)
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_COPY_IN:
            return result
        default:
            let error = statementError(result, "the statement")
            PQclear(result)
            throw error
        }
    }

    private func statementError(_ result: OpaquePointer, _ what: String) -> PostgresError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message = Self.trimmed(PQresultErrorMessage(result))
        // A lost connection (server killed) has no SQLSTATE of its own in libpq, or class 57/08.
        if PQstatus(connection) != CONNECTION_OK || state?.hasPrefix("08") == true || state?.hasPrefix("57P") == true {
            return PostgresError(.connection,
                "the PostgreSQL server at '\(socketDirectory)' went away during \(what): \(message.isEmpty ? lastError : message)",
                sqlState: state)
        }
        return PostgresError(.statement, "PostgreSQL refused \(what): \(message)", sqlState: state)
    }
}
