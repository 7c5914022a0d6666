import QueryEngine
import Workloads

/// `plans/`: the plan graphs (DOT and SVG, via `PlanExport`) of each query under each flag
/// set at the smallest and the largest size, from one extra captured run on the first backend.
struct PlanWriter {
    let experiment: Experiment
    let directory: String
    let console: Console

    func write(cache: DatasetCache) throws {
        guard !experiment.flagSets.isEmpty, let smallest = experiment.sizes.first, let largest = experiment.sizes.last else { return }
        // The largest size first: it is usually the one still cached after the cells.
        for rows in Array(Set([largest, smallest])).sorted(by: >) {
            let data = try cache.data(rows: rows)
            let backend = experiment.backends.first ?? .memory
            let catalog = backend == .sqlite ? try data.sqlite(analyzed: false).1 : try data.memoryCatalog()
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
    }
}
