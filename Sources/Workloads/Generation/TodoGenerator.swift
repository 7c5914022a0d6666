import Relational

/// Seed 000's to-do app: `items(item_id, title, status)` (rows of them),
/// `tags(tag_id, name)`, `item_tags(item_id, tag_id)` and `selected_item_ids(item_id)`.
/// Parameters: `tags` (default max(5, rows / 10)), `max-tags-per-item` (default 3; each
/// item gets a uniform 0...max distinct tags), `selected` (default 1 item id).
/// Ranges: `tags` 1...min(10 × rows, 10 million); `max-tags-per-item` 0...min(tags, 1000);
/// `selected` 1...rows.
struct TodoGenerator: ShapeGenerator {
    static let parameterNames = ["max-tags-per-item", "selected", "tags"]
    static let tagLimit = 10_000_000
    static let tagsPerRowLimit = 10
    static let tagsPerItemLimit = 1000

    let request: GenerationRequest
    let tagCount: Int
    let perItem: Int
    let selectedCount: Int

    init(_ request: GenerationRequest) throws {
        self.request = request
        let (rows, parameters) = (request.rows, request.parameters)
        tagCount = try parameters.integer(
            "tags", default: max(5, rows / 10), minimum: 1, maximum: min(Self.tagsPerRowLimit * rows, Self.tagLimit))
        perItem = try parameters.integer("max-tags-per-item", default: 3, maximum: min(tagCount, Self.tagsPerItemLimit))
        selectedCount = try parameters.integer("selected", default: 1, minimum: 1, maximum: rows)
    }

    func generate() throws -> Dataset {
        var random = SplitMix64Generator(seed: seed)
        var items: [Row] = []
        var itemTags: [Row] = []
        items.reserveCapacity(rows)
        for id in 1...rows {
            let verb = Vocabulary.verbs[random.index(below: Vocabulary.verbs.count)]
            let object = Vocabulary.objects[random.index(below: Vocabulary.objects.count)]
            let status = Vocabulary.statuses[random.index(below: Vocabulary.statuses.count)]
            // Scheme order: item_id, status, title.
            items.append(Row([.integer(Int64(id)), .text(status), .text("\(verb) \(object)")]))
            let n = random.index(below: min(perItem, tagCount) + 1)
            for t in random.distinctIndices(n, below: tagCount).sorted() {
                itemTags.append(Row([.integer(Int64(id)), .integer(Int64(t + 1))]))
            }
        }
        let tags = (1...tagCount).map { t -> Row in
            let word = Vocabulary.tagWords[(t - 1) % Vocabulary.tagWords.count]
            let round = (t - 1) / Vocabulary.tagWords.count
            // Scheme order: name, tag_id.
            return Row([.text(round == 0 ? word : "\(word) \(round + 1)"), .integer(Int64(t))])
        }
        let selected = random.distinctIndices(selectedCount, below: rows).sorted().map { Row([.integer(Int64($0 + 1))]) }
        var statistics = DatasetStatistics()
        statistics.notes = ["\(tagCount) tags, \(itemTags.count) item_tags, \(selected.count) selected item(s)"]
        return Dataset(
            shape: .todo, rowsRequested: rows, seed: seed, parameters: parameters,
            tables: [
                try DatasetTable(name: "items", scheme: Scheme(["item_id", "title", "status"]), rows: items, indexedAttributes: ["item_id"]),
                try DatasetTable(name: "tags", scheme: Scheme(["tag_id", "name"]), rows: tags, indexedAttributes: ["tag_id"]),
                try DatasetTable(name: "item_tags", scheme: Scheme(["item_id", "tag_id"]), rows: itemTags, indexedAttributes: ["item_id", "tag_id"]),
                try DatasetTable(name: "selected_item_ids", scheme: Scheme(["item_id"]), rows: selected, indexedAttributes: ["item_id"]),
            ],
            statistics: statistics)
    }
}
