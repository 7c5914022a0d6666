import Engines
import Relational
import SQLiteStore
import Workloads

/// The dataset of one size, generated once and loaded lazily into each place a cell needs
/// it: memory tables, a SQLite database for the testbed's `sqlite` backend, and each
/// baseline engine (started on first use, stopped when the size's data is dropped).
final class SizedData {
    let dataset: Dataset
    private var memory: RelationCatalog?
    private var sqliteBackend: (SQLiteDatabase, RelationCatalog)?
    private var engines: [String: (engine: any BaselineEngine, catalog: RelationCatalog)] = [:]

    init(_ dataset: Dataset) { self.dataset = dataset }

    deinit { stopEngines() }

    func memoryCatalog() throws -> RelationCatalog {
        if let memory { return memory }
        let catalog = try dataset.memoryRelations()
        memory = catalog
        return catalog
    }

    /// The testbed's `sqlite` backend: its sources are SQLite tables (no `ANALYZE`).
    func sqliteCatalog() throws -> RelationCatalog {
        if let sqliteBackend { return sqliteBackend.1 }
        let loaded = try dataset.sqliteRelations(analyze: false)
        sqliteBackend = loaded
        return loaded.1
    }

    /// The baseline engine `spec`, started and loaded with this size's data on first use.
    func engine(_ spec: EngineSpec) throws -> (engine: any BaselineEngine, catalog: RelationCatalog) {
        if let running = engines[spec.label] { return running }
        let engine = try spec.start()
        do {
            let catalog = try engine.load(dataset.tables)
            engines[spec.label] = (engine, catalog)
            return (engine, catalog)
        } catch {
            engine.stop()
            throw error
        }
    }

    func stopEngines() {
        for (_, running) in engines { running.engine.stop() }
        engines.removeAll()
    }
}

/// Keeps only the current size's data: cells run size by size, so earlier sizes are freed
/// (and their engines stopped).
final class DatasetCache {
    let experiment: Experiment
    private var current: (rows: Int, data: SizedData)?

    init(_ experiment: Experiment) { self.experiment = experiment }

    deinit { stopEngines() }

    func data(rows: Int) throws -> SizedData {
        if let current, current.rows == rows { return current.data }
        current?.data.stopEngines()
        current = nil
        let dataset = try experiment.shape.generate(rows: rows, seed: experiment.seed, parameters: experiment.parameters)
        let data = SizedData(dataset)
        current = (rows, data)
        return data
    }

    /// Stops every engine started for the current size (the run's end, an error, Ctrl-C).
    func stopEngines() { current?.data.stopEngines() }
}
