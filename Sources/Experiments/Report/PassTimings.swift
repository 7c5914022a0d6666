import FileSupport

/// `passes.csv`, when a run wrote one: one row per cell × repetition × optimizer pass or
/// heuristic hook, reduced here to the median time per cell and pass (or hook).
struct PassTimings {
    static let fileName = "passes.csv"
    static let requiredColumns = ["query", "rows", "backend", "flags", "repetition", "kind", "name", "calls", "us"]

    struct Entry {
        let query: String
        let rows: Int
        let backend: String
        let flags: String
        /// The flag set's name, when the file has a `flagset` column.
        let flagset: String?
        let kind: String
        let name: String
        let repetitions: Int
        let calls: Spread
        let microseconds: Spread
    }

    let entries: [Entry]

    /// Nil when the run has no `passes.csv`; a file that cannot be read as one throws a message.
    static func read(directory: String) throws -> PassTimings? {
        let path = FileSystem.join(directory, fileName)
        guard FileSystem.exists(path) else { return nil }
        let table = try CSVTable(parsing: try FileSystem.readText(path), file: path)
        for column in requiredColumns where table.column(column) == nil {
            throw ExperimentFailure.usage("\(Printable.escaped(path)):1: no column '\(column)' in the header")
        }
        struct Key: Hashable {
            let query: String; let rows: Int; let backend: String; let flags: String; let flagset: String?; let kind: String; let name: String
        }
        let hasFlagset = table.column("flagset") != nil
        var order: [Key] = []
        var samples: [Key: (calls: [Double], us: [Double])] = [:]
        for record in table.located(file: path) {
            let key = Key(query: record.text("query"), rows: try record.integer("rows", in: 1...Int.max),
                          backend: record.text("backend"), flags: record.text("flags"),
                          flagset: hasFlagset ? record.text("flagset") : nil, kind: record.text("kind"),
                          name: record.text("name"))
            // As merge and --resume: `kind: bogus` was shown on the page.
            guard key.kind == "pass" || key.kind == "hook" else { throw record.failure("kind", "expected pass or hook") }
            let calls = Double(try record.integer("calls", in: 0...Int.max))
            let us = try record.microseconds("us")
            if samples[key] == nil { order.append(key) }
            samples[key, default: ([], [])].calls.append(calls)
            samples[key, default: ([], [])].us.append(us)
        }
        return PassTimings(entries: order.compactMap { key in
            guard let s = samples[key], let calls = Spread(s.calls), let us = Spread(s.us) else { return nil }
            return Entry(query: key.query, rows: key.rows, backend: key.backend, flags: key.flags, flagset: key.flagset, kind: key.kind,
                         name: key.name, repetitions: s.us.count, calls: calls, microseconds: us)
        })
    }
}
