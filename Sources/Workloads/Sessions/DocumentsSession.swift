import Relational

/// Sessions on `documents(id, name, parent_id)` and `selected_documents(id)`:
/// - `ui-browse`: the (first) selected document moves to another document, a sibling, a
///   child or the parent (weights `other`, `sibling`, `child`, `parent`); a move that is
///   not possible from where the selection stands picks another document instead.
/// - `edit`: rename a document.
/// - `reparent`: move a document, with its subtree, under another document that is not in
///   that subtree (so never a cycle).
/// - `delete-subtree`: delete a document and all its descendants (at most `max-subtree`
///   documents), never one holding a selected document.
/// - `import`: add `import-size` new children under a document.
/// - `mixed`: each transaction one of the above, by the weights `ui-browse`, `edit`,
///   `reparent`, `delete-subtree`, `import`.
struct DocumentsSession {
    static let sessions = ["ui-browse", "edit", "reparent", "delete-subtree", "import", "mixed"]
    static let browseWeights = [("other", 1), ("sibling", 3), ("child", 3), ("parent", 3)]
    static let mixWeights = [("ui-browse", 6), ("edit", 3), ("reparent", 1), ("delete-subtree", 1), ("import", 1)]

    static func parameterNames(_ session: String) -> [String] {
        let browse = browseWeights.map(\.0)
        switch session {
        case "ui-browse": return browse
        case "delete-subtree": return ["max-subtree"]
        case "import": return ["import-size"]
        case "mixed": return mixWeights.map(\.0) + browse + ["max-subtree", "import-size"]
        default: return []
        }
    }

    struct Settings {
        let browse: SessionWeights
        let mix: SessionWeights
        let maxSubtree: Int
        let importSize: Int

        init(_ p: ShapeParameters) throws {
            browse = try SessionWeights(DocumentsSession.browseWeights, from: p)
            mix = try SessionWeights(DocumentsSession.mixWeights, from: p)
            maxSubtree = try p.integer("max-subtree", default: 50, minimum: 1, maximum: 10_000)
            importSize = try p.integer("import-size", default: 10, minimum: 1, maximum: 10_000)
        }

        /// Whether `session` may import: `import`, or `mixed` with a weight on it.
        func mayImport(_ session: String) -> Bool {
            session == "import" || session == "mixed" && mix.entries.contains { $0.name == "import" && $0.weight > 0 }
        }
    }

    let settings: Settings
    var forest: DocumentForest
    /// `selected_documents`, integral ids in table order.
    var selected: [Int64]
    /// The last transaction's drawn kind and the kind its statements are.
    private(set) var wanted = ""
    private(set) var made = ""

    init(dataset: Dataset, settings: Settings) throws {
        self.settings = settings
        guard let documents = dataset.table(named: "documents"), let selection = dataset.table(named: "selected_documents")
        else { throw WorkloadError.badParameter(name: "session", value: "documents", expected: "a documents dataset") }
        forest = try DocumentForest(documents)
        selected = try selection.column("id").compactMap(sessionID)
    }

    /// One transaction's statements.
    mutating func next(_ session: String, number t: Int, random: inout SplitMix64Generator) -> [String] {
        let kind = session == "mixed" ? settings.mix.pick(&random) : session
        wanted = kind
        made = "nothing"
        switch kind {
        case "ui-browse": return browse(t, &random)
        case "reparent": return reparent(t, &random)
        case "delete-subtree": return deleteSubtree(t, &random)
        case "import": return importChildren(t, &random)
        default: return edit(t, &random)
        }
    }

    private mutating func browse(_ t: Int, _ random: inout SplitMix64Generator) -> [String] {
        let taken = Set(selected)
        func free(_ candidates: [Int64]) -> Int64? {
            let open = candidates.filter { !taken.contains($0) }
            return open.isEmpty ? nil : open[random.index(below: open.count)]
        }
        guard let current = selected.first, forest.ids.contains(current) else {
            // No selection to move (or it names no document): select one.
            let target = otherDocument(avoiding: taken, &random)
            selected.insert(target, at: 0)
            made = "ui-browse"
            return ["add selected_documents [id] { (\(target)) }"]
        }
        var target: Int64?
        switch settings.browse.pick(&random) {
        case "parent": target = forest.parent[current].flatMap { taken.contains($0) ? nil : $0 }
        case "child": target = free(forest.children[current] ?? [])
        case "sibling": target = free(forest.siblings(current))
        default: target = nil
        }
        let chosen = target ?? otherDocument(avoiding: taken, &random)
        // Every document is selected (one document, say): nothing to move to, so a rename,
        // named by the transaction as `edit`'s are, so that it changes the row.
        if chosen == current { return edit(t, &random) }
        selected[0] = chosen
        made = "ui-browse"
        return ["update selected_documents set [id = \(chosen)] where (id == \(current))"]
    }

    private func otherDocument(avoiding taken: Set<Int64>, _ random: inout SplitMix64Generator) -> Int64 {
        for _ in 0..<16 {
            if let d = forest.ids.random(&random), !taken.contains(d) { return d }
        }
        return forest.ids.items.first { !taken.contains($0) } ?? (selected.first ?? 1)
    }

    private mutating func edit(_ t: Int, _ random: inout SplitMix64Generator) -> [String] {
        guard let d = forest.ids.random(&random) else { return importChildren(t, &random) }
        made = "edit"
        return ["update documents set [name = \(SessionText.literal("Edited \(t)"))] where (id == \(d))"]
    }

    private mutating func reparent(_ t: Int, _ random: inout SplitMix64Generator) -> [String] {
        for _ in 0..<32 {
            guard let d = forest.ids.random(&random), let p = forest.ids.random(&random) else { break }
            if p == d || forest.parent[d] == p || forest.isAncestor(d, of: p) { continue }
            forest.move(d, under: p)
            made = "reparent"
            return ["update documents set [parent_id = \(p)] where (id == \(d))"]
        }
        return edit(t, &random)
    }

    private mutating func deleteSubtree(_ t: Int, _ random: inout SplitMix64Generator) -> [String] {
        var protected: Set<Int64> = []
        for s in selected where forest.ids.contains(s) { protected.formUnion(forest.ancestorsOrSelf(s)) }
        for _ in 0..<32 {
            guard let d = forest.ids.random(&random), !protected.contains(d),
                  let doomed = forest.subtree(d, limit: settings.maxSubtree), doomed.count < forest.ids.count
            else { continue }
            forest.remove(doomed)
            made = "delete-subtree"
            // Chunks of 25 ids per statement keep each `where` short.
            return stride(from: 0, to: doomed.count, by: 25).map { start in
                let ids = doomed[start..<min(start + 25, doomed.count)]
                return "delete documents where (" + ids.map { "id == \($0)" }.joined(separator: " or ") + ")"
            }
        }
        return edit(t, &random)
    }

    private mutating func importChildren(_ t: Int, _ random: inout SplitMix64Generator) -> [String] {
        let p = forest.ids.random(&random)
        var rows: [String] = []
        for i in 1...settings.importSize {
            let id = forest.nextID
            forest.add(id, under: p)
            rows.append("(\(id), \(SessionText.literal("Imported \(t).\(i)")), \(p.map(String.init) ?? "null"))")
        }
        made = "import"
        return ["add documents [id, name, parent_id] { " + rows.joined(separator: ", ") + " }"]
    }
}
