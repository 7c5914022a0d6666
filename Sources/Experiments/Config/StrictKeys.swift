import Relational

/// A coding key for any string, to list the keys a mapping really has.
struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; intValue = nil }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}

/// Rejects keys a config section does not know, with a did-you-mean suggestion, so a
/// misspelt key is an error instead of a silently ignored setting; and keys given as null.
enum StrictKeys {
    static func check(_ decoder: any Decoder, allowed: [String], section: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            let suggestion = closestMatch(to: key.stringValue, among: allowed).map { "; did you mean '\($0)'?" } ?? ""
            throw ConfigIssue(
                codingPath: decoder.codingPath + [key],
                "unknown key '\(key.stringValue)' in \(section)\(suggestion) (expected one of: \(allowed.joined(separator: ", ")))")
        }
        // `repetitions: null` would otherwise read as "absent" and quietly take the default.
        for key in container.allKeys where (try? container.decodeNil(forKey: key)) == true {
            throw ConfigIssue(codingPath: decoder.codingPath + [key],
                              "has no value (null); give a value, or remove the key to use its default")
        }
    }
}

/// A value written either as one item or as a list (`backend: memory` or `backend: [memory, sqlite]`).
struct OneOrMany<Element: Decodable>: Decodable {
    let items: [Element]

    init(from decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            items = try [Element](from: decoder)
        } else {
            items = [try decoder.singleValueContainer().decode(Element.self)]
        }
    }
}

/// A mapping whose key order is kept (flag sets are reported in the order written).
struct OrderedMapping<Value: Decodable>: Decodable {
    let entries: [(name: String, value: Value)]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        // An empty key was reported as "missing required key ''".
        if container.allKeys.contains(where: { $0.stringValue.allSatisfy { $0 == " " || $0 == "\t" } }) {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath,
                                                    debugDescription: "an entry has an empty name; give each entry a name"))
        }
        entries = try container.allKeys.map { key in (key.stringValue, try container.decode(Value.self, forKey: key)) }
    }
}
