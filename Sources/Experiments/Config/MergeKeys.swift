import Yams

/// YAML merge keys (`<<: *base`) are read as the decoder reads them: the mapping, or list of
/// mappings, they name supplies keys the mapping does not give itself. Any other value
/// under `<<` (a number, text, null) the decoder ignored without a word; it is refused.
enum MergeKeys {
    /// Whether `key` is a merge key: a plain `<<`, not the quoted text "<<".
    static func isMergeKey(_ key: Node) -> Bool {
        guard case let .scalar(scalar) = key else { return false }
        return scalar.string == "<<" && (scalar.style == .plain || scalar.style == .any)
    }

    /// The first merge key whose value is not a mapping or a list of mappings.
    static func problem(in root: Node, at path: [String] = []) -> (path: [String], message: String)? {
        switch root {
        case let .mapping(mapping):
            for pair in mapping {
                let key = pair.key.string ?? "?"
                if isMergeKey(pair.key), !mergesMappings(pair.value) {
                    return (path + [key], "a merge key (<<) takes a mapping or a list of mappings (an alias such as *base), "
                        + "found \(describe(pair.value))")
                }
                if let found = problem(in: pair.value, at: path + [key]) { return found }
            }
        case let .sequence(items):
            for (index, item) in items.enumerated() {
                if let found = problem(in: item, at: path + ["[\(index)]"]) { return found }
            }
        case .scalar, .alias:
            break
        }
        return nil
    }

    private static func mergesMappings(_ node: Node) -> Bool {
        switch node {
        case .mapping: return true
        case let .sequence(items): return !items.isEmpty && items.allSatisfy { if case .mapping = $0 { true } else { false } }
        case .scalar, .alias: return false
        }
    }

    private static func describe(_ node: Node) -> String {
        switch node {
        case let .scalar(scalar):
            let isNull = scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
            return isNull ? "null" : "'\(scalar.string)'"
        case .sequence: return "a list of other values"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }
}
