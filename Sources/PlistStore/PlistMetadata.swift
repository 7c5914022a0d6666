import FileSupport
import Relational

/// `relation.plist` and a file relation's header: the attributes and the primary key.
enum PlistMetadata {
    static func fields(scheme: Scheme, primaryKey: [Attribute]) -> [(String, PlistObject)] {
        [("attributes", .array(scheme.attributes.map { .string($0.name) })),
         ("primaryKey", .array(primaryKey.map { .string($0.name) }))]
    }

    static func encode(scheme: Scheme, primaryKey: [Attribute]) -> [UInt8] {
        BinaryPlistWriter.encode(.dictionary(fields(scheme: scheme, primaryKey: primaryKey)))
    }

    static func decode(_ bytes: [UInt8], path: String) throws -> (Scheme, [Attribute]) {
        do {
            return try read(try BinaryPlistReader.decode(bytes), otherKeys: [])
        } catch let error as PlistFormatError {
            throw PlistError(path, error.problem)
        }
    }

    /// The scheme and key of a dictionary holding `attributes` and `primaryKey`, and no key
    /// but those and the caller's `otherKeys` (which the caller reads), each once: a key
    /// this testbed does not write is a file from something else, or a typo, not data to skip.
    static func read(_ object: PlistObject, otherKeys: [String]) throws -> (Scheme, [Attribute]) {
        guard case let .dictionary(pairs) = object else { throw PlistFormatError("the top object is not a dictionary") }
        var seen = Set<String>()
        for (key, _) in pairs {
            guard seen.insert(key).inserted else { throw PlistFormatError("'\(Printable.escaped(key))' is given twice") }
            guard key == "attributes" || key == "primaryKey" || otherKeys.contains(key) else {
                let expected = (["attributes", "primaryKey"] + otherKeys).map { "'\($0)'" }.joined(separator: ", ")
                throw PlistFormatError("'\(Printable.escaped(key))' is not a key of this file; expected \(expected)")
            }
        }
        func names(_ key: String) throws -> [Attribute] {
            guard let item = pairs.first(where: { $0.0 == key })?.1 else { throw PlistFormatError("'\(key)' is missing") }
            guard case let .array(items) = item else { throw PlistFormatError("'\(key)' is not an array") }
            return try items.map {
                guard case let .string(s) = $0 else { throw PlistFormatError("'\(key)' holds something other than names") }
                return Attribute(s)
            }
        }
        let attributes = try names("attributes")
        let scheme: Scheme
        do { scheme = try Scheme(attributes) } catch { throw PlistFormatError("'attributes': \(error)") }
        guard scheme.attributes == attributes else { throw PlistFormatError("'attributes' are not sorted by name") }
        let key = try names("primaryKey")
        for a in key where !scheme.contains(a) { throw PlistFormatError("primary key '\(a)' is not an attribute") }
        return (scheme, key)
    }
}
