import FileSupport
import Foundation
import Yams

/// Reads an experiment config with Yams and turns every failure into a `ConfigError` that
/// names the file, the key path, the line and column, and what was expected.
public enum ConfigLoader {
    /// The decoded config and the exact text it came from (kept as `config.yaml` of a run).
    public static func load(path: String) throws -> (config: ExperimentConfig, text: String) {
        let why: String? = switch FileSystem.kind(of: path) {
        case .directory: ": it is a directory; give a YAML file"
        case .other: ": it is not a regular file (a device, pipe or socket); give a YAML file"
        case .missing: ": no such file"
        case .file: nil
        }
        guard why == nil, let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(file: path, keyPath: "", message: "cannot read the config file" + (why ?? " (permission denied?)"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, keyPath: "", message: "the config file is not UTF-8 text")
        }
        return (try decode(text, file: path), text)
    }

    public static func decode(_ text: String, file: String) throws -> ExperimentConfig {
        let node: Node
        do {
            guard let root = try Yams.compose(yaml: text) else {
                throw ConfigError(file: file, keyPath: "", line: 1, message: "the config is empty; expected a mapping with name, dataset, queries and flagsets")
            }
            node = root
        } catch let error as YamlError {
            throw yamlError(error, file: file, text: text)
        }
        if let (path, message) = NodeShape.problem(in: node) { throw located(path, message, in: node, file: file) }
        if let (path, message) = MergeKeys.problem(in: node) { throw located(path, message, in: node, file: file) }
        if let (path, message) = IntegerSpelling.problem(in: node) { throw located(path, message, in: node, file: file) }
        do {
            return try YAMLDecoder().decode(ExperimentConfig.self, from: node)
        } catch let issue as ConfigIssue {
            throw located(issue.path, issue.message, in: node, file: file)
        } catch let error as DecodingError {
            let (path, message) = explain(error)
            throw located(path, integerHint(error, path: path, in: node) ?? message, in: node, file: file)
        } catch let error as YamlError {
            throw yamlError(error, file: file, text: text)
        }
    }

    /// A `ConfigError` for `path`, with the line and column of the deepest node found there.
    static func located(_ path: [String], _ message: String, in root: Node, file: String) -> ConfigError {
        let mark = NodeLocator.mark(of: path, in: root)
        return ConfigError(
            file: file, keyPath: ConfigIssue.render(path), line: mark?.line, column: mark?.column, message: message)
    }

    static func explain(_ error: DecodingError) -> ([String], String) {
        switch error {
        case let .typeMismatch(type, context):
            return (ConfigIssue.components(context.codingPath), "expected \(describe(type))")
        case let .valueNotFound(type, context):
            return (ConfigIssue.components(context.codingPath), "expected \(describe(type)), found nothing")
        case let .keyNotFound(key, context):
            return (ConfigIssue.components(context.codingPath), "missing required key '\(key.stringValue)'")
        case let .dataCorrupted(context):
            return (ConfigIssue.components(context.codingPath), context.debugDescription)
        @unknown default:
            return ([], "\(error)")
        }
    }

    /// For a value where an integer belongs, what is wrong with it rather than the integer
    /// type's whole range: a number written otherwise (`1e3`, `1.5`) or too large, quoted
    /// text (`"20"`), null, `true` or `.nan`; nil for anything else.
    static func integerHint(_ error: DecodingError, path: [String], in root: Node) -> String? {
        guard case let .typeMismatch(type, _) = error, ["Int", "Int64", "UInt64"].contains(String(describing: type)),
            let scalar = NodeLocator.node(at: path, in: root)?.scalar
        else { return nil }
        let text = scalar.string
        if scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
            return "expected an integer, found the text \(Printable.quoted(text)); write the number without quotes"
        }
        if Int64(text) == nil, let number = Double(text), number.isFinite {
            guard number == number.rounded() else { return "expected an integer, found '\(text)'" }
            guard abs(number) < 9.0e15 else {
                // The bound is the field's own: a seed (UInt64) goes to 2^64 - 1.
                let range = String(describing: type) == "UInt64" ? "from 0 to \(UInt64.max)" : "from \(Int64.min) to \(Int64.max)"
                return "\(Printable.quoted(text)) is out of range; expected an integer \(range)"
            }
            return "expected an integer written in digits; write '\(text)' as \(Int64(number))"
        }
        if ["", "~", "null", "Null", "NULL"].contains(text) { return "expected an integer, found null" }
        // A number, but not of the type: said as out of range, not as "not an integer".
        if let integer = Int64(text), integer < 0, String(describing: type) == "UInt64" {
            return "\(Printable.quoted(text)) is out of range; expected an integer from 0 to \(UInt64.max)"
        }
        return "expected an integer, found \(Printable.excerpt(text))"
    }

    /// Plain words for the types a config holds.
    static func describe(_ type: Any.Type) -> String {
        let name = String(describing: type)
        switch name {
        // Said with the range, so that -1 or 10^20 (a number, but not of the type) reads right.
        case "Int", "Int64": return "an integer from \(Int64.min) to \(Int64.max)"
        case "UInt64": return "an integer from 0 to \(UInt64.max)"
        case "Bool": return "true or false"
        case "String": return "a text value"
        case let n where n.hasPrefix("Array") || n.hasPrefix("Sequence"): return "a list"
        case let n where n.hasPrefix("Dictionary") || n.hasPrefix("Mapping"): return "a mapping (key: value)"
        case "Scalar": return "a single value, not a list or mapping"
        default: return name
        }
    }

    static func yamlError(_ error: YamlError, file: String, text: String) -> ConfigError {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return ConfigError(file: file, keyPath: "", line: mark.line, column: mark.column, message: "not valid YAML: \(problem)")
        case let .reader(problem, offset, value, _):
            let at = offset.flatMap { YAMLErrorLocation.position(ofCharacter: $0, in: text) }
            let hex = String(value, radix: 16, uppercase: true)
            let character = value >= 0 ? " (U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ")" : ""
            return ConfigError(file: file, keyPath: "", line: at?.line, column: at?.column, message: "not valid YAML: \(problem)\(character)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let key = duplicates.first ?? ""
            guard let found = YAMLErrorLocation.duplicate(key: key, first: context.mark, in: text) else {
                return ConfigError(file: file, keyPath: key, line: context.mark.line, column: context.mark.column,
                                   message: "this key is given more than once in its mapping; keep one")
            }
            return ConfigError(file: file, keyPath: ConfigIssue.render(found.path), line: found.second.line, column: found.second.column,
                               message: "given twice (first at \(found.first.line):\(found.first.column)); keep one")
        default:
            return ConfigError(file: file, keyPath: "", message: "not valid YAML: \(error)")
        }
    }
}

/// Finds the node a key path names, for line numbers in messages.
enum NodeLocator {
    /// The mark of the deepest node found along `path`; for a mapping key, the key itself
    /// (the line a reader looks for).
    static func mark(of path: [String], in root: Node) -> Mark? {
        walk(path, in: root).reduce(root.mark) { best, step in (step.key ?? step.value).mark ?? best }
    }

    /// The value node at `path`, or nil if the path does not lead all the way.
    static func node(at path: [String], in root: Node) -> Node? {
        let steps = walk(path, in: root)
        return steps.count == path.count ? steps.last?.value ?? root : nil
    }

    /// The nodes along `path` as far as it leads: per component, the mapping key (nil for
    /// a sequence index) and the value it leads to.
    private static func walk(_ path: [String], in root: Node) -> [(key: Node?, value: Node)] {
        var node = root
        var steps: [(key: Node?, value: Node)] = []
        for component in path {
            if component.hasPrefix("["), let index = Int(component.dropFirst().dropLast()),
               case let .sequence(sequence) = node, index < sequence.count {
                node = sequence[index]
                steps.append((nil, node))
            } else if case let .mapping(mapping) = node, let pair = entry(component, in: mapping) {
                node = pair.value
                steps.append((pair.key, node))
            } else {
                break
            }
        }
        return steps
    }

    /// The entry for `key` in `mapping`, or else in what its merge key (`<<`) brings in: a
    /// mapping, or a list of mappings where the first holding the key wins, as the decoder
    /// reads it. Without this the checks that walk the tree (integer spellings) missed
    /// `dataset: {<<: {rows: [010]}}`, which then ran with 8 rows.
    static func entry(_ key: String, in mapping: Node.Mapping) -> (key: Node, value: Node)? {
        if let pair = mapping.first(where: { $0.key.string == key }) { return (pair.key, pair.value) }
        guard let merged = mapping.first(where: { MergeKeys.isMergeKey($0.key) })?.value else { return nil }
        let sources: [Node]
        switch merged {
        case .mapping: sources = [merged]
        case let .sequence(items): sources = Array(items)
        default: sources = []
        }
        for case let .mapping(source) in sources {
            if let found = entry(key, in: source) { return found }
        }
        return nil
    }

    /// Where `line`:`column` of the text held by the scalar `node` stands in the YAML file
    /// `text`. Exact for a literal block scalar (`|`): its first content line follows the
    /// `|`, indented by as many spaces as the first non-blank content line. For a plain or
    /// quoted scalar, exact on its first line; otherwise (folded text) nil.
    static func position(line: Int, column: Int, inScalar node: Node, text: String) -> (line: Int, column: Int)? {
        guard case let .scalar(scalar) = node, let mark = node.mark else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        switch scalar.style {
        case .literal:
            let content = lines.dropFirst(mark.line)
            guard let first = content.first(where: { !$0.allSatisfy { $0 == " " || $0 == "\r" } }) else { return nil }
            let indentation = first.prefix { $0 == " " }.count
            return (mark.line + line, indentation + column)
        case .plain, .singleQuoted, .doubleQuoted:
            let quote = scalar.style == .plain ? 0 : 1
            guard line == 1, mark.line <= lines.count,
                  mark.column + quote + column - 1 <= lines[mark.line - 1].unicodeScalars.count + 1 else { return nil }
            return (mark.line, mark.column + quote + column - 1)
        case .any, .folded:
            return nil
        }
    }
}
