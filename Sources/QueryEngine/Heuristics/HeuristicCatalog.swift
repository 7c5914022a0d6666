import Relational

/// The heuristics an engine knows, and the flag sets built from their flags.
public struct HeuristicCatalog {
    public let heuristics: [any Heuristic.Type]

    public init(_ heuristics: [any Heuristic.Type]) {
        self.heuristics = heuristics
    }

    /// Every flag of every heuristic, sorted by name.
    public var flags: [FlagSpec] {
        heuristics.flatMap { $0.flags }.sorted { $0.name < $1.name }
    }

    public static let presetNames = ["all-on", "seed", "all-off"]

    public func preset(_ name: String) throws -> FlagSet {
        switch name {
        case "all-on":
            return FlagSet(values: Dictionary(uniqueKeysWithValues: flags.map { ($0.name, $0.allOn) }), specs: flags)
        case "seed":
            // Seed 000's configuration: its heuristics at their defaults, later ones off.
            return FlagSet(values: Dictionary(uniqueKeysWithValues: flags.map { ($0.name, $0.laterThanSeed ? $0.allOff : $0.allOn) }), specs: flags)
        case "all-off":
            return FlagSet(values: Dictionary(uniqueKeysWithValues: flags.map { ($0.name, $0.allOff) }), specs: flags)
        default: throw FlagError.unknownPreset(name)
        }
    }

    /// A preset adjusted by `--enable`, `--disable` and `--set NAME=VALUE`, in that order.
    /// Configs and the command line both build flag sets here, so both refuse a heuristic
    /// that is enabled and disabled at once, or also set.
    public func flagSet(
        preset: String = "all-on", enable: [String] = [], disable: [String] = [], set: [String: String] = [:]
    ) throws -> FlagSet {
        var result = try self.preset(preset)
        for name in enable { result.assign(name, try toggle(name, on: true)) }
        for name in disable {
            let value = try toggle(name, on: false)
            if enable.contains(name) { throw FlagError.enabledAndDisabled(name) }
            result.assign(name, value)
        }
        for (name, text) in set.sorted(by: { $0.key < $1.key }) {
            let value = try spec(named: name).parse(text)
            // `--set X=on --disable X` ran with X on: `set` came last and won without a word.
            if enable.contains(name) || disable.contains(name) {
                throw FlagError.setAndToggled(name, toggle: enable.contains(name) ? "enable" : "disable", value: text)
            }
            result.assign(name, value)
        }
        return result
    }

    /// Parses `NAME=VALUE` assignments as given on the command line; a name assigned twice
    /// is an error rather than the last value silently winning.
    public func flagSet(preset: String, enable: [String], disable: [String], assignments: [String]) throws -> FlagSet {
        var set: [String: String] = [:]
        for text in assignments {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else { throw FlagError.malformedAssignment(text) }
            if let earlier = set[parts[0]] {
                throw FlagError.assignedTwice(parts[0], first: earlier, second: parts[1])
            }
            set[parts[0]] = parts[1]
        }
        return try flagSet(preset: preset, enable: enable, disable: disable, set: set)
    }

    /// Parses a canonical (or partial) `name=value,...` string on top of `all-on`.
    public func parseCanonical(_ text: String) throws -> FlagSet {
        let assignments = text.split(separator: ",").map { String($0).trimmingSpaces }
        return try flagSet(preset: "all-on", enable: [], disable: [], assignments: assignments)
    }

    public func spec(named name: String) throws -> FlagSpec {
        if let spec = flags.first(where: { $0.name == name }) { return spec }
        throw FlagError.unknownFlag(name, suggestion: closestMatch(to: name, among: flags.map(\.name)))
    }

    private func toggle(_ name: String, on: Bool) throws -> FlagValue {
        let spec = try spec(named: name)
        guard spec.kind == .toggle else { throw FlagError.notToggle(name) }
        return .toggle(on)
    }

    /// The heuristics switched on by `flags`, in catalog order.
    public func instantiate(_ flags: FlagSet) -> [any Heuristic] {
        // Reserved once: `compactMap` grew the array append by append (once per query run).
        var made: [any Heuristic] = []
        made.reserveCapacity(heuristics.count)
        for type in heuristics { if let h = type.make(flags) { made.append(h) } }
        return made
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
