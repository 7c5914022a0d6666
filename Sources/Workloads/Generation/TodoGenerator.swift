import Relational

/// Seed 000's to-do app: `items(item_id, title, status)` (rows of them),
/// `tags(tag_id, name)`, `item_tags(item_id, tag_id)` and `selected_item_ids(item_id)`.
/// Parameters: `tags` (default max(5, rows / 10)), `max-tags-per-item` (default 3; each
/// item gets a uniform 0...max distinct tags), `selected` (default 1 item id).
/// Ranges: `tags` 1...min(10 × rows, 10 million); `max-tags-per-item` 0...min(tags, 1000);
/// `selected` 1...rows. `reals` and `null-names` (`ValueVariants`): the ids in `item_tags`
/// stored as equal reals (so the joins meet `3` and `3.0`), and null tag names (which the
/// available-tags difference then holds on its right side).
struct TodoGenerator: ShapeGenerator {
    static let parameterNames = ["max-tags-per-item", "null-names", "reals", "selected", "tags"]
    static let tagLimit = 10_000_000
    static let tagsPerRowLimit = 10
    static let tagsPerItemLimit = 1000

    let request: GenerationRequest
    let tagCount: Int
    let perItem: Int
    let selectedCount: Int
    let variants: ValueVariants

    init(_ request: GenerationRequest) throws {
        self.request = request
        let (rows, parameters) = (request.rows, request.parameters)
        tagCount = try parameters.integer(
            "tags", default: max(5, rows / 10), minimum: 1, maximum: min(Self.tagsPerRowLimit * rows, Self.tagLimit))
        perItem = try parameters.integer("max-tags-per-item", default: 3, maximum: min(tagCount, Self.tagsPerItemLimit))
        selectedCount = try parameters.integer("selected", default: 1, minimum: 1, maximum: rows)
        variants = try ValueVariants(request)
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
        var tags = (1...tagCount).map { t -> Row in
            let word = Vocabulary.tagWords[(t - 1) % Vocabulary.tagWords.count]
            let round = (t - 1) / Vocabulary.tagWords.count
            // Scheme order: name, tag_id.
            return Row([.text(round == 0 ? word : "\(word) \(round + 1)"), .integer(Int64(t))])
        }
        let selected = random.distinctIndices(selectedCount, below: rows).sorted().map { Row([.integer(Int64($0 + 1))]) }
        if variants.isActive {
            var v = variants
            itemTags = itemTags.map { Row([v.key($0[0]), v.key($0[1])]) }
            tags = tags.map { Row([v.name($0[0]), $0[1]]) }
        }
        var statistics = DatasetStatistics()
        statistics.notes = ["\(tagCount) tags, \(itemTags.count) item_tags, \(selected.count) selected item(s)"]
            + variants.notes
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

extension TodoGenerator {
    /// One item's draws, as `generate` makes them: verb, object, status (one byte), then the
    /// sorted tag indices.
    private func drawItem(_ random: inout SplitMix64Generator) -> (code: UInt8, tags: [Int]) {
        let verb = random.index(below: Vocabulary.verbs.count)
        let object = random.index(below: Vocabulary.objects.count)
        let status = random.index(below: Vocabulary.statuses.count)
        let n = random.index(below: min(perItem, tagCount) + 1)
        let tags = random.distinctIndices(n, below: tagCount).sorted()
        return (UInt8((verb * Vocabulary.objects.count + object) * Vocabulary.statuses.count + status), tags)
    }

    private static func itemRow(id: Int, code: UInt8) -> Row {
        let status = Int(code) % Vocabulary.statuses.count
        let rest = Int(code) / Vocabulary.statuses.count
        let (verb, object) = (rest / Vocabulary.objects.count, rest % Vocabulary.objects.count)
        return Row([.integer(Int64(id)), .text(Vocabulary.statuses[status]), .text("\(Vocabulary.verbs[verb]) \(Vocabulary.objects[object])")])
    }

    private static func tagRow(_ t: Int) -> Row {
        let word = Vocabulary.tagWords[(t - 1) % Vocabulary.tagWords.count]
        let round = (t - 1) / Vocabulary.tagWords.count
        return Row([.text(round == 0 ? word : "\(word) \(round + 1)"), .integer(Int64(t))])
    }

    /// Streams item_tags, items, selected_item_ids and tags (name order) as `generate`
    /// stores them, holding one byte an item. Two generation passes: the first counts
    /// item_tags (the hash and the SQLite key need the count and whether item ids repeat)
    /// and keeps the items' bytes; the second writes item_tags. Tags are hashed in name
    /// order by walking their numbers in string order, with no sort.
    func stream(into writer: StreamingTableWriter) throws -> (statistics: DatasetStatistics, contentHashHex: String?) {
        var random = SplitMix64Generator(seed: seed)
        var codes = [UInt8]()
        codes.reserveCapacity(rows)
        var itemTagCount = 0
        for _ in 0..<rows {
            let (code, tags) = drawItem(&random)
            codes.append(code)
            itemTagCount += tags.count
        }
        let selected = random.distinctIndices(selectedCount, below: rows).sorted()

        var hasher = ContentHasher()
        let itemTagsScheme = try Scheme(["item_id", "tag_id"])
        try writer.begin(TableHeader(
            name: "item_tags", scheme: itemTagsScheme, rowCount: itemTagCount,
            indexedAttributes: ["item_id", "tag_id"], primaryKey: []))  // pairs: the whole row is the key
        hasher.addHeader(table: "item_tags", scheme: itemTagsScheme, rowCount: itemTagCount)
        random = SplitMix64Generator(seed: seed)
        for id in 1...rows {
            for t in drawItem(&random).tags {
                let row = Row([.integer(Int64(id)), .integer(Int64(t + 1))])
                hasher.add(row: row)
                try writer.append(row)
            }
        }
        try writer.end()

        let itemsScheme = try Scheme(["item_id", "title", "status"])
        try writer.begin(TableHeader(name: "items", scheme: itemsScheme, rowCount: rows, indexedAttributes: ["item_id"], primaryKey: ["item_id"]))
        hasher.addHeader(table: "items", scheme: itemsScheme, rowCount: rows)
        for (i, code) in codes.enumerated() {
            let row = Self.itemRow(id: i + 1, code: code)
            hasher.add(row: row)
            try writer.append(row)
        }
        try writer.end()

        let selectedScheme = try Scheme(["item_id"])
        try writer.begin(TableHeader(
            name: "selected_item_ids", scheme: selectedScheme, rowCount: selected.count, indexedAttributes: ["item_id"], primaryKey: ["item_id"]))
        hasher.addHeader(table: "selected_item_ids", scheme: selectedScheme, rowCount: selected.count)
        for i in selected {
            let row = Row([.integer(Int64(i + 1))])
            hasher.add(row: row)
            try writer.append(row)
        }
        try writer.end()

        let tagsScheme = try Scheme(["tag_id", "name"])
        try writer.begin(TableHeader(name: "tags", scheme: tagsScheme, rowCount: tagCount, indexedAttributes: ["tag_id"], primaryKey: ["tag_id"]))
        for t in 1...tagCount { try writer.append(Self.tagRow(t)) }
        try writer.end()
        hasher.addHeader(table: "tags", scheme: tagsScheme, rowCount: tagCount)
        forEachTagIDInNameOrder { hasher.add(row: Self.tagRow($0)) }

        var statistics = DatasetStatistics()
        statistics.notes = ["\(tagCount) tags, \(itemTagCount) item_tags, \(selected.count) selected item(s)"]
        return (statistics, hasher.hex)
    }

    /// Tag ids sorted by name: words in string order; within a word, the bare word, then
    /// "word 2" ... "word R" with the numbers in string order ("word 10" before "word 2").
    func forEachTagIDInNameOrder(_ body: (Int) -> Void) {
        let words = Vocabulary.tagWords.indices.sorted { Vocabulary.tagWords[$0] < Vocabulary.tagWords[$1] }
        for w in words where w < tagCount {
            let rounds = (tagCount - 1 - w) / Vocabulary.tagWords.count + 1
            // Numbers 1...rounds in lexicographic order; number n is round n - 1.
            var n = 1
            for _ in 0..<rounds {
                body((n - 1) * Vocabulary.tagWords.count + w + 1)
                if n * 10 <= rounds {
                    n *= 10
                } else {
                    if n >= rounds { n /= 10 }
                    n += 1
                    while n % 10 == 0 { n /= 10 }
                }
            }
        }
    }
}
