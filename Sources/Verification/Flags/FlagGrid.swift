import QueryEngine

/// Every combination of heuristic flags to verify, built from a catalog's flag specs so a
/// new heuristic is covered without touching this file: on/off flags take both values,
/// choice flags every option, and other flags the values listed for them in `values`
/// (configuration, by flag name), else only their `all-on` value.
public struct FlagGrid {
    public let catalog: HeuristicCatalog
    /// Values to enumerate per flag name, as written on the command line.
    public var values: [String: [String]]

    public init(catalog: HeuristicCatalog = .standard, values: [String: [String]] = [:]) {
        self.catalog = catalog
        self.values = values
    }

    /// `testbed verify`'s grid: thresholds {0, 1, 2, 100, unlimited}, copy limits {0, 1, 100},
    /// every ordering.
    public static func verify(catalog: HeuristicCatalog = .standard) -> FlagGrid {
        FlagGrid(catalog: catalog, values: [
            "join-filter-threshold": ["0", "1", "2", "100", "unlimited"],
            "subtree-copy-limit": ["0", "1", "100"],
        ])
    }

    /// The tests' smaller grid: thresholds {0, 1, 100}, the two contract orderings, copy
    /// limits {0, 100}.
    public static func tests(catalog: HeuristicCatalog = .standard) -> FlagGrid {
        FlagGrid(catalog: catalog, values: [
            "join-filter-threshold": ["0", "1", "100"],
            "initiator-ordering": ["smallest-estimate", "declaration"],
            "subtree-copy-limit": ["0", "100"],
        ])
    }

    /// The values enumerated for one flag.
    public func choices(for spec: FlagSpec) throws -> [FlagValue] {
        if let listed = values[spec.name] { return try listed.map(spec.parse) }
        switch spec.kind {
        case .toggle: return [.toggle(true), .toggle(false)]
        case let .choice(options): return options.map { .choice($0) }
        case .integer: return [spec.allOn]
        }
    }

    /// Every combination, in a fixed order (flags by name, values as listed).
    public func flagSets() throws -> [FlagSet] {
        var combos: [[String: String]] = [[:]]
        for spec in catalog.flags {
            let options = try choices(for: spec)
            combos = combos.flatMap { partial in
                options.map { value in
                    var next = partial
                    next[spec.name] = value.description
                    return next
                }
            }
        }
        return try combos.map { try catalog.flagSet(preset: "all-on", set: $0) }
    }

    /// One combination drawn at random (each flag independently, uniformly among its values).
    public func randomFlagSet(_ random: inout VerificationRandom) throws -> FlagSet {
        var set: [String: String] = [:]
        for spec in catalog.flags {
            let options = try choices(for: spec)
            if let pick = random.element(of: options) { set[spec.name] = pick.description }
        }
        return try catalog.flagSet(preset: "all-on", set: set)
    }
}
