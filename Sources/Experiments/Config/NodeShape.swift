import Yams

/// Shapes of YAML the config's decoder does not catch, checked before anything walks the
/// tree:
///
/// - Aliases that expand a small text into a huge tree (each level's list naming the level
///   below ten times): every walk of the tree is a walk of the expansion, so a 700-byte
///   config took minutes to be told it has an unknown key. A config is refused beyond
///   `nodeLimit` nodes, counted as expanded, and the count stops there.
/// - A mapping key that is not a scalar (`? [a, b]: c`): the decoder dropped it without a
///   word, so a misspelt flag set written so vanished from the run.
/// - A list entry that is null (`queries: [~]`, an empty `- `): read as the text `~` or
///   `null`, it was refused for the characters of a name it never meant to be.
/// - A tag of the config's own (`seed: !foo 42`): no key reads one, and the value was taken
///   as if it were not there.
enum NodeShape {
    /// Far above any real config: the catalog's largest experiment has a few hundred nodes.
    static let nodeLimit = 100_000

    /// The first problem: its key path and what is wrong.
    static func problem(in root: Node) -> (path: [String], message: String)? {
        var budget = nodeLimit
        return walk(root, [], &budget)
    }

    private static func walk(_ node: Node, _ path: [String], _ budget: inout Int) -> (path: [String], message: String)? {
        budget -= 1
        if budget < 0 {
            return ([], "the config expands to more than \(nodeLimit) YAML nodes through its aliases (*name); "
                + "write the repeated parts out, or repeat fewer of them")
        }
        if let tag = localTag(of: node) {
            return (path, "the tag \(tag) means nothing to the config (only YAML's own, such as !!str, are read); remove it")
        }
        switch node {
        case let .mapping(mapping):
            for pair in mapping {
                if let tag = localTag(of: pair.key) {
                    return (path, "the tag \(tag) on a key means nothing to the config; remove it")
                }
                guard case let .scalar(key) = pair.key else {
                    return (path, "a key must be a plain name, found \(kind(of: pair.key)) (`? …` keys are not read)")
                }
                if let found = walk(pair.value, path + [key.string], &budget) { return found }
            }
        case let .sequence(items):
            for (index, item) in items.enumerated() {
                if isNull(item) {
                    return (path + ["[\(index)]"], "an empty entry (null) in a list; write its value, or remove the entry")
                }
                if let found = walk(item, path + ["[\(index)]"], &budget) { return found }
            }
        case .scalar, .alias:
            break
        }
        return nil
    }

    /// A tag written in the config that is not one of YAML's own (`tag:yaml.org,2002:…`,
    /// which `!!str` spells), or nil. Read unresolved: `Node.tag` resolves an untagged
    /// value's tag in place (to `…:float` for `0.1`), which the integer checks would then see.
    static func localTag(of node: Node) -> String? {
        let name: String
        switch node {
        case let .scalar(scalar): name = scalar.tag.rawValue
        case let .mapping(mapping): name = mapping.tag.rawValue
        case let .sequence(sequence): name = sequence.tag.rawValue
        case .alias: return nil
        }
        guard !name.isEmpty, name != "?", !name.hasPrefix("tag:yaml.org,2002:") else { return nil }
        return name
    }

    /// A plain `~`, `null` or nothing, not tagged as text.
    private static func isNull(_ node: Node) -> Bool {
        guard case let .scalar(scalar) = node, scalar.style == .plain || scalar.style == .any else { return false }
        return scalar.tag.rawValue != Tag.Name.str.rawValue && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    private static func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar, .alias: return "a scalar"
        }
    }
}
