import FileSupport
import Workloads

/// What every kind of repro directory (results, changes, regret) does alike: it is filled
/// under a temporary sibling and renamed into place, replacing an older one, so it appears
/// complete or not at all; and each of its tables is one CSV, listed in the manifest.
enum ReproFiles {
    /// Creates `<parent>/<id>/` through `fill(temporary, finalPath)` and returns the final path.
    /// On any error, or a signal, the temporary directory is removed and an older repro is
    /// left as it was. A symbolic link at the final path is refused untouched: replacing it
    /// once emptied the directory it pointed to, outside the one the command was given.
    static func publish(id: String, under parent: String, fill: (_ temporary: String, _ path: String) throws -> Void) throws -> String {
        try FileSystem.makeDirectories(parent)
        try FileSystem.refuseLinkedSubdirectory(id, of: parent)
        let path = FileSystem.join(parent, id)
        let temporary = FileSystem.temporarySibling(of: path)
        FileSystem.removeTree(temporary)
        try SignalCleanup.shared.removing(temporary) {
            try FileSystem.makeDirectories(temporary)
            do {
                try fill(temporary, path)
                FileSystem.removeTree(path)
                try FileSystem.rename(temporary, to: path)
            } catch {
                FileSystem.removeTree(temporary)
                throw error
            }
        }
        return path
    }

    /// `<table>.csv` for each table, in Workloads' typed CSV encoding.
    static func writeTables(_ tables: [CaseTable], in directory: String) throws {
        for t in tables {
            try FileSystem.writeText(CSVWriter.text(scheme: t.scheme, rows: t.rows), to: FileSystem.join(directory, "\(t.name).csv"))
        }
    }

    /// One `table: NAME indexed [A, B] rows N` manifest line per table.
    static func manifestLines(_ tables: [CaseTable]) -> [String] {
        tables.map { t in
            "table: \(t.name) indexed [\(t.indexedAttributes.map(\.name).joined(separator: ", "))] rows \(t.rows.count)"
        }
    }
}
