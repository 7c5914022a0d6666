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
    private var plist: [Backend: LoadedDataset] = [:]
    private var engines: [String: (engine: any BaselineEngine, catalog: RelationCatalog)] = [:]
    private var script: (text: String, file: String)?

    init(_ dataset: Dataset) { self.dataset = dataset }

    deinit { stopEngines() }

    /// The sources a testbed cell on `backend` reads.
    func catalog(_ backend: Backend) throws -> RelationCatalog {
        switch backend {
        case .memory: return try memoryCatalog()
        case .sqlite: return try sqliteCatalog()
        case .plistFile, .plistDirectory, .plistDatabase:
            if let loaded = plist[backend] { return loaded.catalog }
            let loaded = try LoadedDataset(dataset, backend: backend)
            plist[backend] = loaded
            return loaded.catalog
        }
    }

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
