// Engine start-up benchmarks (issue 13): for each baseline engine, the time to start it and
// load the documents dataset (generated once per size), then the seed query's run through
// the engine next to the engine's own execution time (the testbed's per-query overhead:
// translation, transfer and decoding of every row).
import Engines
import Relational
import Workloads

let engineStartupSuite = BenchmarkSuite(
    name: "engine-startup",
    summary: "per baseline engine: start + load of the documents dataset, and per-query overhead (100k, 1M)",
    run: runEngineStartupBenchmarks,
    includedInAll: false
)

/// Arguments: `--rows N[,N...]` (default 100000,1000000), `--engines a,b` (default: every
/// registered engine installed here), `--repetitions K` (start + load, default 3).
private func runEngineStartupBenchmarks(_ arguments: [String]) throws {
    var sizes = [100_000, 1_000_000]
    var specs = EngineRegistry.kinds.filter { $0.missing() == nil }.map { EngineSpec(label: $0.name, kind: $0) }
    var repetitions = 3
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--rows":
            guard let list = rest.popFirst() else { throw BenchmarkError.usage("engine-startup: --rows needs a value") }
            sizes = try list.split(separator: ",").map {
                guard let n = Int($0), n > 0 else { throw BenchmarkError.usage("engine-startup: --rows: '\($0)' is not a row count") }
                return n
            }
        case "--engines":
            guard let list = rest.popFirst() else { throw BenchmarkError.usage("engine-startup: --engines needs a value") }
            specs = try EngineRegistry.parseList(list)
        case "--repetitions":
            guard let text = rest.popFirst(), let k = Int(text), k > 0 else {
                throw BenchmarkError.usage("engine-startup: --repetitions needs a positive count")
            }
            repetitions = k
        default:
            throw BenchmarkError.usage("engine-startup: unknown argument '\(argument)' (known: --rows, --engines, --repetitions)")
        }
    }
    let query = try QueryCatalog.find("selected-document-parent")
    for n in sizes {
        let dataset = try Shape.documents.generate(rows: n, seed: 42)
        var report = BenchmarkReport()
        for spec in specs {
            var startSamples: [Duration] = []
            var loadSamples: [Duration] = []
            var stopSamples: [Duration] = []
            let clock = ContinuousClock()
            for repetition in 0..<repetitions {
                var engine: (any BaselineEngine)?
                startSamples.append(try clock.measure { engine = try spec.start() })
                guard let running = engine else { continue }
                defer { running.stop() }
                var catalog = RelationCatalog()
                loadSamples.append(try clock.measure { catalog = try running.load(dataset.tables) })
                if repetition == repetitions - 1 {
                    try addQueryOverhead(running, query: query, catalog: catalog, rows: n, to: &report)
                }
                stopSamples.append(clock.measure { running.stop() })
            }
            let total = zip(startSamples, loadSamples).map { $0 + $1 }
            report.add(Measurement(label: "\(spec.label): start, \(n) documents", samples: startSamples))
            report.add(Measurement(label: "\(spec.label): load, \(n) documents", samples: loadSamples))
            report.add(Measurement(label: "\(spec.label): start + load, \(n) documents", samples: total))
            report.add(Measurement(label: "\(spec.label): stop", samples: stopSamples))
        }
        report.printTable(title: "engine start-up and load, \(n) documents (seed 42)")
    }
}

/// The seed query through the engine (prepare + run + fetch, as `testbed run` times it)
/// next to the engine's own time for it, when it reports one.
private func addQueryOverhead(
    _ engine: any BaselineEngine, query: CatalogQuery, catalog: RelationCatalog, rows: Int, to report: inout BenchmarkReport
) throws {
    let parsed = try query.parse(catalog: catalog)
    let clock = ContinuousClock()
    var own: [Duration] = []
    var resultRows = 0
    let warmup = 3
    let whole = try measure("\(engine.label): \(query.name) prepare + run", repetitions: 20, warmup: warmup) {
        let statement = try engine.prepare(parsed.relations)
        var run = EngineRun(results: [], engineMicroseconds: nil)
        let wall = try clock.measure { run = try engine.run(statement) }
        resultRows = run.results.reduce(0) { $0 + $1.count }
        if let postgres = engine as? PostgresEngine {
            let server = try postgres.serverMicroseconds(statement).reduce(0, +)
            own.append(.microseconds(Int64(server)))
        } else {
            own.append(run.engineMicroseconds.map { .microseconds(Int64($0)) } ?? wall)
        }
    }
    report.add(whole, note: "\(resultRows) result rows")
    let ownMeasurement = Measurement(label: "\(engine.label): \(query.name) engine's own time", samples: Array(own.dropFirst(warmup)))
    let overhead = whole.median - ownMeasurement.median
    report.add(ownMeasurement, note: "overhead \(overhead.formatted) per query"
               + (engine is PostgresEngine ? " (own: EXPLAIN ANALYZE planning + execution time)" : ""))
}
