import Relational
import SQLiteStore
import Workloads

/// The dataset of one size, generated once and loaded lazily into each place a cell needs
/// it: memory tables, a SQLite database, and a second SQLite database with `ANALYZE`.
final class SizedData {
    let dataset: Dataset
    private var memory: RelationCatalog?
    private var plain: (SQLiteDatabase, RelationCatalog)?
    private var analyzed: (SQLiteDatabase, RelationCatalog)?

    private var script: (text: String, file: String)?

    init(_ dataset: Dataset) { self.dataset = dataset }

    /// A change experiment's script for this size (a session is generated once per size).
    func changeScript(_ stream: ChangeStream) throws -> (text: String, file: String) {
        if let script { return script }
        let made = try stream.script(for: dataset)
        script = made
        return made
    }

    func memoryCatalog() throws -> RelationCatalog {
        if let memory { return memory }
        let catalog = try dataset.memoryRelations()
        memory = catalog
        return catalog
    }

    func sqlite(analyzed wantAnalyzed: Bool) throws -> (SQLiteDatabase, RelationCatalog) {
        if wantAnalyzed, let analyzed { return analyzed }
        if !wantAnalyzed, let plain { return plain }
        let loaded = try dataset.sqliteRelations(analyze: wantAnalyzed)
        if wantAnalyzed { analyzed = loaded } else { plain = loaded }
        return loaded
    }
}

/// Keeps only the current size's data: cells run size by size, so earlier sizes are freed.
final class DatasetCache {
    let experiment: Experiment
    private var current: (rows: Int, data: SizedData)?

    init(_ experiment: Experiment) { self.experiment = experiment }

    func data(rows: Int) throws -> SizedData {
        if let current, current.rows == rows { return current.data }
        current = nil
        let dataset = try experiment.shape.generate(rows: rows, seed: experiment.seed, parameters: experiment.parameters)
        let data = SizedData(dataset)
        current = (rows, data)
        return data
    }
}
