// The bulk suite's markdown report: times per engine, ratios, the seed query, memory, and
// issue 10's targets with the gap to each.

struct BulkEnvironment {
    let date: String
    let repetitions: Int
    let seedRepetitions: Int
    let seed: UInt64
    /// Timed testbed runs decode every result row (else they count the column-batch result).
    let decodeRows: Bool
    let sqliteVersion: String
    let duckdbVersion: String?
    let pythonVersion: String?
}

struct BulkReport {
    let environment: BulkEnvironment
    let results: [BulkResult]
    let memory: MemoryFigures?
    /// The SQL of each unselective query, as SQLite and DuckDB ran it.
    let sql: [String: String]

    var markdown: String {
        var out = "# Bulk queries side by side\n\n"
        let e = environment
        out += "\(e.date), release build, data seed \(e.seed). Each figure is median / min of \(e.repetitions) timed "
            + "repetitions (seed query: \(e.seedRepetitions)) after one untimed run that also checks the engines agree.\n"
        out += "Engines: the testbed on memory tables (indexes on ids and foreign keys), the query prepared once "
            + "(plan + optimize) and each repetition a run with "
            + (e.decodeRows ? "every result row decoded into a testbed row" : "the result left as column batches whose rows decode on demand (counted, not decoded; the untimed run decodes every row for the hash)")
            + "; SQLite \(e.sqliteVersion) in memory running the translator's SQL (a statement prepared once and reused from the statement cache: bind, step, "
            + "every row read into testbed rows), before and after ANALYZE; "
        if let version = e.duckdbVersion {
            out += "DuckDB \(version) (Python \(e.pythonVersion ?? "?"), 1 thread) running the same SQL (its null-safe `IS` "
                + "written `IS NOT DISTINCT FROM`), timed inside its helper process: `fetchall` fetches every row into Python "
                + "tuples, `count` runs `SELECT count(*)` over it.\n"
        } else {
            out += "DuckDB not run (`--no-duckdb`).\n"
        }
        for size in sizes {
            out += unselectiveSection(size: size)
            out += catalogSection(size: size)
        }
        out += seedSection()
        out += memorySection()
        out += targetsSection()
        out += agreementSection()
        if !sql.isEmpty {
            out += "\n## SQL of the unselective queries (SQLite and DuckDB)\n"
            for name in sql.keys.sorted() {
                out += "\n`\(name)`:\n\n```sql\n\(sql[name] ?? "")\n```\n"
            }
        }
        return out
    }

    private var sizes: [Int] {
        var out: [Int] = []
        for r in results where !out.contains(r.size) { out.append(r.size) }
        return out
    }

    private func unselectiveSection(size: Int) -> String {
        let rows = results.filter { $0.group == .unselective && $0.size == size }
        guard !rows.isEmpty else { return "" }
        let engines: [BulkEngine] = [.allOff, .allOn, .sqlite, .sqliteAnalyzed, .duckdbRows, .duckdbCount]
        var out = "\n## Unselective queries, documents, \(grouped(size)) rows\n\n"
        out += table(header: ["query", "rows"] + engines.map(\.rawValue), rows: rows.map { r in
            [r.query, r.rows[.allOff].map(grouped) ?? ""] + engines.map { cell(r, $0) }
        })
        out += "\n"
        out += table(header: ["query", "all-off / sqlite", "all-off / sqlite analyzed", "all-off / duckdb fetchall",
                              "all-off / duckdb count", "all-on / all-off"], rows: rows.map { r in
            [r.query, ratio(r, .allOff, .sqlite), ratio(r, .allOff, .sqliteAnalyzed), ratio(r, .allOff, .duckdbRows),
             ratio(r, .allOff, .duckdbCount), ratio(r, .allOn, .allOff)]
        })
        return out
    }

    private func catalogSection(size: Int) -> String {
        let rows = results.filter { $0.group == .catalog && $0.size == size }
        guard !rows.isEmpty else { return "" }
        var out = "\n## Catalog queries under all-off, \(grouped(size)) rows of each shape\n\n"
        out += table(header: ["query", "shape", "rows", "all-off", "sqlite", "sqlite analyzed", "duckdb fetchall",
                              "duckdb count", "all-off / sqlite", "all-off / sqlite analyzed", "all-off / duckdb count"],
                     rows: rows.map { r in
            [r.query, r.shape.rawValue, r.rows[.allOff].map(grouped) ?? "", cell(r, .allOff), cell(r, .sqlite),
             cell(r, .sqliteAnalyzed), cell(r, .duckdbRows), cell(r, .duckdbCount),
             ratio(r, .allOff, .sqlite), ratio(r, .allOff, .sqliteAnalyzed), ratio(r, .allOff, .duckdbCount)]
        })
        return out
    }

    private func seedSection() -> String {
        let rows = results.filter { $0.group == .seed }
        guard !rows.isEmpty else { return "" }
        var out = "\n## Seed query (`selected-document-parent`) under all-on, against SQLite after ANALYZE\n\n"
        out += table(header: ["documents", "all-on", "sqlite analyzed", "all-on / sqlite analyzed"], rows: rows.map { r in
            [grouped(r.size), cell(r, .allOn), cell(r, .sqliteAnalyzed), ratio(r, .allOn, .sqliteAnalyzed)]
        })
        return out
    }

    private func memorySection() -> String {
        guard let m = memory else { return "" }
        var out = "\n## Memory and load: \(grouped(m.rows)) documents in memory tables (indexes on id and parent_id)\n\n"
        out += "Measured in a fresh process (`testbed-bench bulk-memory`): resident set size from /proc/self/statm "
            + "before generating and after loading, with the generated rows released and freed heap returned "
            + "(`malloc_trim`).\n\n"
        out += table(header: ["resident bytes per row", "resident delta", "peak resident", "generate", "load", "generate + load",
                                     "generate + load, CPU"],
                     rows: [[fixed(m.bytesPerRow, 1), megabytes(m.residentAfter - m.residentBefore), megabytes(m.peakResident),
                             m.generate.formatted, m.load.formatted, (m.generate + m.load).formatted, m.cpu.formatted]])
        return out
    }

    private func targetsSection() -> String {
        var lines: [[String]] = []
        if let large = sizes.max() {
            let at = "at \(grouped(large))"
            for r in results where r.group == .unselective && r.size == large {
                let fasterSQLite: BulkEngine = (r.median(.sqliteAnalyzed) ?? .seconds(1e9)) < (r.median(.sqlite) ?? .seconds(1e9))
                    ? .sqliteAnalyzed : .sqlite
                lines.append(target("\(r.query) \(at): all-off / \(fasterSQLite.rawValue) (the faster SQLite)",
                                    r.ratio(.allOff, fasterSQLite), limit: 0.5))
                lines.append(target("\(r.query) \(at): all-off / duckdb count", r.ratio(.allOff, .duckdbCount), limit: 3))
                lines.append(target("\(r.query) \(at): all-on / all-off", r.ratio(.allOn, .allOff), limit: 1.1))
            }
        }
        if let seed = results.first(where: { $0.group == .seed && $0.size == 100_000 })
            ?? results.first(where: { $0.group == .seed }) {
            lines.append(target("seed query at \(grouped(seed.size)): all-on / sqlite analyzed",
                                seed.ratio(.allOn, .sqliteAnalyzed), limit: 1))
        }
        if let m = memory {
            let perRow = m.bytesPerRow
            lines.append([ "resident bytes per row, \(grouped(m.rows)) documents", fixed(perRow, 1), "≤ 100",
                           perRow <= 100 ? "met" : "\(fixed(perRow / 100, 2))× over" ])
            let load = (m.generate + m.load).seconds
            lines.append([ "generate + load \(grouped(m.rows)) documents", (m.generate + m.load).formatted, "≤ 0.5 s",
                           load <= 0.5 ? "met" : "\(fixed(load / 0.5, 2))× over" ])
            // Wall time counts waiting for a core on a shared machine; CPU time does not.
            let cpu = m.cpu.seconds
            lines.append([ "generate + load \(grouped(m.rows)) documents, process CPU time", m.cpu.formatted, "≤ 0.5 s",
                           cpu <= 0.5 ? "met" : "\(fixed(cpu / 0.5, 2))× over" ])
        }
        guard !lines.isEmpty else { return "" }
        return "\n## Issue 10's targets\n\n" + table(header: ["measure", "measured", "target", "gap"], rows: lines)
    }

    private func target(_ label: String, _ value: Double?, limit: Double) -> [String] {
        guard let value else { return [label, "not measured", "≤ \(fixed(limit, 2))×", ""] }
        return [label, fixed(value, 2) + "×", "≤ \(fixed(limit, 2))×",
                value <= limit ? "met" : "\(fixed(value / limit, 2))× too slow"]
    }

    private func agreementSection() -> String {
        let problems = results.flatMap { r in r.disagreements.map { "- \(r.query) at \(grouped(r.size)): \($0)" } }
        if problems.isEmpty {
            return "\nEvery engine returned the same row count and result hash as the testbed on every query.\n"
        }
        return "\n## ENGINES DISAGREE\n\n" + problems.joined(separator: "\n") + "\n"
    }

    private func cell(_ r: BulkResult, _ engine: BulkEngine) -> String {
        guard let m = r.timings[engine] else { return "" }
        return "\(m.median.formatted) / \(m.min.formatted)"
    }

    private func ratio(_ r: BulkResult, _ a: BulkEngine, _ b: BulkEngine) -> String {
        r.ratio(a, b).map { fixed($0, 2) + "×" } ?? ""
    }
}

func table(header: [String], rows: [[String]]) -> String {
    var out = "| " + header.joined(separator: " | ") + " |\n"
    out += "|" + header.enumerated().map { i, _ in i == 0 ? " --- " : " ---: " }.joined(separator: "|") + "|\n"
    for row in rows { out += "| " + row.joined(separator: " | ") + " |\n" }
    return out
}

/// `1,000,000`.
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out += "," }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

func fixed(_ x: Double, _ places: Int) -> String {
    guard x.isFinite else { return String(x) }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (x * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(abs(scaled).truncatingRemainder(dividingBy: scale))
    guard places > 0 else { return String(whole) }
    let digits = String(fraction)
    return (scaled < 0 && whole == 0 ? "-" : "") + String(whole) + "." + String(repeating: "0", count: places - digits.count) + digits
}

private func megabytes(_ bytes: Int) -> String {
    fixed(Double(bytes) / 1_048_576, 1) + " MiB"
}
