import Relational

/// Sessions on seed 000's to-do app (`items`, `tags`, `item_tags`, `selected_item_ids`):
/// `tag` (an item gains a tag it lacks), `untag` (an item loses one), `status` (an item's
/// status flips between pending and done), `select` (the selected item changes), and
/// `mixed` by the weights `tag`, `untag`, `status`, `select`.
struct TodoSession {
    static let sessions = ["tag", "untag", "status", "select", "mixed"]
    static let mixWeights = [("tag", 2), ("untag", 2), ("status", 3), ("select", 3)]

    static func parameterNames(_ session: String) -> [String] { session == "mixed" ? mixWeights.map(\.0) : [] }

    struct Settings {
        let mix: SessionWeights
        init(_ p: ShapeParameters) throws { mix = try SessionWeights(TodoSession.mixWeights, from: p) }
    }

    struct Pair: Hashable { let item: Int64, tag: Int64 }

    let settings: Settings
    var items = PickList<Int64>()
    var status: [Int64: String] = [:]
    var tags: [Int64] = []
    var pairs = PickList<Pair>()
    var selected: [Int64]
    /// The last transaction's drawn kind and the kind its statement is.
    private(set) var wanted = ""
    private(set) var made = ""

    init(dataset: Dataset, settings: Settings) throws {
        self.settings = settings
        guard let itemTable = dataset.table(named: "items"), let tagTable = dataset.table(named: "tags"),
              let itemTags = dataset.table(named: "item_tags"), let selection = dataset.table(named: "selected_item_ids")
        else { throw WorkloadError.badParameter(name: "session", value: "todo", expected: "a todo dataset") }
        for (v, s) in zip(try itemTable.column("item_id"), try itemTable.column("status")) {
            guard let id = sessionID(v), case let .text(text) = s else { continue }
            items.insert(id)
            status[id] = text
        }
        tags = try tagTable.column("tag_id").compactMap(sessionID)
        for (i, t) in zip(try itemTags.column("item_id"), try itemTags.column("tag_id")) {
            guard let i = sessionID(i), let t = sessionID(t) else { continue }
            pairs.insert(Pair(item: i, tag: t))
        }
        selected = try selection.column("item_id").compactMap(sessionID)
    }

    mutating func next(_ session: String, number t: Int, random: inout SplitMix64Generator) -> [String] {
        let kind = session == "mixed" ? settings.mix.pick(&random) : session
        wanted = kind
        made = "nothing"
        switch kind {
        case "tag": return tag(&random)
        case "untag": return untag(&random)
        case "select": return select(&random)
        default: return flipStatus(&random)
        }
    }

    private mutating func tag(_ random: inout SplitMix64Generator) -> [String] {
        guard !tags.isEmpty else { return flipStatus(&random) }
        for _ in 0..<16 {
            guard let item = items.random(&random) else { break }
            let pair = Pair(item: item, tag: tags[random.index(below: tags.count)])
            if pairs.contains(pair) { continue }
            pairs.insert(pair)
            made = "tag"
            return ["add item_tags [item_id, tag_id] { (\(pair.item), \(pair.tag)) }"]
        }
        return flipStatus(&random)
    }

    private mutating func untag(_ random: inout SplitMix64Generator) -> [String] {
        guard let pair = pairs.random(&random) else { return tag(&random) }
        pairs.remove(pair)
        made = "untag"
        return ["delete item_tags where (item_id == \(pair.item) and tag_id == \(pair.tag))"]
    }

    private mutating func flipStatus(_ random: inout SplitMix64Generator) -> [String] {
        guard let item = items.random(&random) else { return [] }
        let now = status[item] == "done" ? "pending" : "done"
        status[item] = now
        made = "status"
        return ["update items set [status = \(SessionText.literal(now))] where (item_id == \(item))"]
    }

    private mutating func select(_ random: inout SplitMix64Generator) -> [String] {
        let taken = Set(selected)
        var target: Int64?
        for _ in 0..<16 {
            if let i = items.random(&random), !taken.contains(i) { target = i; break }
        }
        guard let target else { return flipStatus(&random) }
        guard let current = selected.first else {
            selected = [target]
            made = "select"
            return ["add selected_item_ids [item_id] { (\(target)) }"]
        }
        selected[0] = target
        made = "select"
        return ["update selected_item_ids set [item_id = \(target)] where (item_id == \(current))"]
    }
}
