import Relational

extension HeuristicCatalog {
    /// Every optimizer pass the catalog's heuristics contribute (each heuristic configured as
    /// in `all-on`), in pipeline order: the names `--disable-pass` and `disabled-passes` take.
    public var passNames: [String] {
        guard let flags = try? preset("all-on") else { return [] }
        return instantiate(flags).flatMap(\.optimizerPasses).map(\.name)
    }

    /// Refuses a pass name no heuristic of the catalog contributes, suggesting the closest.
    public func checkPassNames<Names: Sequence<String>>(_ names: Names) throws {
        let known = passNames
        for name in names where !known.contains(name) {
            throw UnknownPassError(name: name, suggestion: closestMatch(to: name, among: known), known: known)
        }
    }
}

/// A pass name to disable that no heuristic contributes.
public struct UnknownPassError: Error, Equatable, CustomStringConvertible {
    public let name: String
    public let suggestion: String?
    public let known: [String]

    public var description: String {
        "unknown optimizer pass '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
            + " (passes: \(known.joined(separator: ", ")))"
    }
}
