import ArgumentParser
import Experiments
import FileSupport
import Workloads

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a deterministic dataset and write it as an SQLite file, CSV files or property lists.",
        discussion: """
            The same shape, rows, seed and parameters give byte-identical data on every machine; \
            the summary ends with the content hash. Without --sqlite, --csv or --plist only the summary is printed.

            Shapes and their --param keys (integer ranges in brackets):
              documents  roots=N|FRACTION fanout=uniform|fixed|zipf fanout-k=K [1, 1000000]
                         zipf-max=M [1, 1000000] zipf-s=S max-depth=D [0, 100000000]
                         order=parents-first|shuffled selected=K|subtree
              pets       added=N [0, 100000000] removed=N [0, rows]
              todo       tags=N [1, min(10 * rows, 10000000)] max-tags-per-item=N [0, min(tags, 1000)]
                         selected=N [1, rows]
              employees  max-equipment=N [0, 1000]

            Change sessions (--session NAME --transactions K --session-seed Y --changes-out FILE) \
            write a generated change stream for the dataset as a change script; the same shape, \
            rows, seed, parameters, session, count, session seed and --session-param values give \
            byte-identical scripts, and every transaction applies cleanly in order. A transaction \
            the tables cannot give (no subtree left to delete, no pet to remove) is made as another \
            kind; how many is printed and written in the script's header. Sessions:
              documents  ui-browse (other= sibling= child= parent= weights), edit, reparent,
                         delete-subtree (max-subtree=N), import (import-size=N), mixed (the
                         weights ui-browse= edit= reparent= delete-subtree= import=, and the above)
              pets       adopt, remove, mixed (adopt= remove=)
              todo       tag, untag, status, select, mixed (tag= untag= status= select=)
              employees  hire, assign, unassign, rename, mixed (hire= assign= unassign= rename=)

            Memory: the dataset's size is estimated from the shape, rows and parameters before \
            anything is generated, and a request that does not fit in the memory available \
            (MemAvailable; TESTBED_AVAILABLE_MEMORY=BYTES overrides) is refused with exit 2. Documents \
            (parents-first order, counted selection), pets and todo stream to --sqlite/--csv in chunks, \
            so their documented maximums need little memory; order=shuffled, selected=subtree and \
            employees are built in memory first. Output goes to a temporary sibling renamed into \
            place, so a failure (disk full included) leaves nothing behind.

            CSV encoding: one <table>.csv per table plus manifest.txt; null is an empty unquoted \
            field, text is always double-quoted ("" doubles a quote), numbers are bare, blobs are x'hex'.

            Property lists (--plist DIR): a property-list database, binary plists (bplist00): \
            database.plist lists the relations; with --plist-layout plist-database (the default) \
            tables of more than 1000 rows are directories of one <sha256-of-key>.rowplist file per \
            row, smaller ones single <table>.plist files; plist-file and plist-directory store \
            every table one way. A file table is held in memory until written.
            """
    )

    @Option(help: "documents | pets | todo | employees")
    var shape: String

    // Unconditional, so `--rows -5` reaches the range check instead of reading as an option.
    @Option(parsing: .unconditional, help: "Rows of the shape's main table (documents, pets, items, employees), \(rowRangeText).")
    var rows: Int

    @Option(help: "Seed of the SplitMix64 generator.")
    var seed: UInt64 = 42

    @Option(help: "Write an SQLite database file.")
    var sqlite: String?

    @Option(help: "Write CSV files into this (new or empty) directory.")
    var csv: String?

    @Option(help: "Write a property-list database into this (new or empty) directory.")
    var plist: String?

    @Option(help: "With --plist: plist-database (directories for tables over 1000 rows, files otherwise), plist-file or plist-directory. (default: plist-database)")
    var plistLayout: String?

    @Option(name: .customLong("param"), help: "Shape parameter key=value (repeatable).")
    var parameters: [String] = []

    @Option(help: "A change session to generate (see below); needs --changes-out.")
    var session: String?

    @Option(parsing: .unconditional, help: "Transactions of the change session, 1 to 1000000 (default: 100).")
    var transactions: Int?

    @Option(help: "Seed of the change session's generator (default: 1).")
    var sessionSeed: UInt64?

    @Option(help: ArgumentHelp("Write the change session's script here.", valueName: "file"))
    var changesOut: String?

    @Option(name: .customLong("session-param"), help: "Session parameter key=value (repeatable).")
    var sessionParameters: [String] = []

    @Flag(help: "Run ANALYZE after loading the SQLite file.")
    var analyze = false

    @Flag(help: "Replace an existing SQLite file (--sqlite) or change script (--changes-out).")
    var force = false

    func run() throws {
        if [sqlite, csv, plist].compactMap({ $0 }).count > 1 {
            throw usageFailure("give one of --sqlite FILE, --csv DIR and --plist DIR, not several")
        }
        guard let layout = PlistLayout(rawValue: plistLayout ?? PlistLayout.database.rawValue) else {
            throw usageFailure("--plist-layout: unknown layout '\(plistLayout ?? "")'; expected "
                + PlistLayout.allCases.map(\.rawValue).joined(separator: " | "))
        }
        // Options of an output not asked for would be ignored without a word.
        if analyze, sqlite == nil { throw usageFailure("--analyze runs ANALYZE on the SQLite file; give --sqlite FILE") }
        if plistLayout != nil, plist == nil { throw usageFailure("--plist-layout lays out a property-list database; give --plist DIR") }
        if force, sqlite == nil, changesOut == nil {
            throw usageFailure("--force replaces an existing --sqlite FILE or --changes-out FILE; give one of them")
        }
        if let changesOut {
            // The same path as the dataset (or a file inside its directory) would replace or
            // pollute what was just written.
            for (option, path) in [("--sqlite", sqlite), ("--csv", csv), ("--plist", plist)] {
                if let path, OutputLocation.isInside(changesOut, path) {
                    throw usageFailure("--changes-out: '\(Printable.escaped(changesOut))' is \(option)'s "
                        + (option == "--sqlite" ? "file" : "directory or inside it") + "; give the change script a path of its own")
                }
            }
            // After the check above: inside a dataset directory not made yet, its
            // directory is missing, which would hide what is wrong.
            do { _ = try DatasetOutput.checkedFilePath(changesOut, option: "--changes-out") } catch {
                throw usageFailure("\(error)")
            }
            if FileSystem.exists(changesOut), !force {
                throw usageFailure("--changes-out: '\(Printable.escaped(changesOut))' exists; give --force to replace it")
            }
        }
        let shape = try naming("--shape") { try Shape.named(self.shape) }
        try checkRows(rows)
        let parameters = try naming("--param") { try ShapeParameters(assignments: self.parameters) }
        try naming("--param") { try shape.validate(rows: rows, parameters: parameters) }
        let sessionParameters = try naming("--session-param") { try ShapeParameters(assignments: self.sessionParameters) }
        if let session {
            guard changesOut != nil else { throw usageFailure("--session: give --changes-out FILE for the change script") }
            try checkSession(shape, session, sessionParameters)
        } else if changesOut != nil {
            throw usageFailure("--changes-out: give --session NAME, the session to generate")
        } else if !self.sessionParameters.isEmpty {
            throw usageFailure("--session-param: give --session NAME, the session the parameters are for")
        } else if transactions != nil || sessionSeed != nil {
            let option = transactions != nil ? "--transactions" : "--session-seed"
            throw usageFailure("\(option): give --session NAME and --changes-out FILE, the session it is for")
        }
        var output: DatasetOutput?
        do {
            if let sqlite { output = try .sqlite(path: sqlite, analyze: analyze, replace: force) }
            if let csv { output = try .csv(directory: csv) }
            if let plist { output = try .plist(directory: plist, layout: layout) }
        } catch {
            throw usageFailure("\(error)")
        }
        // The change script is written first, to a temporary beside its place, and renamed
        // there only once the dataset is written: a script that cannot be written (an
        // unwritable directory) is found before the dataset's work, and a dataset that fails
        // leaves no script behind.
        let script = try session.map { try writeSessionTemporarily(shape, $0, sessionParameters) }
        defer { script.map { FileSystem.remove($0.temporary); SignalCleanup.shared.remove($0.cleanup) } }
        let report: GenerationReport
        do {
            // Refuses what does not fit in memory (WorkloadError.insufficientMemory) before generating.
            report = try shape.write(rows: rows, seed: seed, parameters: parameters, to: output)
        } catch let error as WorkloadError {
            throw usageFailure("\(error)")
        } catch let error as OutputPathError {
            throw usageFailure("\(error)")
        } catch {
            // A write that failed (disk full, permissions): nothing was left behind.
            throw usageFailure("\(error)")
        }
        if let sqlite {
            print("wrote SQLite database \(sqlite)" + (analyze ? " (analyzed)" : ""))
        } else if let csv {
            print("wrote CSV directory \(csv)")
        } else if let plist {
            print("wrote property-list database \(plist) (\(layout.rawValue))")
        }
        print(report.overview.summary(), terminator: "")
        if let script, let session, let changesOut {
            do {
                try FileSystem.rename(script.temporary, to: changesOut, replacing: force)
            } catch {
                removeDataset()
                throw usageFailure("--changes-out: \(error); the dataset was removed")
            }
            print("wrote change script \(changesOut): session \(session), \(sessionTransactions) transactions, session seed \(sessionSeed ?? 1)")
            for line in script.standIns.lines { print("  note: \(line)") }
        }
    }

    /// Removes the dataset this command wrote, when its change script could not be put in
    /// place after all (a file appeared at `--changes-out` meanwhile).
    private func removeDataset() {
        if let sqlite { FileSystem.remove(sqlite) }
        if let directory = csv ?? plist { FileSystem.removeTree(directory) }
    }

    private var sessionTransactions: Int { transactions ?? 100 }

    private func checkSession(_ shape: Shape, _ session: String, _ parameters: ShapeParameters) throws {
        do {
            try ChangeSessions.validate(shape: shape, session: session, transactions: sessionTransactions, parameters: parameters)
        } catch let error as WorkloadError {
            switch error {
            case .outOfRange(name: "transactions", _, _, _): throw usageFailure("--transactions: \(error)")
            case .badParameter(name: "session", _, _): throw usageFailure("--session: \(error)")
            default: throw usageFailure("--session-param: \(error)")
            }
        }
    }

    /// Generates the dataset in memory and writes the session's script to a temporary beside
    /// `--changes-out` (removed on a signal, and by the caller when done).
    private func writeSessionTemporarily(_ shape: Shape, _ session: String, _ parameters: ShapeParameters) throws
        -> (temporary: String, cleanup: Int, standIns: StandIns) {
        guard let changesOut else { throw usageFailure("--session: give --changes-out FILE for the change script") }
        let text: String
        let standIns: StandIns
        do {
            let dataset = try shape.generate(rows: rows, seed: seed, parameters: try ShapeParameters(assignments: self.parameters))
            (text, standIns) = try ChangeSessions.generateReporting(
                dataset: dataset, session: session, transactions: sessionTransactions, seed: sessionSeed ?? 1, parameters: parameters)
        } catch let error as WorkloadError {
            throw usageFailure("--session: \(error)")
        }
        let temporary = FileSystem.temporarySibling(of: changesOut)
        let cleanup = SignalCleanup.shared.add { FileSystem.remove(temporary) }
        do {
            try FileSystem.writeText(text, to: temporary)
        } catch {
            FileSystem.remove(temporary)
            SignalCleanup.shared.remove(cleanup)
            let reason = (error as? FileSystemError)?.reason ?? "\(error)"
            throw usageFailure("--changes-out: cannot write \(Printable.quoted(changesOut)): \(reason)")
        }
        return (temporary, cleanup, standIns)
    }
}
