import FileSupport
import Yams

/// Yams constructs a config integer by YAML 1.1's rules, whatever the scalar's tag: `010`
/// reads as 8 (octal), `0x10` as 16, `1:30` as 90 (base 60), `1_0` as 10, and `!!str 1` as
/// 1. A researcher writing `seed: 010` means ten, so an integer key must be written in
/// decimal digits (an optional sign, no leading zero); anything else is refused, located.
enum IntegerSpelling {
    /// The config's integer keys, as key paths (`rows` may be one value or a list). A new
    /// integer key in `ExperimentConfig` is listed here too (the decoder cannot tell which
    /// scalars it read as integers; the battery's `run/seed-octal` cases pin these).
    private static let paths: [[String]] = [
        ["repetitions"], ["warmup"], ["dataset", "seed"], ["dataset", "rows"], ["changes", "transactions"], ["changes", "seed"],
    ]

    /// The first integer key written otherwise: its path and what is wrong.
    static func problem(in root: Node) -> (path: [String], message: String)? {
        for path in paths {
            guard let node = NodeLocator.node(at: path, in: root) else { continue }
            if case let .sequence(items) = node {
                for (index, item) in items.enumerated() {
                    if let message = problem(item) { return (path + ["[\(index)]"], message) }
                }
            } else if let message = problem(node) {
                return (path, message)
            }
        }
        for path in parameterPaths {
            guard case let .mapping(parameters)? = NodeLocator.node(at: path, in: root) else { continue }
            for (key, value) in parameters {
                guard let name = key.scalar?.string, let message = parameterProblem(value) else { continue }
                return (path + [name], message)
            }
        }
        return nil
    }

    /// `dataset.params` and `changes.params` hold text, handed to the shape or session,
    /// which reads an integer by the same decimal rule. What YAML would make of a value is
    /// refused where the config says it: a plain `010` (YAML 1.1's 8) or a value tagged as
    /// another type (`!!int "3"`, whose text was taken as it stood).
    private static let parameterPaths: [[String]] = [["dataset", "params"], ["changes", "params"]]

    private static func parameterProblem(_ node: Node) -> String? {
        guard case let .scalar(scalar) = node, scalar.tag.rawValue != Tag.Name.str.rawValue else { return nil }
        let text = scalar.string
        if scalar.style == .singleQuoted || scalar.style == .doubleQuoted {
            return "a parameter's value is text, but \(Printable.quoted(text)) is tagged \(scalar.tag.rawValue); remove the tag"
        }
        return problem(node)
    }

    private static func problem(_ node: Node) -> String? {
        guard case let .scalar(scalar) = node, scalar.style == .plain || scalar.style == .any else { return nil }
        let text = scalar.string
        if scalar.tag.rawValue == Tag.Name.str.rawValue, Int64(text) != nil {
            return "expected an integer, found \(Printable.quoted(text)) tagged as text (!!str); remove the tag"
        }
        // Another explicit tag (`!!float 3`) was read as the integer its text spells.
        if scalar.tag.rawValue == Tag.Name.float.rawValue || scalar.tag.rawValue == Tag.Name.bool.rawValue
            || scalar.tag.rawValue == Tag.Name.null.rawValue {
            return "expected an integer, found \(Printable.quoted(text)) tagged \(scalar.tag.rawValue); remove the tag"
        }
        // What Yams would read as an integer, written otherwise than in decimal digits.
        guard let read = Int64.construct(from: scalar), !DecimalText.isDecimalInteger(text) else { return nil }
        return "expected an integer written in decimal digits, found \(Printable.quoted(text)) (YAML 1.1 reads it as \(read)); "
            + "write it without a plus sign, leading zero, base prefix, underscores or colons"
    }
}
