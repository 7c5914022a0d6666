import FileSupport

/// Fills a fresh temporary and puts it in place of `directory`, so a reader never sees a
/// half-written dataset. `directory` must be missing or empty: a missing one is the
/// temporary, a sibling, renamed into place; an empty one keeps its owner and mode (it was
/// replaced) and takes the temporary's entries, the temporary made inside it. On any
/// failure what was written is removed with `remove` and the error says that nothing was
/// left; a signal that ends the process meanwhile removes it too.
func publishDirectory<T>(
    _ directory: String, describedAs what: String, removing remove: (String) -> Void,
    fill: (_ temporary: String) throws -> T
) throws -> T {
    if FileSystem.isSymbolicLink(directory) {
        throw WorkloadError.output("'\(directory)' is a symbolic link; give the directory itself")
    }
    let inPlace: Bool
    switch FileSystem.kind(of: directory) {
    case .missing: inPlace = false
    case .directory where FileSystem.isEmptyDirectory(directory): inPlace = true
    case .directory: throw WorkloadError.output("'\(directory)' already exists and is not empty; choose a new directory")
    default: throw WorkloadError.output("'\(directory)' exists and is not a directory")
    }
    let temporary = inPlace
        ? FileSystem.join(directory, FileSystem.temporarySibling(of: "dataset")) : FileSystem.temporarySibling(of: directory)
    do {
        // Registered before it is made, so no signal can leave it behind.
        let result = try SignalCleanup.shared.removing(temporary) {
            try FileSystem.makeDirectory(temporary)
            return try fill(temporary)
        }
        if inPlace {
            try moveEntries(of: temporary, into: directory)
        } else {
            try FileSystem.rename(temporary, to: directory)
        }
        return result
    } catch let error as WorkloadError {
        remove(temporary)
        throw error
    } catch {
        remove(temporary)
        throw WorkloadError.output("cannot write \(what) \(Printable.quoted(directory)) (nothing was left behind): \(error)")
    }
}

/// Moves every entry of `temporary` into the empty `directory` (the manifest last, so that
/// a reader who finds it finds every table), then removes `temporary`. A failure or a
/// signal meanwhile takes the moved entries out again, leaving `directory` empty.
private func moveEntries(of temporary: String, into directory: String) throws {
    let names = (FileSystem.entries(of: temporary) ?? []).sorted { ($0 == "manifest.txt" ? 1 : 0) < ($1 == "manifest.txt" ? 1 : 0) }
    let undo: @Sendable () -> Void = {
        for name in names { FileSystem.removeTree(FileSystem.join(directory, name)) }
    }
    try SignalCleanup.shared.removing(temporary) {
        let token = SignalCleanup.shared.add(undo)
        defer { SignalCleanup.shared.remove(token) }
        do {
            for name in names {
                try FileSystem.rename(FileSystem.join(temporary, name), to: FileSystem.join(directory, name), replacing: false)
            }
        } catch {
            undo()
            throw error
        }
    }
    FileSystem.removeEmptyDirectory(temporary)
}
