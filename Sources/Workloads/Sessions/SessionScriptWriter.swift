import Relational

/// Builds change-script text: a header comment, then each transaction as one statement
/// alone or as `begin` … `commit`. Transactions a session could not make as asked are
/// counted (`StandIns`) and said in the header, below its first line.
struct SessionScriptWriter {
    private let header: String
    private var body = ""
    private(set) var standIns = StandIns()

    init(header: String) { self.header = header }

    /// One transaction: `wanted` is the kind the session drew, `made` the kind its
    /// statements are (another when the tables lack what `wanted` needs).
    mutating func add(_ statements: [String], wanted: String, made: String) {
        standIns.count(wanted: wanted, made: made)
        if statements.count == 1 {
            body += statements[0] + "\n"
        } else {
            body += "begin\n" + statements.map { "  " + $0 + "\n" }.joined() + "commit\n"
        }
    }

    var text: String {
        "# \(header)\n" + standIns.lines.map { "# \($0)\n" }.joined() + body
    }
}

/// How many transactions of each drawn kind were made as another kind, in the order first
/// met: at small sizes a session runs out of what a kind needs (subtrees to delete, pets
/// to remove, equipment to unassign) and makes another statement instead.
public struct StandIns: Sendable {
    private var drawn: [String: Int] = [:]
    private var replaced: [(wanted: String, made: String, count: Int)] = []

    mutating func count(wanted: String, made: String) {
        drawn[wanted, default: 0] += 1
        guard wanted != made else { return }
        if let i = replaced.firstIndex(where: { $0.wanted == wanted && $0.made == made }) {
            replaced[i].count += 1
        } else {
            replaced.append((wanted, made, 1))
        }
    }

    /// One sentence per (drawn, made) pair: `12 of 20 delete-subtree transactions are edit
    /// instead (the tables as changed so far lack what delete-subtree needs)`.
    public var lines: [String] {
        replaced.map { r in
            "\(r.count) of \(drawn[r.wanted] ?? r.count) \(r.wanted) transactions are \(r.made) instead "
                + "(the tables as changed so far lack what \(r.wanted) needs)"
        }
    }
}

/// Helpers every session model shares.
enum SessionText {
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
