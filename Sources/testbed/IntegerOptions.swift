import ArgumentParser
import FileSupport

/// ArgumentParser reads an integer option with `Int(_:)`, which takes `--rows +5` and
/// `--rows 010` as 5 and 10, while every other integer the testbed reads (a config's, a
/// shape parameter's, `--shard`'s) must be written in decimal digits. Which options take
/// integers is read from the parsed command's own properties, so a new one is covered
/// without being listed here.
enum IntegerOptions {
    /// Exits 2 naming the option when `arguments` (after the program name) give an integer
    /// option of `command` a number written otherwise than in decimal digits.
    static func check(_ command: any ParsableCommand, arguments: [String]) throws {
        let names = integerOptionNames(of: command)
        guard !names.isEmpty else { return }
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if token == "--" { break }
            let spelling = String(token.prefix { $0 != "=" })
            guard names.contains(spelling) else { continue }
            let value: String
            if let equals = token.firstIndex(of: "=") {
                value = String(token[token.index(after: equals)...])
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                continue
            }
            // Anything else that is not decimal digits the parser refused already.
            guard !DecimalText.isDecimalInteger(value), let number = Int64(value).map(String.init) ?? UInt64(value).map(String.init)
            else { continue }
            throw usageFailure("\(spelling): '\(value)' is not written in decimal digits; write \(number) "
                + "(no plus sign or leading zero)")
        }
    }

    private static let integerTypes: Set<String> = [
        "Option<Int>", "Option<Optional<Int>>", "Option<UInt64>", "Option<Optional<UInt64>>",
    ]

    /// `--name` of every integer option of `value` and of its option groups, by the
    /// parser's default naming (`maxReductions` is `--max-reductions`).
    static func integerOptionNames(of value: Any) -> Set<String> {
        var names: Set<String> = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, label.hasPrefix("_") else { continue }
            if integerTypes.contains(String(describing: type(of: child.value))) {
                names.insert("--" + kebabCase(String(label.dropFirst())))
            } else if let group = child.value as? any GroupedOptions {
                names.formUnion(integerOptionNames(of: group.groupedOptions))
            }
        }
        return names
    }

    private static func kebabCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "-" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// An `@OptionGroup`'s options, for `IntegerOptions` to look into.
protocol GroupedOptions {
    var groupedOptions: Any { get }
}

extension OptionGroup: GroupedOptions {
    var groupedOptions: Any { wrappedValue }
}
