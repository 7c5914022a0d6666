import Relational

extension SQLiteDatabase {
    /// Creates a table whose columns are the scheme's attributes, declared with no type so
    /// values are stored exactly as bound. `primaryKey` names the key attributes (empty: the
    /// whole row is the key, as befits a set); each entry of `indexes` is one index's
    /// attributes in order. Throws if the table exists.
    @discardableResult
    public func createTable(
        _ name: String, scheme: Scheme, primaryKey: [Attribute] = [], indexes: [[Attribute]] = []
    ) throws -> SQLiteTable {
        guard scheme.count > 0 else {
            throw SQLiteError(.usage, "cannot create table '\(name)' in '\(path)': a table needs at least one attribute")
        }
        for a in primaryKey + indexes.flatMap({ $0 }) {
            _ = try scheme.requireIndex(of: a, context: "create table \(name)")
        }
        if let empty = indexes.firstIndex(where: \.isEmpty) {
            throw SQLiteError(.usage, "cannot create table '\(name)': index \(empty) names no attributes")
        }
        let key = primaryKey.isEmpty ? scheme.attributes : primaryKey
        let columns = scheme.attributes.map(\.quotedSQL).joined(separator: ", ")
        let keyList = key.map(\.quotedSQL).joined(separator: ", ")
        var script = "CREATE TABLE \(quoteIdentifier(name)) (\(columns), PRIMARY KEY (\(keyList)));"
        for (i, index) in indexes.enumerated() {
            script += "\n" + Self.createIndexSQL(table: name, number: i, attributes: index)
        }
        try transaction { try executeScript(script) }
        return try table(named: name)
    }

    static func createIndexSQL(table: String, number: Int, attributes: [Attribute]) -> String {
        let indexName = "\(table)_index\(number)_" + attributes.map(\.name).joined(separator: "_")
        let list = attributes.map(\.quotedSQL).joined(separator: ", ")
        return "CREATE INDEX IF NOT EXISTS \(quoteIdentifier(indexName)) ON \(quoteIdentifier(table)) (\(list));"
    }

    /// The table called `name`, with its scheme, primary key and indexes read back from
    /// SQLite. The same object is returned while anyone holds it, so statistics are shared.
    public func table(named name: String) throws -> SQLiteTable {
        if let known = registeredTable(name) { return known }
        let columns = try query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(name)])
        guard !columns.isEmpty else {
            throw SQLiteError(.noSuchTable, "no table named '\(name)' in database '\(path)'")
        }
        var attributes: [Attribute] = []
        var keyed: [(Int64, Attribute)] = []
        for row in columns {
            guard case let .text(column) = row[0] else { continue }
            attributes.append(Attribute(column))
            if case let .integer(position) = row[1], position > 0 { keyed.append((position, Attribute(column))) }
        }
        let scheme = try Scheme(attributes)
        var indexes: [[Attribute]] = []
        for row in try query("SELECT name FROM pragma_index_list(?) ORDER BY name", [.text(name)]) {
            guard case let .text(index) = row[0] else { continue }
            let parts = try query("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [.text(index)])
            var list: [Attribute] = []
            for part in parts {
                // Expression indexes have no column name; they cannot serve attribute lookups.
                guard case let .text(column) = part[0] else { break }
                list.append(Attribute(column))
            }
            if !list.isEmpty { indexes.append(list) }
        }
        let table = SQLiteTable(
            database: self, name: name, scheme: scheme,
            primaryKey: keyed.sorted { $0.0 < $1.0 }.map(\.1), indexes: indexes)
        register(table)
        return table
    }

    /// True if a table called `name` exists.
    public func hasTable(named name: String) throws -> Bool {
        !(try query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [.text(name)])).isEmpty
    }

    /// The existing table called `name` if its scheme is `scheme`, or a new one.
    public func getOrCreateTable(
        _ name: String, scheme: Scheme, primaryKey: [Attribute] = [], indexes: [[Attribute]] = []
    ) throws -> SQLiteTable {
        guard try hasTable(named: name) else {
            return try createTable(name, scheme: scheme, primaryKey: primaryKey, indexes: indexes)
        }
        let existing = try table(named: name)
        guard existing.scheme == scheme else {
            throw SQLiteError(.schemeMismatch,
                "table '\(name)' in '\(path)' has scheme \(existing.scheme), not the requested \(scheme)")
        }
        return existing
    }

    /// Drops the table called `name` (no error if it does not exist).
    public func dropTable(named name: String) throws {
        unregister(name)
        try executeScript("DROP TABLE IF EXISTS \(quoteIdentifier(name))")
    }

    /// Names of the user tables, sorted.
    public func tableNames() throws -> [String] {
        try query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { if case let .text(s) = $0[0] { return s } else { return nil } }
    }

    // MARK: Whole relations

    /// Translates `relation` to one SQL statement and runs it here; the rows come back as a
    /// set, values in the relation's scheme order.
    public func evaluate(_ relation: Relation) throws -> [Row] {
        let translation = try SQLTranslator.translate(relation)
        if let owner = translation.database, owner !== self {
            throw SQLiteError(.translation,
                "the relation's tables belong to database '\(owner.path)', not to '\(path)'")
        }
        return try run(translation)
    }

    /// Runs a translation made earlier (for timing the SQL alone).
    public func run(_ translation: SQLTranslation) throws -> [Row] {
        let rows = try query(translation.sql, translation.parameters)
        if translation.scheme.count == 0 { return rows.isEmpty ? [] : [Row([])] }
        return rows
    }
}
