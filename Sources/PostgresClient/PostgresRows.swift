import CLibPQ
import Relational

/// A statement's result, read out of libpq's result into rows of `Value`s.
public struct PostgresRows: Sendable {
    public let columns: [String]
    public let rows: [Row]
    /// The number of rows the command touched (`INSERT`, `COPY`, ...), when it says.
    public let affected: Int?

    init(_ result: OpaquePointer) throws {
        let width = Int(PQnfields(result))
        let height = Int(PQntuples(result))
        var columns: [String] = []
        var oids: [UInt32] = []
        for c in 0..<width {
            columns.append(PQfname(result, Int32(c)).map { String(cString: $0) } ?? "column \(c + 1)")
            oids.append(PQftype(result, Int32(c)))
            if PQfformat(result, Int32(c)) != 1 {
                throw PostgresError(.unsupportedValue, "column \(columns[c]) came back as text, not binary")
            }
        }
        var rows: [Row] = []
        rows.reserveCapacity(height)
        for r in 0..<height {
            var values: [Value] = []
            values.reserveCapacity(width)
            for c in 0..<width {
                if PQgetisnull(result, Int32(r), Int32(c)) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, Int32(r), Int32(c)))
                let pointer = PQgetvalue(result, Int32(r), Int32(c))
                let cell = UnsafeRawBufferPointer(start: pointer.map { UnsafeRawPointer($0) }, count: pointer == nil ? 0 : length)
                values.append(try BinaryCodec.decode(cell, oid: oids[c], column: columns[c]))
            }
            rows.append(Row(values))
        }
        self.columns = columns
        self.rows = rows
        self.affected = PQcmdTuples(result).flatMap { Int(String(cString: $0)) }
    }
}
