import Foundation

/// Files written whole or not at all: the text goes to a temporary sibling that is renamed
/// over the target, so an interrupted run never leaves a half-written CSV.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw ExperimentFailure.output("cannot write '\(path)': \(error.localizedDescription)")
        }
    }

    public static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExperimentFailure.output("cannot read '\(path)'")
        }
        return String(decoding: data, as: UTF8.self)
    }

    public static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ExperimentFailure.output("cannot create directory '\(path)': \(error.localizedDescription)")
        }
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    public static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    public static func isEmptyDirectory(_ path: String) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["?"]).isEmpty
    }
}

extension AtomicFile {
    public static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// Copies a directory tree (plans of a shard into a merged result).
    public static func copyDirectory(_ from: String, to: String) throws {
        do {
            if exists(to) { try FileManager.default.removeItem(atPath: to) }
            try FileManager.default.copyItem(atPath: from, toPath: to)
        } catch {
            throw ExperimentFailure.output("cannot copy '\(from)' to '\(to)': \(error.localizedDescription)")
        }
    }
}
