import Engines
import FileSupport
import QueryEngine
import Workloads

/// `plans/`: the plan graphs (DOT and SVG, via `PlanExport`) of each query under each flag
/// set at the smallest and the largest size, from one extra captured run on the first
/// backend; and beside them each baseline engine's own plan (`EXPLAIN`, JSON where the
/// engine offers it) as `QUERY--LABEL--ROWS.json` or `.txt` (`-outputN` per output when a
/// query has several).
struct PlanWriter {
    let experiment: Experiment
    let directory: String
    let console: Console

    func write(cache: DatasetCache) throws {
        guard let smallest = experiment.sizes.first, let largest = experiment.sizes.last else { return }
        // The largest size first: it is usually the one still cached after the cells.
        for rows in Array(Set([largest, smallest])).sorted(by: >) {
            let data = try cache.data(rows: rows)
            if !experiment.flagSets.isEmpty {
                let backend = experiment.backends.first ?? .memory
                let catalog = backend == .sqlite ? try data.sqliteCatalog() : try data.memoryCatalog()
                for query in experiment.queries {
                    for set in experiment.flagSets {
                        if Interruption.requested { return }
                        let parsed = try Query.parse(query.text, catalog: catalog, file: query.origin)
                        var engine = QueryEngine(flags: set.flags)
                        engine.disabledPasses = Set(experiment.disabledPasses)
                        let run = try engine.run(parsed.relations, capture: true)
                        guard let snapshots = run.snapshots else { continue }
                        do {
                            try PlanExport.writePlans(snapshots, to: directory, baseName: "\(query.name)--\(set.name)--\(rows)")
                        } catch {
                            console.err("testbed: plans for \(query.name) \(set.name) at \(rows) rows not written: \(error)\n")
                            return
                        }
                    }
                }
            }
            for spec in experiment.baselines {
                for query in experiment.queries {
                    if Interruption.requested { return }
                    let (engine, catalog) = try data.engine(spec)
                    let parsed = try Query.parse(query.text, catalog: catalog, file: query.origin)
                    let plans: [EnginePlan]
                    do { plans = try engine.explain(try engine.prepare(parsed.relations)) } catch {
                        console.err("testbed: \(spec.label) plan for \(query.name) at \(rows) rows not written: \(error)\n")
                        continue
                    }
                    for (i, plan) in plans.enumerated() {
                        let suffix = plans.count > 1 ? "-output\(i + 1)" : ""
                        let path = FileSystem.join(directory, "\(query.name)--\(spec.label)--\(rows)\(suffix).\(plan.format)")
                        try FileSystem.makeDirectories(directory)
                        try FileSystem.writeTextAtomically(plan.text, to: path)
                    }
                }
            }
        }
    }
}
