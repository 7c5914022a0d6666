import FileSupport

/// Makes a directory relation's save atomic (all of its changes or none, whatever point a
/// crash stops it at), with a redo journal in `<dir>/.journal/`:
/// 1. each new or changed row file is written into the journal;
/// 2. `commit` (the list of files to move in and remove) is written beside them and
///    renamed into place: that rename is the commit point;
/// 3. the journal's files are renamed into place and removed rows' files deleted;
/// 4. `commit` and the journal directory are removed.
/// Opening the relation calls `recover`: a journal with `commit` is replayed (every step
/// of 3 can be repeated), one without it is discarded.
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

    /// Finishes or discards a save that a crash interrupted.
    static func recover(in directory: String) throws {
        let journal = FileSystem.join(directory, directoryName)
        try refuseLink(journal)
        guard FileSystem.isDirectory(journal) else { return }
        let commit = FileSystem.join(journal, commitName)
        if let bytes = try PlistFiles.readIfPresent(commit) {
            try replay(directory, list: String(decoding: bytes, as: UTF8.self), crash: nil)
        } else {
            try discard(journal)
        }
    }

    private static func replay(_ directory: String, list: String, crash: CrashInjection?) throws {
        let journal = FileSystem.join(directory, directoryName)
        let suffix = "." + PlistDirectoryRelation.fileExtension
        for line in list.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[0] == "w" || parts[0] == "d", PlistDirectoryRelation.isStem(parts[1]) else {
                throw PlistError(FileSystem.join(journal, commitName), "has a line that is not 'w|d <sha256>': '\(line)'")
            }
            let stem = String(parts[1])
            let target = FileSystem.join(FileSystem.join(directory, String(stem.prefix(2))), stem + suffix)
            try crash?.step()
            if parts[0] == "w" {
                let staged = FileSystem.join(journal, stem + suffix)
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
