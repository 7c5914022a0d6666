import Yams

/// Places for the YAML reader's errors that Yams reports without a line: a repeated key
/// (Yams names only the key and the first occurrence's mark) and a character the reader
/// refuses (Yams gives a byte offset).
enum YAMLErrorLocation {
    /// Where a repeated key stands: its key path and the line and column of its second
    /// occurrence, found by renaming the reported occurrence to a same-width placeholder
    /// (so no column moves) and composing again until no key repeats. nil if the text is
    /// not as Yams described it.
    static func duplicate(key: String, first: Mark, in text: String)
        -> (path: [String], first: Mark, second: Mark)? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        var original: [String: String] = [:]
        var placeholder: String?
        var mark = first
        var name = key
        for round in 0..<64 {
            guard let renamed = rename(name, at: mark, round: round, in: &lines) else { return nil }
            original[renamed] = name
            if placeholder == nil { placeholder = renamed }
            let modified = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
            do {
                guard let root = try Yams.compose(yaml: modified), let placeholder else { return nil }
                return find(placeholder, key: key, original: original, in: root, path: [])
            } catch let YamlError.duplicatedKeysInMapping(duplicates, context) {
                guard let next = duplicates.first else { return nil }
                name = original[next] ?? next
                mark = context.mark
            } catch {
                return nil
            }
        }
        return nil
    }

    /// Replaces the key `name` written at `mark` (plain or quoted) with `round`'s
    /// placeholder of as many characters; returns the placeholder.
    private static func rename(_ name: String, at mark: Mark, round: Int, in lines: inout [[Unicode.Scalar]]) -> String? {
        let scalars = Array(name.unicodeScalars)
        guard !scalars.isEmpty, mark.line >= 1, mark.line <= lines.count, mark.column >= 1,
              let filler = Unicode.Scalar(0xE000 + round) else { return nil }
        var line = lines[mark.line - 1]
        var start = mark.column - 1
        if start < line.count, line[start] == "\"" || line[start] == "'" { start += 1 }
        guard start + scalars.count <= line.count, Array(line[start..<start + scalars.count]) == scalars else { return nil }
        line.replaceSubrange(start..<start + scalars.count, with: repeatElement(filler, count: scalars.count))
        lines[mark.line - 1] = line
        return String(String.UnicodeScalarView(repeatElement(filler, count: scalars.count)))
    }

    /// The mapping holding `placeholder`: its path, and the next key there that was `key`.
    private static func find(_ placeholder: String, key: String, original: [String: String], in node: Node, path: [String])
        -> (path: [String], first: Mark, second: Mark)? {
        switch node {
        case let .mapping(mapping):
            let keys = Array(mapping.keys)
            if let i = keys.firstIndex(where: { $0.string == placeholder }), let firstMark = keys[i].mark {
                for later in keys[(i + 1)...] {
                    guard let text = later.string, (original[text] ?? text) == key, let mark = later.mark else { continue }
                    return (path + [key], firstMark, mark)
                }
                return nil
            }
            for (k, value) in mapping {
                if let found = find(placeholder, key: key, original: original, in: value, path: path + [k.string.map { original[$0] ?? $0 } ?? "?"]) {
                    return found
                }
            }
            return nil
        case let .sequence(sequence):
            for (i, item) in sequence.enumerated() {
                if let found = find(placeholder, key: key, original: original, in: item, path: path + ["[\(i)]"]) {
                    return found
                }
            }
            return nil
        case .scalar, .alias:
            return nil
        }
    }

    /// Line and column (1-based; the column in Unicode scalars, as the YAML reader's marks
    /// count) of the reader error's offset, which Yams gives in Characters of `text`.
    static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int)? {
        guard offset >= 0, let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) else { return nil }
        let lines = text[..<index].unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.count, (lines.last?.count ?? 0) + 1)
    }
}
