import QueryEngine

/// One named flag set of the hunt's grid.
public struct HuntFlagSet: Sendable {
    public let name: String
    public let flags: FlagSet

    public init(name: String, flags: FlagSet) {
        self.name = name
        self.flags = flags
    }
}

/// The flag sets `testbed hunt` compares, by name: the presets (`all-on`, `seed`,
/// `all-off`), `no-FLAG` (all-on with one heuristic at its all-off value) and `FLAG=VALUE`
/// (all-on with one flag set). The default grid is the presets plus `no-FLAG` for every
/// flag whose all-on and all-off values differ, so a new heuristic joins the grid (and is
/// measured switched off alone) without touching this file.
public struct HuntGrid {
    /// The catalog users name flags from (`testbed flags`).
    public let catalog: HeuristicCatalog
    /// What the engine runs: `catalog` plus the forced-order plug-in.
    public let engineCatalog: HeuristicCatalog
    public let flagSets: [HuntFlagSet]

    public init(catalog: HeuristicCatalog = .standard, names: [String]? = nil) throws {
        self.catalog = catalog
        engineCatalog = ForcedInitiatorOrder.catalog(over: catalog)
        var seen = Set<String>()
        var sets: [HuntFlagSet] = []
        for name in names ?? HuntGrid.defaultNames(catalog) where seen.insert(name).inserted {
            sets.append(HuntFlagSet(name: name, flags: try HuntGrid.flagSet(named: name, catalog: catalog)))
        }
        guard !sets.isEmpty else { throw VerificationError.usage("--flagsets: give at least one flag set") }
        flagSets = sets
    }

    /// A grid of flag sets built by hand (tests, tools); names must be unique.
    public init(catalog: HeuristicCatalog = .standard, flagSets: [HuntFlagSet]) throws {
        guard !flagSets.isEmpty, Set(flagSets.map(\.name)).count == flagSets.count else {
            throw VerificationError.usage("a hunt grid needs at least one flag set and unique names")
        }
        self.catalog = catalog
        engineCatalog = ForcedInitiatorOrder.catalog(over: catalog)
        self.flagSets = flagSets
    }

    public static func defaultNames(_ catalog: HeuristicCatalog) -> [String] {
        HeuristicCatalog.presetNames + catalog.flags.filter { $0.allOn != $0.allOff }.map { "no-" + $0.name }
    }

    /// The flag set a grid name stands for.
    public static func flagSet(named name: String, catalog: HeuristicCatalog) throws -> FlagSet {
        if HeuristicCatalog.presetNames.contains(name) { return try catalog.preset(name) }
        if name.hasPrefix("no-"), let spec = catalog.flags.first(where: { "no-" + $0.name == name }) {
            return try catalog.flagSet(preset: "all-on", set: [spec.name: spec.allOff.description])
        }
        if name.contains("=") {
            return try catalog.flagSet(preset: "all-on", enable: [], disable: [], assignments: [name])
        }
        throw VerificationError.usage(
            "--flagsets: '\(name)' is not a flag set; expected a preset (all-on, seed, all-off), no-FLAG or FLAG=VALUE "
                + "with FLAG one of: " + catalog.flags.map(\.name).joined(separator: ", "))
    }

    public func index(of name: String) -> Int? { flagSets.firstIndex { $0.name == name } }

    /// The seed preset with sources drained in forced order `rank` (from 0).
    public func seedWithOrder(_ rank: Int) throws -> FlagSet {
        try engineCatalog.flagSet(preset: "seed", set: [ForcedInitiatorOrder.order.name: String(rank + 1)])
    }

    /// `flags` (from `catalog`) with sources drained in forced order `rank`.
    public func withOrder(_ flags: FlagSet, _ rank: Int) throws -> FlagSet {
        var set: [String: String] = [:]
        for spec in catalog.flags { set[spec.name] = flags[spec.name]?.description }
        set[ForcedInitiatorOrder.order.name] = String(rank + 1)
        return try engineCatalog.flagSet(preset: "all-on", set: set)
    }
}
