// Change propagation benchmarks (issue 11): one transaction at a time on the documents shape,
// observed through the seed's selected-document-parent and through a large derived relation,
// under each TransactionalDatabase mode. The timed figure is the propagation alone
// (`PropagationReport.totalMicroseconds`); the whole transaction (statement + propagation)
// and the source rows read, which are deterministic, go in the note.
#if canImport(Glibc)
import Glibc
#endif
import QueryEngine
import Relational
import Workloads

/// Resident bytes after glibc's `malloc_trim(0)` hands free heap pages back to the system,
/// so that what a structure built in between costs is not hidden by pages an earlier
/// benchmark freed (`malloc.h` is not in Swift's Glibc module: found with `dlsym`).
private func trimmedResidentBytes() -> Int {
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") {  // nil: RTLD_DEFAULT
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    #endif
    return residentBytes()
}

let changesSuite = BenchmarkSuite(
    name: "changes",
    summary: "change propagation on documents 10k/100k/1M: selection change, one rename under a 1M-row join, bulk add/delete of 1,000",
    run: runChangeBenchmarks,
    includedInAll: false
)

/// Every document beside its parent's name: about as many rows as documents.
private let namedWithParentText = """
    let parents = documents project [id, name] rename [id -> parent_id, name -> parent_name]
    output named = documents join parents
    """

private func runChangeBenchmarks(_ arguments: [String]) throws {
    var sizes = [10_000, 100_000, 1_000_000]
    var explain = false
    var bulk = true
    var iterator = arguments.makeIterator()
    while let argument = iterator.next() {
        switch argument {
        case "--sizes":
            guard let list = iterator.next() else { throw BenchmarkError.usage("changes: --sizes needs a value, e.g. 10000,100000") }
            sizes = try list.split(separator: ",").map { part in
                guard let n = Int(part), n >= 100, n <= 10_000_000 else {
                    throw BenchmarkError.usage("changes: --sizes: '\(part)' is not a row count in 100...10000000")
                }
                return n
            }
        case "--quick": sizes = [10_000, 100_000]
        case "--explain": explain = true
        case "--no-bulk": bulk = false
        default: throw BenchmarkError.usage("changes: unknown argument '\(argument)' (known: --sizes LIST, --quick, --explain, --no-bulk)")
        }
    }
    var report = BenchmarkReport()
    var selectionMedians: [TransactionalDatabase.Mode: [Int: Duration]] = [:]
    for size in sizes {
        printError("changes: documents \(size): generating")
        let bench = try ChangeBench(rows: size, explain: explain)
        for (mode, median) in try bench.selectionChange(into: &report) { selectionMedians[mode, default: [:]][size] = median }
        try bench.rename(into: &report)
        if bulk { try bench.bulk(into: &report) }
    }
    report.printTable(title: "changes (propagation time; rows = source rows read per transaction)")
    for mode in targetModes {
        guard let small = sizes.min(), let large = sizes.max(), small != large,
              let a = selectionMedians[mode]?[small], let b = selectionMedians[mode]?[large], a > .zero else { continue }
        let ratio = b.seconds / a.seconds
        let verdict = ratio <= 1.5 ? "target <= 1.5" : "MISSED target <= 1.5"
        print("selection change, \(mode.rawValue) all-on: median at \(large) / median at \(small) = "
            + "\(Double(Int(ratio * 100)) / 100) (\(verdict))")
        if ratio > 1.5 { report.noteMissed("selection change flat 10k->1M (\(mode.rawValue))") }
    }
    if !report.missedTargets.isEmpty {
        printError("missed targets: " + report.missedTargets.joined(separator: ", "))
    }
}

/// The modes the issue's targets are checked for (under all-on): the engine's staged
/// incremental mode and the counted mode.
private let targetModes: [TransactionalDatabase.Mode] = [.incremental, .counted]

/// One generated documents dataset in memory tables, and the scripts that change it.
private struct ChangeBench {
    let rows: Int
    let tables: RelationCatalog
    let seedQuery: Query
    let namedQuery: Query
    /// Two non-root documents with different parents, selected in turn.
    let selections: (Int64, Int64)
    /// A non-root document with children, renamed in turn, and its number of children.
    let renamed: Int64
    let renamedChildren: Int
    /// The first root (null parent_id).
    let root: Int64

    /// Print the busiest plan nodes of the last transaction of each configuration.
    let explain: Bool

    init(rows: Int, explain: Bool) throws {
        self.rows = rows
        self.explain = explain
        tables = try Shape.documents.generate(rows: rows, seed: 42).memoryRelations()
        seedQuery = try QueryCatalog.find("selected-document-parent").parse(catalog: tables)
        namedQuery = try Query.parse(namedWithParentText, catalog: tables, file: "<changes bench>")
        guard let documents = tables["documents"]?.source else { throw BenchmarkError.usage("changes: no documents table") }
        var parentOf: [Int64: Int64] = [:]
        var children: [Int64: Int] = [:]
        for row in try documents.fetchAll() {
            guard case let .integer(id) = row[0] else { continue }
            if case let .integer(p) = row[2] {
                parentOf[id] = p
                children[p, default: 0] += 1
            }
        }
        // Deterministic picks in the middle and three quarters of the ids (non-roots in the
        // parents-first order); the renamed one is the first
        // non-root document with children from an eighth of the ids on (parents come first).
        let a = Int64(rows / 2), b = Int64(rows * 3 / 4)
        guard parentOf[a] != nil, parentOf[b] != nil, parentOf[a] != parentOf[b] else {
            throw BenchmarkError.usage("changes: documents \(a) and \(b) need different parents at \(rows) rows")
        }
        selections = (a, b)
        guard let k = (Int64(rows / 8)...Int64(rows)).first(where: { parentOf[$0] != nil && children[$0, default: 0] > 0 })
        else { throw BenchmarkError.usage("changes: no non-root document with children past id \(rows / 8)") }
        renamed = k
        renamedChildren = children[k, default: 0]
        guard let r = (Int64(1)...Int64(rows)).first(where: { parentOf[$0] == nil }) else {
            throw BenchmarkError.usage("changes: no root document")
        }
        root = r
    }

    func script(_ text: String, _ query: Query) throws -> ChangeScript {
        try ChangeScript.parse(text, targets: ChangeScript.targets(tables: tables, query: query), file: "<changes bench>")
    }

    func database(_ query: Query, preset: String, mode: TransactionalDatabase.Mode) throws -> TransactionalDatabase {
        try measuredDatabase(query, preset: preset, mode: mode).db
    }

    /// The database, and what observing cost: the set-up time (the counted mode builds its
    /// state here) and the resident memory it added (after trimming the heap, both sides).
    func measuredDatabase(_ query: Query, preset: String, mode: TransactionalDatabase.Mode, declareKey: Bool = true)
        throws -> (db: TransactionalDatabase, setUp: Duration, residentBytes: Int)
    {
        let db = TransactionalDatabase(engine: try QueryEngine(preset: preset), mode: mode)
        // Document ids are unique, as an application would declare (a projection that keeps
        // the id then needs no state in its derivative rule, nor counts in the counted mode).
        if declareKey, let documents = tables["documents"] { try db.declareKey(["id"], of: documents) }
        let heap = trimmedResidentBytes()
        let clock = ContinuousClock()
        let start = clock.now
        for relation in query.relations { try db.observe(relation) { change in consume(change.added.count) } }
        return (db, clock.now - start, trimmedResidentBytes() - heap)
    }

    /// Records the counted mode's set-up (time, state rows, resident memory) for `query`;
    /// returns the database.
    @discardableResult
    func countedSetUp(_ query: Query, _ label: String, declareKey: Bool = true,
                      into report: inout BenchmarkReport) throws -> TransactionalDatabase {
        let m = try measuredDatabase(query, preset: "all-on", mode: .counted, declareKey: declareKey)
        let mb = Double(m.residentBytes) / 1_048_576
        report.add(Measurement(label: "counted set-up \(label) \(rows)", samples: [m.setUp]),
                   note: "state rows \(m.db.countedStateRows); resident +\(Double(Int(mb * 10)) / 10) MB")
        return m.db
    }

    /// Selection changes A -> B -> A ...; returns the all-on medians of the target modes.
    func selectionChange(into report: inout BenchmarkReport) throws -> [TransactionalDatabase.Mode: Duration] {
        let scripts = try [selections.0, selections.1].map {
            try script("update selected_documents set [id = \($0)]", seedQuery)
        }
        try countedSetUp(seedQuery, "selected-document-parent", into: &report)
        var medians: [TransactionalDatabase.Mode: Duration] = [:]
        for preset in ["all-on", "all-off"] {
            for mode in TransactionalDatabase.Mode.allCases {
                let db = try database(seedQuery, preset: preset, mode: mode)
                let m = try alternate(scripts, on: db,
                                      label: "selection change \(rows) \(preset) \(mode.rawValue)")
                let isTarget = preset == "all-on" && targetModes.contains(mode)
                if isTarget { medians[mode] = m.measurement.median }
                report.add(m.measurement, target: isTarget ? .microseconds(50) : nil,
                           note: m.note + (isTarget ? " (target rows <= 10)" : ""))
                if isTarget && m.maxRowsRead > 10 {
                    report.noteMissed("selection change \(rows) \(mode.rawValue): rows read <= 10")
                }
            }
        }
        // The staged mode's weak spot: a root's parent_id is null, and every root shares it,
        // so checking the projection reads all roots (1% of the documents) before the
        // selection's own join filter could narrow `documents` to one row.
        let rootScripts = try [root, selections.0].map {
            try script("update selected_documents set [id = \($0)]", seedQuery)
        }
        for mode in TransactionalDatabase.Mode.allCases {
            let db = try database(seedQuery, preset: "all-on", mode: mode)
            let m = try alternate(rootScripts, on: db, label: "selection root<->doc \(rows) all-on \(mode.rawValue)")
            report.add(m.measurement, note: m.note)
        }
        return medians
    }

    /// Renames one document back and forth, observed through every document joined with its
    /// parent's name.
    func rename(into report: inout BenchmarkReport) throws {
        let scripts = try ["Renamed A", "Renamed B"].map {
            try script("update documents set [name = \"\($0)\"] where (id == \(renamed))", namedQuery)
        }
        try countedSetUp(namedQuery, "named", into: &report)
        var medians: [TransactionalDatabase.Mode: Duration] = [:]
        for mode in TransactionalDatabase.Mode.allCases {
            let db = try database(namedQuery, preset: "all-on", mode: mode)
            let m = try alternate(scripts, on: db, label: "rename under join \(rows) all-on \(mode.rawValue)")
            medians[mode] = m.measurement.median
            let isTarget = targetModes.contains(mode)
            report.add(m.measurement, target: isTarget ? .microseconds(100) : nil,
                       note: m.note + (isTarget ? " (1 + children = \(1 + renamedChildren))" : ""))
        }
        for mode in targetModes {
            guard let inc = medians[mode], let req = medians[.requery], inc > .zero else { continue }
            let speedup = Int(req.seconds / inc.seconds)
            let target = rows >= 1_000_000 ? (speedup >= 1000 ? ", target >= 1000x" : ", MISSED target >= 1000x") : ""
            print("rename under join \(rows): requery / \(mode.rawValue) = \(speedup)x\(target)")
            if rows >= 1_000_000 && speedup < 1000 { report.noteMissed("rename \(rows) \(mode.rawValue): 1000x requery") }
        }
        // Without the declared key the counted projection keeps a count per document: the
        // price of the state, and the same rows read.
        let unkeyed = try countedSetUp(namedQuery, "named, no key", declareKey: false, into: &report)
        let m = try alternate(scripts, on: unkeyed, label: "rename under join \(rows) all-on counted, no key")
        report.add(m.measurement, note: m.note)
    }

    /// Adds a subtree of 1,000 documents (a new parent under `renamed` and 999 children),
    /// then deletes it; observed through both queries.
    func bulk(into report: inout BenchmarkReport) throws {
        let top = Int64(rows) + 1
        var tuples = ["(\(top), \"Bulk parent\", \(renamed))"]
        for id in (top + 1)...(top + 999) { tuples.append("(\(id), \"Bulk \(id)\", \(top))") }
        let both = Query(outputs: seedQuery.outputs + namedQuery.outputs)
        let add = try script("add documents [id, name, parent_id] { \(tuples.joined(separator: ", ")) }", both)
        let delete = try script("""
            begin
            delete documents where (parent_id == \(top))
            delete documents where (id == \(top))
            commit
            """, both)
        for mode in TransactionalDatabase.Mode.allCases {
            let db = try database(both, preset: "all-on", mode: mode)
            var runs: [(samples: [Duration], wall: [Duration], rowsRead: [Int])] = [([], [], []), ([], [], [])]
            let clock = ContinuousClock()
            let reps = mode == .incremental || mode == .counted ? 7 : 3
            for rep in 0...reps {
                for (k, s) in [add, delete].enumerated() {
                    let start = clock.now
                    let r = try s.apply(s.transactions[0], to: db)
                    let elapsed = clock.now - start
                    guard r.sourceRowsChanged == 1000 else {
                        throw BenchmarkError.usage("changes: bulk transaction changed \(r.sourceRowsChanged) rows, expected 1000")
                    }
                    if rep == 0 { continue }  // warm-up
                    runs[k].samples.append(.microseconds(r.totalMicroseconds))
                    runs[k].wall.append(elapsed)
                    runs[k].rowsRead.append(r.counters.sourceRowsRead)
                }
            }
            for (k, what) in ["add 1,000", "delete subtree 1,000"].enumerated() {
                let m = Measurement(label: "bulk \(what) \(rows) all-on \(mode.rawValue)", samples: runs[k].samples)
                report.add(m, note: "rows \(range(runs[k].rowsRead)); transaction "
                    + Measurement(label: "", samples: runs[k].wall).median.formatted)
            }
        }
    }

    /// Applies the scripts' first transactions in turn, one per repetition, after warm-up.
    func alternate(_ scripts: [ChangeScript], on db: TransactionalDatabase, label: String) throws -> Alternation {
        let clock = ContinuousClock()
        var samples: [Duration] = [], wall: [Duration] = [], rowsRead: [Int] = [], deltaRows: [Int] = []
        var reps = 40
        var i = 0
        var warmup = 2
        var last: PropagationReport?
        while samples.count < reps {
            let s = scripts[i % scripts.count]
            i += 1
            let start = clock.now
            let r = try s.apply(s.transactions[0], to: db)
            let elapsed = clock.now - start
            last = r
            if warmup > 0 {
                warmup -= 1
                // Slow configurations (whole-table reads at 1M) get fewer repetitions.
                if elapsed > .milliseconds(200) { reps = 4 } else if elapsed > .milliseconds(20) { reps = 10 }
                continue
            }
            samples.append(.microseconds(r.totalMicroseconds))
            wall.append(elapsed)
            rowsRead.append(r.counters.sourceRowsRead)
            deltaRows.append(r.deltaRowsRead)
        }
        let m = Measurement(label: label, samples: samples)
        if explain, let r = last {
            let busiest = r.counters.perNode.filter { $0.rowsIn > 0 }.sorted { $0.rowsIn > $1.rowsIn }.prefix(6)
            print("\(label): " + busiest.map { "\($0.label) in \($0.rowsIn) out \($0.rowsOut)" }.joined(separator: "; "))
        }
        return Alternation(
            measurement: m, maxRowsRead: rowsRead.max() ?? 0,
            note: "rows \(range(rowsRead))"
                + (deltaRows.contains { $0 > 0 } ? " (\(range(deltaRows)) of them delta-table rows)" : "")
                + "; transaction \(Measurement(label: "", samples: wall).median.formatted)")
    }
}

private struct Alternation {
    let measurement: Measurement
    let maxRowsRead: Int
    let note: String
}

private func range(_ values: [Int]) -> String {
    guard let lo = values.min(), let hi = values.max() else { return "-" }
    return lo == hi ? "\(lo)" : "\(lo)-\(hi)"
}
