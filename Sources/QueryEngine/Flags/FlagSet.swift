/// One value for every flag of a heuristic catalog. Written canonically as
/// `name=value` pairs sorted by name and joined with commas.
public struct FlagSet: Hashable, Sendable, CustomStringConvertible {
    public private(set) var values: [String: FlagValue]
    /// Names shown in the canonical text whatever their value.
    let alwaysListed: Set<String>
    let defaults: [String: FlagValue]
    /// Set only by `recordingReads(into:)`; not part of the flag set's identity.
    private var readLog: FlagReadLog?

    init(values: [String: FlagValue], specs: [FlagSpec]) {
        self.values = values
        self.alwaysListed = Set(specs.filter(\.alwaysListed).map(\.name))
        self.defaults = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0.allOn) })
    }

    public static func == (a: FlagSet, b: FlagSet) -> Bool {
        a.values == b.values && a.alwaysListed == b.alwaysListed && a.defaults == b.defaults
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    /// The value of a flag by name, for generic code (listing, grids, CSV). Heuristics read
    /// their flags through typed keys instead.
    public subscript(name: String) -> FlagValue? { values[name] }

    /// The value of a declared flag of the key's type; nil when the catalog declares no such
    /// flag (recorded when reads are being logged).
    public subscript<V>(key: FlagKey<V>) -> V? {
        let value = values[key.name]
        let typed = value.flatMap(V.from)
        readLog?.record(key.name, declared: value != nil, typed: typed != nil)
        return typed
    }

    /// True when the on/off flag is on.
    public func isOn(_ key: FlagKey<Bool>) -> Bool { self[key] ?? false }

    /// A copy whose key reads are logged into `log` (for the declared-keys test).
    public func recordingReads(into log: FlagReadLog) -> FlagSet {
        var copy = self
        copy.readLog = log
        return copy
    }

    /// The canonical text, e.g. `initiator-ordering=smallest-estimate,join-filter-threshold=100,...`:
    /// sorted by name; tunables outside the contract appear only when not at their default.
    public var canonical: String {
        values.keys.sorted()
            .filter { alwaysListed.contains($0) || values[$0] != defaults[$0] }
            .compactMap { name in values[name].map { "\(name)=\($0)" } }
            .joined(separator: ",")
    }

    public var description: String { canonical }

    mutating func assign(_ name: String, _ value: FlagValue) { values[name] = value }
}
