import Relational

extension HeuristicCatalog {
    /// Every optimizer pass the catalog's heuristics contribute (each heuristic configured as
    /// in `all-on`), in pipeline order: the names `--disable-pass` and `disabled-passes` take.
    public var passNames: [String] {
        guard let flags = try? preset("all-on") else { return [] }
        return instantiate(flags).flatMap(\.optimizerPasses).map(\.name)
    }

    /// Refuses a pass name no heuristic of the catalog contributes, suggesting the closest,
    /// and a name given twice (refused as a repeated backend, size or flag set is).
    public func checkPassNames<Names: Sequence<String>>(_ names: Names) throws {
        let known = passNames
        var seen: Set<String> = []
        for name in names {
            guard known.contains(name) else {
                throw UnknownPassError(name: name, suggestion: closestMatch(to: name, among: known), known: known)
            }
            guard seen.insert(name).inserted else { throw RepeatedPassError(name: name) }
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

/// A pass name given twice to disable.
public struct RepeatedPassError: Error, Equatable, CustomStringConvertible {
    public let name: String

    public var description: String { "optimizer pass '\(name)' is given twice; give it once" }
}
