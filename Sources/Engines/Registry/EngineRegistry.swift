/// Every baseline engine the testbed knows, by registered name. Adding an engine is its own
/// file(s) plus ONE line here (see README, "Adding an engine").
public enum EngineRegistry {
    public static let kinds: [EngineKind] = [
        SQLiteEngine.plain,
        SQLiteEngine.analyzed,
        PostgresEngine.plain, PostgresEngine.analyzed,
        DuckDBEngine.kind,
    ]

    public static var names: [String] { kinds.map(\.name) }

    public static func kind(named name: String) -> EngineKind? { kinds.first { $0.name == name } }

    /// The kind named `name`, or an error listing the known names (with a suggestion).
    public static func require(_ name: String) throws -> EngineKind {
        if let kind = kind(named: name) { return kind }
        let hint = closest(to: name).map { "; did you mean '\($0)'?" } ?? ""
        throw EngineError.usage("unknown engine '\(name)'\(hint) (known: \(names.joined(separator: ", ")))")
    }

    /// `--engines a,b,c`: registered names, each once, in the order given.
    public static func parseList(_ text: String, option: String = "--engines") throws -> [EngineSpec] {
        var out: [EngineSpec] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = raw.trimmingSpaces
            guard !name.isEmpty else { throw EngineError.usage("\(option): empty engine name in '\(text)'") }
            let kind: EngineKind
            do { kind = try require(name) } catch let error as EngineError { throw EngineError.usage("\(option): \(error)") }
            if out.contains(where: { $0.label == name }) { throw EngineError.usage("\(option): '\(name)' is listed twice") }
            out.append(EngineSpec(label: name, kind: kind))
        }
        return out
    }

    /// The registered name closest to `name` by edit distance, if close enough to be a typo.
    public static func closest(to name: String) -> String? {
        var best: (String, Int)?
        for candidate in names {
            let d = editDistance(name, candidate)
            if d <= max(2, name.count / 3), d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
