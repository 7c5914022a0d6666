/// A path given for output (`--out DIR`, `--csv DIR`, `--sqlite FILE`, ...), checked once
/// where it enters, so that joining names onto it can never leave the place it names: an
/// empty path would make `dir + "/timings.csv"` the root's `/timings.csv`.
public struct OutputPathError: Error, Equatable, CustomStringConvertible {
    /// The option or key that gave the path, e.g. `--out`.
    public let option: String
    public let path: String
    public let problem: String

    public var description: String {
        "\(option): \(Printable.quoted(path)) \(problem)"
    }
}

extension FileSystem {
    /// `path` as given, or an error naming `option` when it cannot be written to: empty or
    /// blank, holding a control character, the file-system root, (for a directory) an
    /// existing non-directory, or below a file.
    public static func checkedOutputPath(_ path: String, option: String, directory: Bool) throws -> String {
        func refuse(_ problem: String) -> OutputPathError {
            OutputPathError(option: option, path: path, problem: problem)
        }
        if path.isEmpty { throw refuse("is empty; give a \(directory ? "directory" : "file") path") }
        if path.allSatisfy({ $0 == " " || $0 == "\t" }) { throw refuse("is blank; give a \(directory ? "directory" : "file") path") }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            throw refuse("contains a control character")
        }
        if path.allSatisfy({ $0 == "/" }) { throw refuse("is the file-system root; give a directory below it") }
        switch kind(of: path) {
        case .file where directory: throw refuse("is an existing file, not a directory")
        case .directory where !directory: throw refuse("is an existing directory, not a file")
        case .other: throw refuse("exists and is neither a file nor a directory")
        case .missing: break
        default: return path
        }
        // A link whose target is missing reads as missing, but nothing can be made at it
        // (a run said only "cannot open lock file", `plan` "a file with the same name exists").
        if isSymbolicLink(path) { throw refuse("is a symbolic link whose target does not exist") }
        if let problem = missingPathProblem(path) { throw refuse(problem) }
        // A path not there yet is made below its nearest existing ancestor, which must be a
        // directory: under a file (`afile/x`) nothing can be made, and finding that out
        // only at the first write came after the command's work.
        var ancestor = path
        while true {
            while ancestor.count > 1, ancestor.hasSuffix("/") { ancestor.removeLast() }
            guard ancestor.contains("/") else { return path }
            ancestor = parentDirectory(of: ancestor)
            switch kind(of: ancestor) {
            case .directory: return path
            case .missing: continue
            case .file: throw refuse("cannot be made: \(Printable.quoted(ancestor)) is a file, not a directory")
            case .other: throw refuse("cannot be made: \(Printable.quoted(ancestor)) is not a directory")
            }
        }
    }

    /// Why a path that does not exist yet cannot be made, found before any of its missing
    /// parents is created (which would otherwise be left behind): a component longer than
    /// the file system allows, a path over `PATH_MAX`, or `..` after a component that does
    /// not exist (`zz/../pp` would leave an empty `zz`).
    static func missingPathProblem(_ path: String) -> String? {
        let limit = 255
        if path.utf8.count >= 4096 { return "is longer than 4095 bytes" }
        var prefix = path.hasPrefix("/") ? "/" : ""
        var missing: String?
        for component in path.split(separator: "/") {
            if component.utf8.count > limit {
                return "cannot be made: a component is \(component.utf8.count) bytes long, over the limit of \(limit)"
            }
            if component == "..", let missing {
                return "cannot be made: '..' follows \(Printable.quoted(missing)), which does not exist; give the path without it"
            }
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if missing == nil, kind(of: prefix) == .missing { missing = prefix }
        }
        return nil
    }

    /// `directory/name`, for a directory that passed `checkedOutputPath` (never empty).
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// Text made safe to echo in a message: control and invisible characters (from a config, a
/// file name or a query) are shown as escapes instead of reaching the terminal raw.
public enum Printable {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0a: out += "\\n"
            case 0x0d: out += "\\r"
            case 0x09: out += "\\t"
            // Controls, line and paragraph separators, bidirectional overrides, and the
            // invisible zero-width and byte-order marks (a second BOM in a query file was
            // reported as `unexpected character ''`).
            case 0..<0x20, 0x7f, 0x80..<0xa0, 0x200b...0x200f, 0x2028, 0x2029, 0x202a...0x202e, 0x2060, 0x2066...0x2069, 0xfeff:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `'text'` with control characters escaped.
    public static func quoted(_ text: String) -> String { "'" + escaped(text) + "'" }

    /// `quoted` for a value read from a file, which may be a whole line of garbage: past
    /// `limit` characters it is cut, and the message says how long it was.
    public static func excerpt(_ text: String, limit: Int = 80) -> String {
        let count = text.count
        guard count > limit else { return quoted(text) }
        return "'" + escaped(String(text.prefix(limit))) + "…' (\(count) characters)"
    }

    /// A whole message, possibly of several lines: escaped as `escaped` does, the line
    /// breaks between its lines kept.
    public static func message(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }
}
