import Relational

/// Relation values as property-list objects, one to one: null is the null marker, integers
/// and reals their own markers (so `3` and `3.0` round-trip apart), text a string (empty
/// and number-like text stay text), blobs data.
enum PlistValueCoding {
    static func object(_ value: Value) -> PlistObject {
        switch value {
        case .null: return .null
        case let .integer(v): return .integer(v)
        case let .real(v): return .real(v)
        case let .text(s): return .string(s)
        case let .blob(b): return .data(b)
        }
    }

    /// The value an object holds, or nil when it is a container.
    static func value(_ object: PlistObject) -> Value? {
        switch object {
        case .null: return .null
        case let .integer(v): return .integer(v)
        case let .real(v): return .real(v)
        case let .string(s): return .text(s)
        case let .data(b): return .blob(b)
        case .array, .dictionary: return nil
        }
    }

    /// A row file's object: a dictionary from attribute name to value, in scheme order.
    static func rowObject(_ row: Row, scheme: Scheme) -> PlistObject {
        .dictionary(zip(scheme.attributes, row.values).map { ($0.name, object($1)) })
    }

    /// The row a row file's object holds: every attribute of `scheme` exactly once and
    /// nothing else. Errors are the problem alone (the caller names the file).
    static func row(_ object: PlistObject, scheme: Scheme) throws -> Row {
        guard case let .dictionary(pairs) = object else {
            throw PlistFormatError("the row is not a dictionary")
        }
        var values = [Value?](repeating: nil, count: scheme.count)
        for (key, item) in pairs {
            guard let i = scheme.index(of: Attribute(key)) else {
                throw PlistFormatError("the row has attribute '\(key)', which the scheme \(scheme) does not")
            }
            guard values[i] == nil else { throw PlistFormatError("the row names attribute '\(key)' twice") }
            guard let v = value(item) else { throw PlistFormatError("attribute '\(key)' holds a container, not a value") }
            values[i] = v
        }
        if let missing = values.firstIndex(where: { $0 == nil }) {
            throw PlistFormatError("the row lacks attribute '\(scheme.attributes[missing].name)'")
        }
        return Row(values.map { $0 ?? .null })
    }
}
