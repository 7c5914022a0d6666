/// One value for every flag of a heuristic catalog. Written canonically as
/// `name=value` pairs sorted by name and joined with commas.
public struct FlagSet: Hashable, Sendable, CustomStringConvertible {
    public private(set) var values: [String: FlagValue]
    /// Names shown in the canonical text whatever their value.
    let alwaysListed: Set<String>
    let defaults: [String: FlagValue]

    init(values: [String: FlagValue], specs: [FlagSpec]) {
        self.values = values
        self.alwaysListed = Set(specs.filter(\.alwaysListed).map(\.name))
        self.defaults = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0.allOn) })
    }

    public subscript(name: String) -> FlagValue? { values[name] }

    public func isOn(_ name: String) -> Bool { values[name] == .toggle(true) }

    public func integer(_ name: String) -> Int? {
        if case let .integer(n)? = values[name] { return n }
        return nil
    }

    public func choice(_ name: String) -> String? {
        if case let .choice(c)? = values[name] { return c }
        return nil
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
