/// The value of one heuristic flag.
public enum FlagValue: Hashable, Sendable, CustomStringConvertible {
    case toggle(Bool)
    case integer(Int)
    case choice(String)

    public var description: String {
        switch self {
        case let .toggle(on): return on ? "on" : "off"
        case let .integer(n): return String(n)
        case let .choice(c): return c
        }
    }
}

/// What values a flag takes.
public enum FlagKind: Hashable, Sendable {
    case toggle
    case integer(minimum: Int)
    case choice([String])

    public var summary: String {
        switch self {
        case .toggle: return "on|off"
        case let .integer(minimum): return "integer >= \(minimum)"
        case let .choice(options): return options.joined(separator: "|")
        }
    }
}

/// A flag a heuristic declares: its name, kind, the value it has in the `all-on` preset
/// (the seed's default) and in `all-off` (no optimization), and what it means.
public struct FlagSpec: Hashable, Sendable {
    public let name: String
    public let kind: FlagKind
    public let allOn: FlagValue
    public let allOff: FlagValue
    public let meaning: String
    /// Listed in every canonical flag-set string. Other flags (tunables added later) are
    /// listed only when they differ from their `all-on` value, so adding a flag does not
    /// change the names of existing result cells.
    public let alwaysListed: Bool
    /// Added after seed 000's five heuristics: the `seed` preset gives it its `all-off` value.
    public let laterThanSeed: Bool

    public init(
        name: String, kind: FlagKind, allOn: FlagValue, allOff: FlagValue, meaning: String,
        alwaysListed: Bool = false, laterThanSeed: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.allOn = allOn
        self.allOff = allOff
        self.meaning = meaning
        self.alwaysListed = alwaysListed
        self.laterThanSeed = laterThanSeed
    }

    /// Parses a value written on the command line or in a config.
    public func parse(_ text: String) throws -> FlagValue {
        switch kind {
        case .toggle:
            switch text.lowercased() {
            case "on", "true", "yes", "1": return .toggle(true)
            case "off", "false", "no", "0": return .toggle(false)
            default: throw FlagError.badValue(flag: name, value: text, expected: kind.summary)
            }
        case let .integer(minimum):
            if text.lowercased() == "unlimited" { return .integer(Int.max) }
            guard let n = Int(text), n >= minimum else {
                throw FlagError.badValue(flag: name, value: text, expected: kind.summary + " or unlimited")
            }
            return .integer(n)
        case let .choice(options):
            guard options.contains(text) else {
                throw FlagError.badValue(flag: name, value: text, expected: kind.summary)
            }
            return .choice(text)
        }
    }
}

/// A mistake in a flag set, as given on the command line or in a config.
public enum FlagError: Error, Equatable, CustomStringConvertible {
    case unknownFlag(String, suggestion: String?)
    case unknownPreset(String)
    case badValue(flag: String, value: String, expected: String)
    case notToggle(String)
    case malformedAssignment(String)
    /// A heuristic both enabled and disabled.
    case enabledAndDisabled(String)
    /// `NAME=VALUE` given twice for one name.
    case assignedTwice(String, first: String, second: String)
    /// A heuristic both set (`NAME=VALUE`) and enabled or disabled.
    case setAndToggled(String, toggle: String, value: String)

    public var description: String {
        switch self {
        case let .unknownFlag(name, suggestion):
            return "unknown heuristic '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " (`testbed flags` lists them)"
        case let .unknownPreset(name):
            return "unknown preset '\(name)'; expected all-on, seed or all-off"
        case let .badValue(flag, value, expected):
            return "heuristic '\(flag)': '\(value)' is not valid; expected \(expected)"
        case let .notToggle(name):
            return "heuristic '\(name)' is not on/off; use --set \(name)=VALUE"
        case let .malformedAssignment(text):
            return "'\(text)' is not NAME=VALUE"
        case let .enabledAndDisabled(name):
            return "heuristic '\(name)' is both enabled and disabled; name it in only one of enable and disable"
        case let .setAndToggled(name, toggle, value):
            return "heuristic '\(name)' is both set ('\(value)') and named in \(toggle); name it in only one of them"
        case let .assignedTwice(name, first, second):
            return "heuristic '\(name)' is set twice ('\(first)', then "
                + "'\(second)'); set it once"
        }
    }
}
