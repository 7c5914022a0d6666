import FileSupport

/// Makes a directory relation's save atomic (all of its changes or none, whatever point a
/// crash stops it at), with a redo journal in `<dir>/.journal/`:
/// 1. each new or changed row file is written into the journal;
/// 2. `commit` (the list of files to move in and remove) is written beside them and
///    renamed into place: that rename is the commit point;
/// 3. the journal's files are renamed into place and removed rows' files deleted;
/// 4. `commit` and the journal directory are removed.
/// Opening the relation calls `recover`: a journal with `commit` is replayed (every step
/// of 3 can be repeated) once its staged files are checked, one without it is discarded.
struct PlistDirectoryJournal {
    static let directoryName = ".journal"
    static let commitName = "commit"

    let directory: String
    let crash: CrashInjection?

    var journal: String { FileSystem.join(directory, Self.directoryName) }

    func commit(writes: [(String, [UInt8])], deletes: [String]) throws {
        try Self.discard(journal)
        try PlistFiles.makeDirectories(journal)
        for (stem, bytes) in writes {
            try crash?.step()
            try PlistFiles.write(bytes, to: FileSystem.join(journal, stem + "." + PlistDirectoryRelation.fileExtension))
        }
        var list = ""
        for (stem, _) in writes { list += "w \(stem)\n" }
        for stem in deletes { list += "d \(stem)\n" }
        try crash?.step()
        try PlistFiles.writeAtomically(Array(list.utf8), to: FileSystem.join(journal, Self.commitName))
        try Self.replay(directory, list: list, crash: crash)
    }

    /// Finishes or discards a save that a crash interrupted. Before a committed journal is
    /// replayed, its whole list is read and every staged row file still to move is given to
    /// `checkStaged` (path, stem, bytes); one that fails is reported and nothing moves, so a bad
    /// journal never replaces a good row before its error.
    static func recover(in directory: String, checkStaged: (_ file: String, _ stem: String, _ bytes: [UInt8]) throws -> Void) throws {
        let journal = FileSystem.join(directory, directoryName)
        try refuseLink(journal)
        guard FileSystem.isDirectory(journal) else { return }
        let commit = FileSystem.join(journal, commitName)
        if let bytes = try PlistFiles.readIfPresent(commit) {
            let list = String(decoding: bytes, as: UTF8.self)
            for step in try steps(list, commit: commit) {
                try PlistDirectoryRelation.refuseLinkedShard(FileSystem.join(directory, String(step.stem.prefix(2))))
            }
            for step in try steps(list, commit: commit) where step.write {
                let staged = stagedPath(journal, step.stem)
                // Already moved by an earlier, interrupted replay.
                guard let bytes = try PlistFiles.readIfPresent(staged) else { continue }
                do { try checkStaged(staged, step.stem, bytes) } catch {
                    throw PlistError(journal, "holds a committed save that cannot be finished (\(error)); nothing was replayed, "
                        + "the journal is left as it is")
                }
            }
            try replay(directory, list: list, crash: nil)
        } else {
            try discard(journal)
        }
    }

    /// The commit list's steps in order: a write (`w`) or a delete (`d`) of a row file stem.
    private static func steps(_ list: String, commit: String) throws -> [(write: Bool, stem: String)] {
        try list.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0] == "w" || parts[0] == "d", PlistDirectoryRelation.isStem(parts[1]) else {
                throw PlistError(commit, "has a line that is not 'w|d <sha256>': '\(line)'")
            }
            return (parts[0] == "w", String(parts[1]))
        }
    }

    private static func stagedPath(_ journal: String, _ stem: String) -> String {
        FileSystem.join(journal, stem + "." + PlistDirectoryRelation.fileExtension)
    }

    private static func replay(_ directory: String, list: String, crash: CrashInjection?) throws {
        let journal = FileSystem.join(directory, directoryName)
        let suffix = "." + PlistDirectoryRelation.fileExtension
        for (write, stem) in try steps(list, commit: FileSystem.join(journal, commitName)) {
            let target = FileSystem.join(FileSystem.join(directory, String(stem.prefix(2))), stem + suffix)
            try crash?.step()
            if write {
                let staged = stagedPath(journal, stem)
                // Already moved by an earlier, interrupted replay.
                guard FileSystem.exists(staged) else { continue }
                try PlistFiles.makeDirectories(FileSystem.parentDirectory(of: target))
                try PlistFiles.move(staged, to: target)
            } else {
                try PlistFiles.remove(target)
            }
        }
        try crash?.step()
        try PlistFiles.remove(FileSystem.join(journal, commitName))
        try discard(journal)
    }

    /// Removes the journal directory and whatever it holds.
    private static func discard(_ journal: String) throws {
        try refuseLink(journal)
        guard FileSystem.isDirectory(journal) else { return }
        for name in FileSystem.entries(of: journal) ?? [] { try PlistFiles.remove(FileSystem.join(journal, name)) }
        FileSystem.removeEmptyDirectory(journal)
        if FileSystem.exists(journal) { throw PlistError(journal, "cannot be removed") }
    }

    /// A journal that is a symbolic link is refused, untouched: replaying or discarding it
    /// would move or delete the files of whatever directory it points to, outside the
    /// database (a crafted database deleted every file of the linked directory on a plain
    /// `testbed query --plist DIR`).
    private static func refuseLink(_ journal: String) throws {
        if FileSystem.isSymbolicLink(journal) {
            throw PlistError(journal, "is a symbolic link, not the relation's own journal directory; left as it is")
        }
    }
}

/// Tests: stops a save after a number of file operations, as a crash would (the relation
/// object is then abandoned and the directory opened again).
public final class CrashInjection {
    public private(set) var remaining: Int

    public init(afterFileOperations count: Int) { remaining = count }

    func step() throws {
        if remaining <= 0 { throw SimulatedCrash() }
        remaining -= 1
    }
}

public struct SimulatedCrash: Error, Equatable {}
