// The client side of scripts/engines/duckdb_helper.py (protocol documented at the top of
// that file): a long-lived Python process running DuckDB, loaded once per dataset.
import Relational
import Workloads

final class DuckDBHelper {
    private let process: ChildProcess
    let version: String
    let python: String
    private var nextID: Int64 = 1

    /// Starts the helper with `python` and checks the protocol version.
    init(python: String, script: String) throws {
        process = try ChildProcess(arguments: [python, script])
        let hello = try DuckDBHelper.send(process, ["op": .string("hello")], id: 0)
        guard hello["protocol"]?.int == 1 else {
            throw BulkFailure(description: "\(script) speaks protocol \(hello["protocol"]?.text ?? "?"), this client 1")
        }
        version = hello["duckdb"]?.string ?? "?"
        self.python = hello["python"]?.string ?? "?"
    }

    deinit {
        _ = try? request(["op": .string("quit")])
        process.finish()
    }

    private static func send(_ process: ChildProcess, _ request: [String: JSON], id: Int64) throws -> JSON {
        var request = request
        request["id"] = .integer(id)
        try process.writeLine(JSON.object(request).text)
        guard let line = try process.readLine() else {
            throw BulkFailure(description: "the DuckDB helper (\(process.arguments.joined(separator: " "))) exited; "
                + "its error is above (is duckdb installed? `bash scripts/setup.sh --engines`)")
        }
        let response = try JSON.parse(line)
        guard response["id"] == .integer(id) else { throw BulkFailure(description: "DuckDB helper: answer out of order: \(line)") }
        guard response["ok"] == .bool(true) else {
            throw BulkFailure(description: "DuckDB helper: \(response["error"]?.string ?? line)")
        }
        return response
    }

    @discardableResult
    func request(_ request: [String: JSON]) throws -> JSON {
        nextID += 1
        return try DuckDBHelper.send(process, request, id: nextID)
    }

    func setThreads(_ threads: Int) throws {
        try request(["op": .string("set"), "threads": .integer(Int64(threads))])
    }

    /// Loads the CSV files of `dataset` (written into `directory`, which must not exist or
    /// be empty) with exact column types, replacing tables of the same names.
    func load(_ dataset: Dataset, csvDirectory directory: String) throws {
        try dataset.writeCSV(to: directory)
        var tables: [JSON] = []
        for table in dataset.tables {
            let columns = try table.scheme.attributes.map { attribute -> JSON in
                .object(["name": .string(attribute.name),
                         "type": .string(try DuckDBHelper.columnType(try table.column(attribute), table: table.name, column: attribute.name))])
            }
            tables.append(.object([
                "name": .string(table.name),
                "csv": .string(directory + "/" + table.name + ".csv"),
                "columns": .array(columns),
            ]))
        }
        let response = try request(["op": .string("load"), "tables": .array(tables), "replace": .bool(true)])
        for table in dataset.tables {
            let loaded = response["tables"]?[table.name]?["rows"]?.int
            guard loaded == table.rows.count else {
                throw BulkFailure(description: "DuckDB loaded \(loaded.map(String.init) ?? "no") rows of \(table.name), expected \(table.rows.count)")
            }
        }
    }

    /// The one DuckDB type that holds every value of a column exactly, or an error: DuckDB
    /// columns have one type, testbed columns may mix storage classes.
    static func columnType(_ values: [Value], table: String, column: String) throws -> String {
        var integers = false, reals = false, texts = false, blobs = false
        for value in values {
            switch value {
            case .null: break
            case let .integer(i):
                integers = true
                if reals, i.magnitude > 1 << 53 { return try mixed() }
            case .real: reals = true
            case .text: texts = true
            case .blob: blobs = true
            }
        }
        func mixed() throws -> String {
            throw BulkFailure(description: "\(table).\(column) mixes storage classes; DuckDB needs one type per column")
        }
        switch (integers || reals, texts, blobs) {
        case (false, false, false): return "BIGINT"
        case (true, false, false): return reals ? "DOUBLE" : "BIGINT"
        case (false, true, false): return "VARCHAR"
        case (false, false, true): return "BLOB"
        default: return try mixed()
        }
    }

    struct Timing {
        let rows: Int
        let samples: [Duration]
        let hash: String?
    }

    /// Runs `sql` (the SQLite dialect the testbed's translator writes) `runs` times after
    /// `warmup` untimed runs; times are measured inside the helper.
    func query(sql: String, parameters: [Value], mode: String, runs: Int, warmup: Int, hash: Bool) throws -> Timing {
        let response = try request([
            "op": .string("query"), "sql": .string(sql), "params": .array(parameters.map(DuckDBHelper.json)),
            "dialect": .string("sqlite"), "mode": .string(mode), "runs": .integer(Int64(runs)),
            "warmup": .integer(Int64(warmup)), "hash": .bool(hash),
        ])
        guard let rows = response["rows"]?.int, let times = response["times_ns"]?.array else {
            throw BulkFailure(description: "DuckDB helper: malformed answer \(response.text)")
        }
        let samples = times.compactMap { $0.int }.map { Duration.nanoseconds($0) }
        return Timing(rows: rows, samples: samples, hash: response["hash"]?.string)
    }

    /// A value in the protocol's encoding.
    static func json(_ value: Value) -> JSON {
        switch value {
        case .null: return .null
        case let .integer(i): return .integer(i)
        case let .real(d):
            if d.isNaN { return .object(["real": .string("nan")]) }
            if d.isInfinite { return .object(["real": .string(d < 0 ? "-inf" : "inf")]) }
            return .number(d)
        case let .text(s): return .string(s)
        case let .blob(bytes): return .object(["blob": .string(ResultHash.hex(bytes))])
        }
    }
}
