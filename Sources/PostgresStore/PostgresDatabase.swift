import PostgresClient
import Relational

/// A throw-away PostgreSQL server with one connection: tables are created and loaded
/// through it, and translated relations run on it. `stop` (or the end of the process, see
/// `PostgresServer`) removes everything.
public final class PostgresDatabase {
    public let server: PostgresServer
    public let connection: PostgresConnection
    private var tables: [String: PostgresTable] = [:]

    public static func start(_ options: PostgresServer.Options = PostgresServer.Options()) throws -> PostgresDatabase {
        let server = try PostgresServer.start(options)
        do {
            return PostgresDatabase(server: server, connection: try server.connect())
        } catch {
            server.stop()
            throw error
        }
    }

    private init(server: PostgresServer, connection: PostgresConnection) {
        self.server = server
        self.connection = connection
    }

    public func stop() {
        connection.close()
        server.stop()
    }

    public func table(named name: String) -> PostgresTable? { tables[name] }

    /// Creates `name` with one typed column per attribute (each column's type is the class
    /// of its values; a column mixing text and numbers, say, is refused), loads `rows`
    /// through COPY, then adds the key and the indexes: `primaryKey` when given (its
    /// attributes must hold no null), else a unique index over the whole row (a set, with
    /// nulls equal, as in the testbed), and an index on each of `indexedAttributes` that
    /// does not lead the key. A failure drops what was made.
    @discardableResult
    public func createTable(
        _ name: String, scheme: Scheme, rows: ColumnStore, primaryKey: [Attribute] = [], indexedAttributes: [Attribute] = []
    ) throws -> PostgresTable {
        guard scheme.count > 0 else {
            throw PostgresError(.usage, "cannot create PostgreSQL table '\(name)': a table needs at least one attribute")
        }
        guard rows.width == scheme.count else {
            throw PostgresError(.usage, "table '\(name)': \(rows.width) columns of rows for \(scheme.count) attributes")
        }
        for identifier in [name] + scheme.attributes.map(\.name) {
            if let problem = PostgresSQL.identifierProblem(identifier) {
                throw PostgresError(.unsupportedValue, "table '\(name)': the name '\(identifier)' cannot be a PostgreSQL identifier: \(problem)")
            }
        }
        var kinds: [ColumnKind] = []
        for (i, attribute) in scheme.attributes.enumerated() {
            switch ColumnKind.of((0..<rows.count).lazy.map { rows.value(row: $0, column: i) }) {
            case let .success(kind): kinds.append(kind)
            case let .failure(mixed):
                throw PostgresError(.unsupportedValue,
                    "table '\(name)': attribute '\(attribute)' holds both \(mixed.first.name) and \(mixed.second.name) values; "
                    + "a PostgreSQL column has one type, and the testbed's order across types cannot be kept in it")
            }
        }
        for a in primaryKey + indexedAttributes { _ = try scheme.requireIndex(of: a, context: "table \(name)") }
        let quoted = PostgresSQL.quoteIdentifier(name)
        let columns = scheme.attributes.map { PostgresSQL.quoteIdentifier($0.name) }
        let definitions = zip(columns, kinds).map { "\($0) \($1.postgresType.sqlName)" }
        try connection.command("CREATE TABLE \(quoted) (\(definitions.joined(separator: ", ")))")
        do {
            try connection.copy(into: name, columns: scheme.attributes.map(\.name), types: kinds.map(\.postgresType),
                                rows: (0..<rows.count).lazy.map { rows.row(at: $0).values })
            let key = primaryKey.map { PostgresSQL.quoteIdentifier($0.name) }
            if !key.isEmpty {
                try connection.command("ALTER TABLE \(quoted) ADD PRIMARY KEY (\(key.joined(separator: ", ")))")
            } else {
                let nullsEqual = try serverVersion() >= 150_000 ? " NULLS NOT DISTINCT" : ""
                try connection.command("CREATE UNIQUE INDEX \(PostgresSQL.quoteIdentifier(name + "_row")) ON \(quoted) "
                                       + "(\(columns.joined(separator: ", ")))\(nullsEqual)")
            }
            let leading = primaryKey.first ?? scheme.attributes[0]
            for (n, a) in indexedAttributes.enumerated() where a != leading {
                let index = PostgresSQL.quoteIdentifier("\(name)_index\(n)")
                try connection.command("CREATE INDEX \(index) ON \(quoted) (\(PostgresSQL.quoteIdentifier(a.name)))")
            }
        } catch {
            try? connection.command("DROP TABLE IF EXISTS \(quoted)")
            throw error
        }
        let table = PostgresTable(database: self, name: name, scheme: scheme, kinds: kinds,
                                  indexedAttributes: indexedAttributes, rowCount: rows.count)
        tables[name] = table
        return table
    }

    /// `ANALYZE`: statistics for the planner (the `-analyzed` engines).
    public func analyze() throws { try connection.command("ANALYZE") }

    /// Sets planner and executor settings for this session (`enable_hashjoin: off`, ...),
    /// through `set_config` with bound parameters; an unknown name or a bad value is
    /// PostgreSQL's error.
    public func apply(settings: [String: String]) throws {
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
            do {
                try connection.execute("SELECT set_config($1, $2, false)", [.text(name), .text(value)])
            } catch let error as PostgresError where error.kind == .statement {
                throw PostgresError(.usage, "PostgreSQL setting \(name): \(value): \(error.message)", sqlState: error.sqlState)
            }
        }
    }

    /// Every row of a translated relation, in the scheme's column order.
    public func run(_ translation: PostgresTranslation) throws -> [Row] {
        try connection.execute(translation.sql, translation.parameters).rows
    }

    /// PostgreSQL's plan for a translated relation as JSON (`EXPLAIN (FORMAT JSON)`); with
    /// `analyze`, run, with actual rows and times.
    public func explain(_ translation: PostgresTranslation, analyze: Bool = false) throws -> String {
        try connection.explain(translation.sql, translation.parameters, analyze: analyze)
    }

    /// `server_version_num`, e.g. 150018.
    public func serverVersion() throws -> Int {
        guard case let .text(text)? = try connection.execute("SHOW server_version_num").rows.first?.values.first,
              let number = Int(text)
        else { throw PostgresError(.connection, "PostgreSQL did not say its version") }
        return number
    }
}
