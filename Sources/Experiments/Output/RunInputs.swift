import FileSupport
import Workloads

/// `inputs.txt` of a run: the content of every query and change script its config names,
/// by hash. `config.yaml` keeps only the names, so a query or script edited between a run
/// and its `--resume`, or between two shards, would otherwise mix results of two inputs
/// under one config.
public enum RunInputs {
    public static let fileName = "inputs.txt"
    private static let header = "# The content of each input the config names (FNV-1a of its text); --resume and merge compare it."

    /// One line per query (inline ones too, so that the file is the whole picture) and one
    /// for a change script: kind, name, content hash, and where the text came from.
    public static func text(_ experiment: Experiment) -> String {
        var lines = [header]
        for entry in entries(experiment) {
            lines.append("\(entry.kind) \(entry.name) \(entry.hash) \(Printable.escaped(entry.origin))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Refuses `directory`'s run when a recorded input's content differs from what
    /// `experiment` resolved to now. A run written before `inputs.txt` existed has none and
    /// passes. `role` starts the message (`--resume`, `merge`).
    public static func check(_ directory: String, against experiment: Experiment, role: String) throws {
        let path = FileSystem.join(directory, fileName)
        guard FileSystem.exists(path) else { return }
        let recorded = try read(path)
        let current = entries(experiment).map { Recorded(kind: $0.kind, name: $0.name, hash: $0.hash) }
        let advice = role == "merge" ? "restore it, or run the shards again" : "restore it, or start a new run"
        for entry in recorded {
            guard let now = current.first(where: { $0.kind == entry.kind && $0.name == entry.name }) else {
                throw ExperimentFailure.usage("\(role): \(Printable.quoted(directory)) ran \(entry.label), which the config no longer has (\(fileName))")
            }
            if now.hash != entry.hash {
                throw ExperimentFailure.usage("\(role): \(entry.label) has changed since \(Printable.quoted(directory)) ran it "
                    + "(content hash \(entry.hash) in its \(fileName), \(now.hash) now); \(advice)")
            }
        }
        if let extra = current.first(where: { now in !recorded.contains { $0.kind == now.kind && $0.name == now.name } }) {
            throw ExperimentFailure.usage("\(role): \(Printable.quoted(directory))'s \(fileName) does not list \(extra.label)")
        }
    }

    private struct Recorded {
        let kind: String, name: String, hash: String
        var label: String { kind == "query" ? "query '\(name)'" : "the change script" }
    }

    private static func entries(_ experiment: Experiment) -> [(kind: String, name: String, hash: String, origin: String)] {
        var out = experiment.queries.map { (kind: "query", name: $0.name, hash: hash($0.text), origin: $0.origin) }
        if case let .script(path, text)? = experiment.changes?.source {
            out.append((kind: "changes", name: "script", hash: hash(text), origin: path))
        }
        return out
    }

    static func hash(_ text: String) -> String {
        var hasher = ContentHasher()
        hasher.add(bytes: text.utf8)
        return hasher.hex
    }

    /// The recorded entries; a line that is not `kind name hash origin` is refused by number,
    /// as a hand-edited file would otherwise pass as "nothing recorded".
    private static func read(_ path: String) throws -> [Recorded] {
        // `isNewline`: a CRLF pair is one Character, which a split on "\n" never matches.
        let lines = try FileSystem.readText(path).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var out: [Recorded] = []
        for (index, line) in lines.enumerated() where !line.isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            let bad = { (why: String) in
                ExperimentFailure.usage("\(Printable.quoted(path)) line \(index + 1): \(why); the file was changed after the run")
            }
            guard fields.count == 4, ["query", "changes"].contains(fields[0]), !fields[1].isEmpty else {
                throw bad("expected `query NAME HASH ORIGIN` or `changes script HASH PATH`")
            }
            guard fields[2].utf8.count == 16, fields[2].allSatisfy(\.isHexDigit), fields[2].lowercased() == fields[2] else {
                throw bad("'\(Printable.escaped(String(fields[2].prefix(40))))' is not a content hash (16 lower-case hex digits)")
            }
            let entry = Recorded(kind: String(fields[0]), name: String(fields[1]), hash: String(fields[2]))
            guard !out.contains(where: { $0.kind == entry.kind && $0.name == entry.name }) else {
                throw bad("\(entry.label) is listed twice")
            }
            out.append(entry)
        }
        return out
    }
}
