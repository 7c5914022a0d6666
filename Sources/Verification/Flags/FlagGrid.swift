import QueryEngine

/// Every combination of heuristic flags to verify, built from a catalog's flag specs so a
/// new heuristic is covered without touching this file: on/off flags take both values,
/// choice flags every option, and other flags the values listed for them in `values`
/// (configuration, by flag name), else only their `all-on` value.
///
/// The on/off flags of heuristics added after the seed (`laterThanSeed`) are not crossed
/// with each other in full (2^n): the seed's grid is crossed with a covering set of their
/// values. `pairwise` (verify's): all off, all on, each one alone on, each one alone off,
/// so every pair of values of any two later heuristics meets every seed combination
/// (2n + 2 combinations). `eachAlone` (the tests'): all off, all on, each one alone on
/// (n + 2), which still holds every combination the grid had when the only later heuristic
/// was closure-seeding.
public struct FlagGrid {
    public enum LaterCovering: Sendable { case pairwise, eachAlone }

    public let catalog: HeuristicCatalog
    /// Values to enumerate per flag name, as written on the command line.
    public var values: [String: [String]]
    public var laterCovering: LaterCovering

    public init(catalog: HeuristicCatalog = .standard, values: [String: [String]] = [:],
                laterCovering: LaterCovering = .pairwise) {
        self.catalog = catalog
        self.values = values
        self.laterCovering = laterCovering
    }

    /// The later heuristics' on/off flags that are covered pairwise (those not listed in
    /// `values`), sorted by name.
    var laterToggles: [FlagSpec] {
        catalog.flags.filter { $0.laterThanSeed && $0.kind == .toggle && values[$0.name] == nil }
    }

    /// The pairwise covering set of `laterToggles`' values, each combination once.
    func laterToggleCombinations() -> [[String: String]] {
        let names = laterToggles.map(\.name)
        func combination(_ on: (Int) -> Bool) -> [String: String] {
            Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, on($0.offset) ? "on" : "off") })
        }
        var out = [combination { _ in false }, combination { _ in true }]
        for i in names.indices {
            out.append(combination { $0 == i })
            if laterCovering == .pairwise { out.append(combination { $0 != i }) }
        }
        var seen = Set<[String: String]>()
        return out.filter { seen.insert($0).inserted }
    }

    /// `testbed verify`'s grid: thresholds {0, 1, 2, 100, unlimited}, copy limits {0, 1, 100},
    /// every ordering, the seed's on/off flags both ways, later ones pairwise.
    public static func verify(catalog: HeuristicCatalog = .standard) -> FlagGrid {
        FlagGrid(catalog: catalog, values: [
            "join-filter-threshold": ["0", "1", "2", "100", "unlimited"],
            "subtree-copy-limit": ["0", "1", "100"],
        ])
    }

    /// The tests' smaller grid: thresholds {0, 1, 100}, the two contract orderings, copy
    /// limits {0, 100}, the seed's on/off flags both ways, later ones pairwise.
    public static func tests(catalog: HeuristicCatalog = .standard) -> FlagGrid {
        FlagGrid(catalog: catalog, values: [
            "join-filter-threshold": ["0", "1", "100"],
            "initiator-ordering": ["smallest-estimate", "declaration"],
            "subtree-copy-limit": ["0", "100"],
        ], laterCovering: .eachAlone)
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
        let pairwise = Set(laterToggles.map(\.name))
        var combos: [[String: String]] = [[:]]
        for spec in catalog.flags where !pairwise.contains(spec.name) {
            let options = try choices(for: spec)
            combos = combos.flatMap { partial in
                options.map { value in
                    var next = partial
                    next[spec.name] = value.description
                    return next
                }
            }
        }
        let later = laterToggleCombinations()
        combos = combos.flatMap { partial in later.map { partial.merging($0) { a, _ in a } } }
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
