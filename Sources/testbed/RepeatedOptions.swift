import ArgumentParser
import Foundation

/// ArgumentParser keeps the last of a single-valued option given twice (`--rows 20 --rows 30`
/// runs 30 rows); the testbed refuses it instead, as a typo there would silently change an
/// experiment. Which options repeat is read from the command's own help description, so a
/// new option is covered without being listed here.
enum RepeatedOptions {
    /// One declared option or flag: its spellings, whether it takes a value, whether it repeats.
    struct Declared {
        var names: [String]
        var takesValue: Bool
        var repeating: Bool
    }

    /// Exits 2 naming the option when `arguments` (after the program name) give a
    /// single-valued option or flag of `command` more than once.
    static func check(_ command: any ParsableCommand.Type, arguments: [String]) throws {
        if let message = firstRepeat(in: arguments, declared: declared(command)) { throw usageFailure(message) }
    }

    /// The options and flags of `command`, from ArgumentParser's JSON help description.
    static func declared(_ command: any ParsableCommand.Type) -> [Declared] {
        guard let data = command._dumpHelp().data(using: .utf8),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let info = root["command"] as? [String: Any],
            let arguments = info["arguments"] as? [[String: Any]]
        else { return [] }
        return arguments.compactMap { argument in
            guard let kind = argument["kind"] as? String, kind == "option" || kind == "flag",
                let names = argument["names"] as? [[String: Any]]
            else { return nil }
            let spellings = names.compactMap { name -> String? in
                guard let text = name["name"] as? String, let nameKind = name["kind"] as? String else { return nil }
                return (nameKind == "short" ? "-" : "--") + text
            }
            return Declared(names: spellings, takesValue: kind == "option", repeating: argument["isRepeating"] as? Bool ?? false)
        }
    }

    /// A message for the first single-valued option given twice, or nil.
    static func firstRepeat(in arguments: [String], declared: [Declared]) -> String? {
        var seen: [Int: String] = [:]
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if token == "--" { break }
            guard token.hasPrefix("-"), token.count > 1, Double(token) == nil else { continue }
            let spelling = String(token.prefix { $0 != "=" })
            guard let position = declared.firstIndex(where: { $0.names.contains(spelling) }) else { continue }
            let option = declared[position]
            var given = spelling
            if option.takesValue {
                if token.contains("=") {
                    given = token
                } else if index < arguments.count {
                    given = spelling + " " + arguments[index]
                    index += 1
                }
            }
            guard !option.repeating else { continue }
            if let first = seen[position] {
                let name = option.names.last ?? spelling
                return "\(name) is given twice ('\(first)', then '\(given)'); give it once"
            }
            seen[position] = given
        }
        return nil
    }
}
