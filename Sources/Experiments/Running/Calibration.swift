import QueryEngine
import Workloads

/// A fixed engine workload timed at the start of every run, so that runs on different
/// hosts (or beside other work) can be compared: `merge --normalise` scales each shard's
/// times by the ratio of calibrations. The workload never changes with the config.
public enum Calibration {
    /// Each document joined with its children, 2,000 documents, every heuristic off (so no
    /// heuristic's change alters the work measured).
    static let rows = 2_000
    static let query = "output documents project [id] rename [id -> parent_id] join documents"

    /// The fastest of at least `minimumIterations` runs, repeated until `budgetMicroseconds`
    /// have passed: the minimum is the time least disturbed by other work, and the budget
    /// keeps a debug build's calibration short.
    public static func measure(minimumIterations: Int = 3, budgetMicroseconds: Double = 30_000) throws -> Double {
        let dataset = try Shape.documents.generate(rows: rows, seed: 1, parameters: ShapeParameters(["roots": "0.01"]))
        let catalog = try dataset.memoryRelations()
        let engine = try QueryEngine(preset: "all-off")
        let clock = ContinuousClock()
        var best = Double.infinity
        var spent = 0.0
        var iterations = 0
        while iterations < minimumIterations || spent < budgetMicroseconds {
            let parsed = try Query.parse(query, catalog: catalog, file: "<calibration>")
            let elapsed = try clock.measure { _ = try engine.run(parsed.relations) }.microseconds
            best = min(best, elapsed)
            spent += elapsed
            iterations += 1
        }
        return TimingRecord.round(best)
    }
}
