// The client side of scripts/engines/duckdb_helper.py (protocol documented at the top of
// that file): a long-lived Python process running DuckDB, loaded once per dataset. Used by
// the `duckdb` baseline engine and by the bulk benchmarks.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FileSupport
import Relational
import Workloads

public final class DuckDBClient {
    private let process: ChildProcess
    public let version: String
    public let python: String
    /// The label errors name (the engine's, or `DuckDB helper` in the benchmarks).
    public let label: String
    private var nextID: Int64 = 1
    private var closed = false

    /// Starts the helper with `python` and checks the protocol version.
    public convenience init(python: String, script: String, label: String = "duckdb") throws {
        try self.init(setup: DuckDBHelperSetup(python: python, script: script), label: label)
    }

    /// Starts the helper as `setup` says and checks the protocol version. A helper that does
    /// not answer the first request properly, or not within the start-up timeout, is the
    /// engine missing (the setup names the wrong thing), and is killed.
    public init(setup: DuckDBHelperSetup, label: String = "duckdb") throws {
        self.label = label
        let script = setup.script
        guard access(script, R_OK) == 0 else {
            throw EngineError.missing(engine: label, "the DuckDB helper script \(script) is not there (set TESTBED_DUCKDB_HELPER to its path)")
        }
        do {
            process = try ChildProcess(arguments: [setup.python, script], ownProcessGroup: true)
        } catch {
            throw EngineError.missing(engine: label, "cannot start \(setup.pythonName): \(error); install Python 3 and run `bash scripts/setup.sh --engines`")
        }
        let hello: JSON
        do {
            hello = try DuckDBClient.send(process, ["op": .string("hello")], id: 0, label: label, within: Double(setup.startTimeout))
        } catch {
            process.finish(grace: 0)
            if let timeout = error as? ChildProcessError, timeout.timedOut {
                throw EngineError.missing(engine: label, "\(setup.scriptName), run by \(setup.pythonName), did not answer within "
                    + "\(setup.startTimeout) s of starting (\(DuckDBHelperSetup.timeoutVariable) sets the limit)")
            }
            if let engineError = error as? EngineError, case let .failed(_, text) = engineError, text.contains("not installed") {
                throw EngineError.missing(engine: label, text)
            }
            var why = "\(error)"
            if let engineError = error as? EngineError, case let .failed(_, text) = engineError { why = text }
            throw EngineError.missing(engine: label, "\(setup.scriptName), run by \(setup.pythonName), did not start as the DuckDB helper: \(why)")
        }
        guard hello["protocol"]?.int == 1 else {
            process.finish(grace: 2)
            throw EngineError.missing(engine: label, "\(setup.scriptName) speaks protocol \(hello["protocol"]?.text ?? "?"), this client 1")
        }
        version = hello["duckdb"]?.string ?? "?"
        self.python = hello["python"]?.string ?? "?"
    }

    deinit { close() }

    /// Asks the helper to quit and waits for it (killing it after two seconds).
    public func close() {
        guard !closed else { return }
        closed = true
        _ = try? process.writeLine(JSON.object(["op": .string("quit")]).text)
        process.finish(grace: 2)
    }

    /// The helper's process id (tests kill it to check the error).
    public var processID: Int32 { process.pid }

    /// Sends `request` and reads its answer; with `seconds`, an answer later than that is a
    /// `ChildProcessError` whose `timedOut` is set.
    private static func send(
        _ process: ChildProcess, _ request: [String: JSON], id: Int64, label: String, within seconds: Double? = nil
    ) throws -> JSON {
        var request = request
        request["id"] = .integer(id)
        do { try process.writeLine(JSON.object(request).text) } catch {
            // A signal's cleanup killed the helper: the process is dying of the signal.
            SignalCleanup.shared.parkIfDying()
            throw EngineError.failed(engine: label, "the DuckDB helper stopped (\(error)); its error, if any, is above")
        }
        guard let line = try process.readLine(within: seconds) else {
            SignalCleanup.shared.parkIfDying()
            throw EngineError.failed(engine: label, "the DuckDB helper (\(process.arguments.joined(separator: " "))) exited; "
                + "its error, if any, is above (is duckdb installed? `bash scripts/setup.sh --engines`)")
        }
        let response: JSON
        do { response = try JSON.parse(line) } catch {
            throw EngineError.failed(engine: label, "the DuckDB helper answered something that is not JSON: \(line.prefix(200))")
        }
        guard response["id"] == .integer(id) else {
            throw EngineError.failed(engine: label, "DuckDB helper: answer out of order: \(line.prefix(200))")
        }
        guard response["ok"] == .bool(true) else {
            throw EngineError.failed(engine: label, response["error"]?.string ?? String(line.prefix(200)))
        }
        return response
    }

    @discardableResult
    public func request(_ request: [String: JSON]) throws -> JSON {
        guard !closed else { throw EngineError.failed(engine: label, "the DuckDB helper was stopped") }
        nextID += 1
        return try DuckDBClient.send(process, request, id: nextID, label: label)
    }

    public func setThreads(_ threads: Int) throws {
        try request(["op": .string("set"), "threads": .integer(Int64(threads))])
    }

    /// Runs one statement, discarding its result.
    public func execute(_ sql: String, _ parameters: [Value] = []) throws {
        try request(["op": .string("exec"), "sql": .string(sql), "params": .array(parameters.map(DuckDBClient.json))])
    }

    /// Loads the CSV files of `dataset` (written into `directory`, which must not exist or
    /// be empty) with exact column types, replacing tables of the same names.
    public func load(_ dataset: Dataset, csvDirectory directory: String) throws {
        try dataset.writeCSV(to: directory)
        try load(dataset.tables, types: dataset.tables.map { try DuckDBClient.columnTypes(of: $0, label: label) }, csvDirectory: directory)
    }

    /// Loads `tables` from `<directory>/<table>.csv` as written by `CSVWriter`, with the given
    /// column types (one per attribute, in scheme order), replacing tables of the same names.
    /// Returns the helper's load time in nanoseconds.
    @discardableResult
    public func load(_ tables: [DatasetTable], types: [[ColumnType]], csvDirectory directory: String) throws -> Int {
        var specs: [JSON] = []
        for (table, columnTypes) in zip(tables, types) {
            let columns = zip(table.scheme.attributes, columnTypes).map { attribute, type -> JSON in
                .object(["name": .string(attribute.name), "type": .string(DuckDBDialect().columnTypeName(type) ?? "VARCHAR")])
            }
            specs.append(.object([
                "name": .string(table.name), "csv": .string(directory + "/" + table.name + ".csv"), "columns": .array(columns),
            ]))
        }
        let response = try request(["op": .string("load"), "tables": .array(specs), "replace": .bool(true)])
        for table in tables {
            let loaded = response["tables"]?[table.name]?["rows"]?.int
            guard loaded == table.rowCount else {
                throw EngineError.failed(engine: label, "DuckDB loaded \(loaded.map(String.init) ?? "no") rows of \(table.name), expected \(table.rowCount)")
            }
        }
        return response["ns"]?.int ?? 0
    }

    /// Each column's type, or an error for a column DuckDB cannot hold (mixed classes, NaN,
    /// integers beyond 2^53 beside reals).
    public static func columnTypes(of table: DatasetTable, label: String) throws -> [ColumnType] {
        try table.scheme.attributes.map { attribute in
            let values = try table.column(attribute)
            let type = ColumnType.of(values)
            if case .mixed = type {
                throw EngineError.unsupported(engine: label, "table \(table.name): " + type.refusal(column: attribute.name, dialect: "DuckDB"))
            }
            for value in values {
                if case let .real(d) = value, d.isNaN {
                    throw EngineError.unsupported(engine: label,
                        "table \(table.name), column \(attribute.name) holds NaN, which DuckDB orders above every number (the testbed below)")
                }
                if type == .real, case let .integer(i) = value, i.magnitude > 1 << 53 {
                    throw EngineError.unsupported(engine: label,
                        "table \(table.name), column \(attribute.name) mixes reals with the integer \(i), which a DOUBLE column cannot hold exactly")
                }
            }
            return type
        }
    }

    public struct Timing {
        public let rows: Int
        public let samples: [Duration]
        public let hash: String?
    }

    /// Runs `sql` `runs` times after `warmup` untimed runs; times are measured inside the
    /// helper. `dialect` is `sqlite` for the SQL the SQLite translator writes.
    public func query(sql: String, parameters: [Value], dialect: String = "sqlite", mode: String, runs: Int, warmup: Int, hash: Bool) throws -> Timing {
        let response = try request([
            "op": .string("query"), "sql": .string(sql), "params": .array(parameters.map(DuckDBClient.json)),
            "dialect": .string(dialect), "mode": .string(mode), "runs": .integer(Int64(runs)),
            "warmup": .integer(Int64(warmup)), "hash": .bool(hash),
        ])
        guard let rows = response["rows"]?.int, let times = response["times_ns"]?.array else {
            throw EngineError.failed(engine: label, "DuckDB helper: malformed answer \(response.text.prefix(200))")
        }
        let samples = times.compactMap { $0.int }.map { Duration.nanoseconds($0) }
        return Timing(rows: rows, samples: samples, hash: response["hash"]?.string)
    }

    /// Runs `sql` once, timed inside the helper from executing to having fetched every row,
    /// and returns the rows of that run and its time in nanoseconds.
    public func fetch(sql: String, parameters: [Value]) throws -> (rows: [Row], nanoseconds: Int) {
        let response = try request([
            "op": .string("query"), "sql": .string(sql), "params": .array(parameters.map(DuckDBClient.json)),
            "dialect": .string("duckdb"), "mode": .string("rows"), "once": .bool(true), "return_rows": .bool(true),
        ])
        guard let result = response["result"]?.array, let time = response["times_ns"]?.array?.first?.int else {
            throw EngineError.failed(engine: label, "DuckDB helper: malformed answer \(response.text.prefix(200))")
        }
        var rows: [Row] = []
        rows.reserveCapacity(result.count)
        for item in result {
            guard let values = item.array else { throw EngineError.failed(engine: label, "DuckDB helper: a row is not a list") }
            rows.append(Row(try values.map { try DuckDBClient.value($0, label: label) }))
        }
        return (rows, time)
    }

    /// A value in the protocol's encoding.
    public static func json(_ value: Value) -> JSON {
        switch value {
        case .null: return .null
        case let .integer(i): return .integer(i)
        case let .real(d):
            if d.isNaN { return .object(["real": .string("nan")]) }
            if d.isInfinite { return .object(["real": .string(d < 0 ? "-inf" : "inf")]) }
            return .number(d)
        case let .text(s): return .string(s)
        case let .blob(bytes): return .object(["blob": .string(hex(bytes))])
        }
    }

    /// A value from the protocol's encoding.
    public static func value(_ json: JSON, label: String) throws -> Value {
        switch json {
        case .null: return .null
        case let .integer(i): return .integer(i)
        case let .number(d): return .real(d)
        case let .string(s): return .text(s)
        case let .bool(b): return .integer(b ? 1 : 0)
        case .object:
            if let hexText = json["blob"]?.string, let bytes = bytes(hex: hexText) { return .blob(bytes) }
            switch json["real"]?.string {
            case "nan": return .real(.nan)
            case "inf": return .real(.infinity)
            case "-inf": return .real(-.infinity)
            default: break
            }
        case .array: break
        }
        throw EngineError.failed(engine: label, "DuckDB helper: not a value: \(json.text.prefix(80))")
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return out
    }

    static func bytes(hex: String) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }
}
