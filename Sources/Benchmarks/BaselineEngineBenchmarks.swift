// Baseline engines through the registry (issue 13): per engine, start-up plus load time of
// the documents, and per query the engine's own reported time against the time of the
// testbed's call (prepare excluded): the difference is the testbed's per-query overhead
// (for DuckDB: JSON encoding in the helper, the pipe, decoding into Values).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Engines
import Relational
import Workloads

let baselinesSuite = BenchmarkSuite(
    name: "baselines",
    summary: "registered baseline engines: start-up + load time, and per-query overhead over each engine's own time; markdown",
    run: runBaselineBenchmarks,
    includedInAll: false
)

private struct BaselineOptions {
    var sizes = [100_000, 1_000_000]
    var repetitions = 5
    var seed: UInt64 = 42
    var engines: [EngineSpec] = EngineRegistry.kinds.filter { $0.missing() == nil }.map { EngineSpec(label: $0.name, kind: $0) }
    var queries = ["selected-document-parent", "selected-document-grandparent"]
        + ["parent-join", "scan-select", "set-ops"].map { defaultRepositoryPath("Workloads/bulk/\($0).rq") }
    var out: String?

    static let usage = """
        testbed-bench baselines [--sizes 100000,1000000] [--reps N] [--engines a,b] [--seed S] [--out FILE.md]

          --sizes    documents per size (params roots=0.01, as the seed's experiment)
          --reps     timed runs per query and engine (default 5), after one untimed run checking the engines agree
          --engines  registered engines (default: every one installed here, `testbed engines --available`)
          --out      also write the markdown report to FILE.md
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let v = rest.popFirst() else { throw BenchmarkError.usage("baselines: \(option) needs a value\n\(Self.usage)") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--sizes":
                sizes = try value(argument).split(separator: ",").map {
                    guard let n = Int($0), Shape.rowRange.contains(n) else { throw BenchmarkError.usage("baselines: --sizes: '\($0)' is not a size") }
                    return n
                }
            case "--reps":
                guard let n = Int(try value(argument)), (1...1000).contains(n) else { throw BenchmarkError.usage("baselines: --reps needs 1...1000") }
                repetitions = n
            case "--seed":
                guard let s = UInt64(try value(argument)) else { throw BenchmarkError.usage("baselines: --seed needs a non-negative integer") }
                seed = s
            case "--engines":
                do { engines = try EngineRegistry.parseList(try value(argument)) } catch { throw BenchmarkError.usage("baselines: \(error)") }
            case "--out": out = try value(argument)
            default: throw BenchmarkError.usage("baselines: unknown argument '\(argument)'\n\(Self.usage)")
            }
        }
    }
}

private func microseconds(_ d: Duration) -> Double { d.seconds * 1e6 }

private func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

private func decimals(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return digits == 0 ? String(Int(rounded)) : String(rounded)
}

private func runBaselineBenchmarks(_ arguments: [String]) throws {
    let options = try BaselineOptions(arguments)
    guard !options.engines.isEmpty else { throw BenchmarkError.usage("baselines: no engine installed here") }
    let queries = try options.queries.map { try QueryCatalog.find($0) }
    let clock = ContinuousClock()
    var startup = ["| documents | engine | start | load (incl. indexes, ANALYZE) | start + load |", "| ---: | --- | ---: | ---: | ---: |"]
    var perQuery = [
        "| documents | query | engine | rows | engine's own time (median) | testbed call (median) | overhead per query | overhead / own |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]

    func report() -> String {
        "## Baseline engines: start-up + load, and per-query overhead (\(options.repetitions) runs each)\n\n"
            + startup.joined(separator: "\n") + "\n\n" + perQuery.joined(separator: "\n") + "\n"
    }
    func writeReport(partial: Bool) throws {
        guard let out = options.out else { return }
        guard let file = fopen(out, "w") else { throw BulkFailure(description: "cannot write \(out)") }
        fputs(report() + (partial ? "\n(partial: the run is still going or was stopped)\n" : ""), file)
        fclose(file)
    }
    for rows in options.sizes {
        let dataset = try Shape.documents.generate(rows: rows, seed: options.seed, parameters: ShapeParameters(["roots": "0.01"]))
        var agreed: [String: Set<Row>] = [:]
        for spec in options.engines {
            printError("baselines: \(spec.label) at \(rows) documents")
            var engine: (any BaselineEngine)?
            let started = try clock.measure { engine = try spec.start() }
            guard let engine else { continue }
            defer { engine.stop() }
            var catalog = RelationCatalog()
            let loaded = try clock.measure { catalog = try engine.load(dataset.tables) }
            startup.append("| \(rows) | \(spec.label) | \(started.formatted) | \(loaded.formatted) | \((started + loaded).formatted) |")
            for query in queries {
                let statement = try engine.prepare(try query.parse(catalog: catalog).relations)
                let first = try engine.run(statement)
                let result = Set(first.results.flatMap { $0 })
                if let other = agreed[query.name], other != result {
                    throw BulkFailure(description: "\(spec.label) disagrees with the engines before it on \(query.name) at \(rows) documents")
                }
                agreed[query.name] = result
                var own: [Double] = [], call: [Double] = [], overhead: [Double] = []
                for _ in 0..<options.repetitions {
                    var run = EngineRun(results: [], engineMicroseconds: nil)
                    let wall = microseconds(try clock.measure { run = try engine.run(statement) })
                    let reported = run.engineMicroseconds ?? wall
                    own.append(reported)
                    call.append(wall)
                    overhead.append(wall - reported)
                }
                let o = median(overhead), e = median(own)
                perQuery.append("| \(rows) | \(query.name) | \(spec.label) | \(first.results.reduce(0) { $0 + $1.count }) | "
                    + "\(decimals(e / 1000, 2)) ms | \(decimals(median(call) / 1000, 2)) ms | \(decimals(o / 1000, 2)) ms | \(e > 0 ? decimals(100 * o / e, 0) + " %" : "-") |")
            }
            try writeReport(partial: true)  // a run stopped part-way keeps what it measured
        }
    }
    try writeReport(partial: false)
    print(report())
}
