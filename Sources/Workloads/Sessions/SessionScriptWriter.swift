import Relational

/// Builds change-script text: a header comment, then each transaction as one statement
/// alone or as `begin` … `commit`.
struct SessionScriptWriter {
    private(set) var text: String
    private var count = 0

    init(header: String) { text = "# \(header)\n" }

    mutating func add(_ statements: [String]) {
        count += 1
        if statements.count == 1 {
            text += statements[0] + "\n"
        } else {
            text += "begin\n" + statements.map { "  " + $0 + "\n" }.joined() + "commit\n"
        }
    }
}

/// Helpers every session model shares.
enum SessionText {
    static func literal(_ v: Value) -> String { v.description }
    static func literal(_ n: Int64) -> String { String(n) }
    static func literal(_ s: String) -> String { Value.text(s).description }

    /// A row as `(v, …)` in the given order.
    static func tuple(_ values: [Value]) -> String { "(" + values.map(\.description).joined(separator: ", ") + ")" }
}

/// An integral id: an integer, or a real equal to one (the `reals` variant stores `3.0`
/// for `3`). Anything else is not addressed by the generators.
func sessionID(_ v: Value) -> Int64? {
    switch v {
    case let .integer(n): return n
    case let .real(r):
        guard r.rounded() == r, abs(r) < 9.0e15 else { return nil }
        return Int64(r)
    case .null, .text, .blob: return nil
    }
}

/// Named weights read from session parameters; a draw picks a name with probability
/// proportional to its weight.
struct SessionWeights {
    let entries: [(name: String, weight: Int)]

    init(_ defaults: [(String, Int)], from parameters: ShapeParameters) throws {
        entries = try defaults.map { name, weight in
            (name, try parameters.integer(name, default: weight, minimum: 0, maximum: 1_000_000))
        }
        guard entries.contains(where: { $0.weight > 0 }) else {
            throw WorkloadError.badParameter(
                name: entries.map(\.name).joined(separator: "/"), value: "0",
                expected: "at least one weight above 0")
        }
    }

    func pick(_ random: inout SplitMix64Generator) -> String {
        let total = entries.reduce(0) { $0 + $1.weight }
        var draw = Int(random.next(below: UInt64(total)))
        for e in entries {
            if draw < e.weight { return e.name }
            draw -= e.weight
        }
        return entries[entries.count - 1].name
    }
}

/// A list of distinct values with O(1) random pick, insertion and removal (swap-remove),
/// deterministic for a given sequence of operations.
struct PickList<Element: Hashable> {
    private(set) var items: [Element] = []
    private var position: [Element: Int] = [:]

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    func contains(_ e: Element) -> Bool { position[e] != nil }

    mutating func insert(_ e: Element) {
        guard position[e] == nil else { return }
        position[e] = items.count
        items.append(e)
    }

    mutating func remove(_ e: Element) {
        guard let i = position.removeValue(forKey: e) else { return }
        let last = items.removeLast()
        if i < items.count {
            items[i] = last
            position[last] = i
        }
    }

    func random(_ random: inout SplitMix64Generator) -> Element? {
        items.isEmpty ? nil : items[random.index(below: items.count)]
    }
}
