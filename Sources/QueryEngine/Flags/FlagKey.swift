/// The typed name of one flag. A heuristic declares each flag it reads once, as a key
/// (`static let copying = FlagKey<Bool>("subtree-copying")`), builds its `FlagSpec` from the
/// key's name and reads the flag set only through the key. A misspelt name is then either
/// a compile error (the key's identifier) or a flag no spec declares, which
/// `FlagSet.recordingReads` reports and `FlagKeyTests` refuses for every heuristic.
public struct FlagKey<Value: FlagKeyValue>: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    public var description: String { name }
}

/// The Swift type a flag's values read as: `Bool` (on/off), `Int` (integer), `String` (choice).
public protocol FlagKeyValue: Sendable {
    static func from(_ value: FlagValue) -> Self?
}

extension Bool: FlagKeyValue {
    public static func from(_ value: FlagValue) -> Bool? {
        if case let .toggle(on) = value { return on }
        return nil
    }
}

extension Int: FlagKeyValue {
    public static func from(_ value: FlagValue) -> Int? {
        if case let .integer(n) = value { return n }
        return nil
    }
}

extension String: FlagKeyValue {
    public static func from(_ value: FlagValue) -> String? {
        if case let .choice(c) = value { return c }
        return nil
    }
}

/// Which flags were read through keys, and which of those no spec of the flag set's catalog
/// declares (a read that would silently give "off"). For tests: not synchronised, so use one
/// log per thread.
public final class FlagReadLog: @unchecked Sendable {
    public private(set) var read: [String] = []
    public private(set) var undeclared: [String] = []
    /// Reads whose declared kind differs from the key's type (e.g. an integer read as on/off).
    public private(set) var mistyped: [String] = []

    public init() {}

    func record(_ name: String, declared: Bool, typed: Bool) {
        read.append(name)
        if !declared { undeclared.append(name) }
        if declared && !typed { mistyped.append(name) }
    }
}
