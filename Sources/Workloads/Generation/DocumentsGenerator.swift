import Relational

/// The seed's document hierarchy: `documents(id, name, parent_id)` with null `parent_id`
/// for roots, and `selected_documents(id)`.
///
/// Parameters (all optional):
/// - `roots`: a count (`40`) or a fraction of the rows (`0.01`, the default; at least 1).
/// - `fanout`: `uniform` (default) | `fixed` | `zipf`; `fanout-k` (default 4, at most
///   1,000,000) is the fixed count or the uniform mean; `zipf-max` (default 64, at most
///   1,000,000, which keeps the summed integer weights below 2^60) and `zipf-s` (default 1,
///   a multiple of 0.5 from 0.5 to 4) shape the Zipf draw.
/// - `max-depth`: roots are depth 0, and no document is deeper (default 20, at most the
///   largest row count, since a depth of `rows` or more can never be reached).
/// - `order`: `parents-first` (default; every parent's id is below its children's) or
///   `shuffled` (ids are a random permutation of 1...rows).
/// - `selected`: how many distinct random ids go in `selected_documents` (default 1),
///   `subtree` for one random document that has children plus all its descendants, or
///   `root` for one random root (its null `parent_id` then flows into the queries).
/// - `reals`, `null-names` (`ValueVariants`): ids and parent ids stored as equal reals, and
///   null names, each with the given probability.
/// - `chain-length`: L > 0 makes the last L documents one chain, each the child of the one
///   before (the first keeps its tree parent), so some documents lie up to L − 1 levels
///   below `max-depth` (default 0, off). For recursive queries on deep hierarchies.
/// - `cycles`: N > 0 injects N cycles after everything else is drawn: N random documents
///   each become the parent of their own root (a root already in a cycle is skipped), so
///   parent links loop (default 0, off; does not stream).
///
/// With `chain-length`, `cycles`, `reals` and `null-names` at 0 the data is exactly what it was
/// before they existed.
///
/// The tree is built breadth-first: roots first, then each document in turn draws its
/// number of children until `rows` documents exist. When the documents at `max-depth` are
/// reached first, the rest are attached to random documents above that depth (so some
/// fanouts exceed the draw). Rows are stored in id order. Parent links are 32-bit indices,
/// which `Shape.rowRange` keeps in range.
struct DocumentsGenerator: ShapeGenerator {
    static let parameterNames = ["chain-length", "cycles", "fanout", "fanout-k", "max-depth", "null-names", "order", "reals",
                                 "roots", "selected", "zipf-max", "zipf-s"]
    static let fanoutLimit = 1_000_000
    static let zipfMaximumLimit = 1_000_000

    enum Selection {
        case count(Int)
        case subtree
        case root
    }

    let request: GenerationRequest
    let rootCount: Int
    let maxDepth: Int
    let fanout: FanoutDistribution
    let shuffled: Bool
    let selection: Selection
    let chainLength: Int
    let cycles: Int
    let variants: ValueVariants

    init(_ request: GenerationRequest) throws {
        self.request = request
        let (rows, parameters) = (request.rows, request.parameters)
        rootCount = try parameters.countOrFraction("roots", default: max(1, Int((Double(rows) * 0.01).rounded())), of: rows)
        guard rootCount <= rows else {
            throw WorkloadError.badParameter(name: "roots", value: String(rootCount), expected: "at most the row count \(rows)")
        }
        maxDepth = try parameters.integer("max-depth", default: 20, minimum: 0, maximum: Shape.rowRange.upperBound)
        if maxDepth == 0 && rootCount < rows {
            throw WorkloadError.impossible("max-depth=0 allows only roots, but roots=\(rootCount) < rows=\(rows)")
        }
        fanout = try Self.fanoutDistribution(parameters)
        shuffled = try parameters.choice("order", default: "parents-first", among: ["parents-first", "shuffled"]) == "shuffled"
        let selectedText = parameters["selected"] ?? "1"
        if selectedText == "subtree" {
            selection = .subtree
        } else if selectedText == "root" {
            selection = .root
        } else if let k = ShapeParameters.decimalInteger(selectedText), k >= 1, k <= rows {
            selection = .count(k)
        } else {
            throw WorkloadError.badParameter(
                name: "selected", value: selectedText, expected: "a count from 1 to \(rows), subtree or root")
        }
        chainLength = try parameters.integer("chain-length", default: 0, minimum: 0, maximum: rows)
        cycles = try parameters.integer("cycles", default: 0, minimum: 0, maximum: rows)
        variants = try ValueVariants(request)
    }

    /// With `chain-length` L, documents from `rows - L + 1` on hang below the one before.
    func chainedParent(of index: Int, treeParent: Int) -> Int {
        chainLength > 1 && index > rows - chainLength ? index - 1 : treeParent
    }

    /// A fresh tree builder: every path (in memory or streamed) starts from this.
    func tree() -> DocumentTree {
        DocumentTree(rows: rows, rootCount: rootCount, maxDepth: maxDepth, fanout: fanout, random: SplitMix64Generator(seed: seed))
    }

    /// True when rows can be written as they are generated: ids in generation order and
    /// the selection needs no parent links. `order=shuffled` (a permutation of all ids),
    /// `selected=subtree` (children lists) and `selected=root` (which ids are roots) need
    /// memory in proportion to the rows; the variants are applied to the finished tables.
    var streams: Bool {
        if shuffled || cycles > 0 || variants.isActive { return false }
        guard case .count = selection else { return false }
        return true
    }

    func generate() throws -> Dataset {
        var tree = tree()
        var parent = [Int32](repeating: -1, count: rows)
        var i = 0
        while let document = tree.next() {
            parent[i] = Int32(chainedParent(of: i, treeParent: document.parent))
            i += 1
        }
        var random = tree.random

        var ids = Array(Int64(1)...Int64(rows))
        if shuffled { random.shuffle(&ids) }
        let (selected, note) = try selectedIDs(parent: parent, ids: ids, random: &random)
        if cycles > 0 { injectCycles(&parent, &random) }
        var documents = try documentRows(parent: parent, ids: ids)

        var selectedTable = try DatasetTable(
            name: "selected_documents", scheme: Scheme(["id"]),
            rows: selected.map { Row([.integer($0)]) }, indexedAttributes: ["id"])
        if variants.isActive {
            (documents, selectedTable) = try applyVariants(documents, selectedTable)
        }
        var statistics = statistics(tree, selectionNote: note)
        statistics.notes += variants.notes
        return Dataset(
            shape: .documents, rowsRequested: rows, seed: seed, parameters: parameters,
            tables: [documents, selectedTable], statistics: statistics)
    }

    /// Documents (scheme order id, name, parent_id) and the selection with `reals` and
    /// `null-names` applied, document by document in id order, then the selection.
    private func applyVariants(
        _ documents: DatasetTable, _ selected: DatasetTable
    ) throws -> (DatasetTable, DatasetTable) {
        var variants = self.variants
        let varied = documents.rows.map { row in
            Row([variants.key(row[0]), variants.name(row[1]), variants.key(row[2])])
        }
        let variedSelection = selected.rows.map { Row([variants.key($0[0])]) }
        return (
            try DatasetTable(name: documents.name, scheme: documents.scheme, rows: varied,
                             indexedAttributes: documents.indexedAttributes),
            try DatasetTable(name: selected.name, scheme: selected.scheme, rows: variedSelection,
                             indexedAttributes: selected.indexedAttributes)
        )
    }

    /// Writes the documents as they are generated (only when `streams`): rows in id order,
    /// which is also their value order, so the content hash is computed on the way.
    func stream(into writer: StreamingTableWriter) throws -> DatasetStatistics {
        var tree = tree()
        try writer.begin(TableHeader(
            name: "documents", scheme: Scheme(["id", "name", "parent_id"]), rowCount: rows,
            indexedAttributes: ["id", "parent_id"], primaryKey: ["id"]))
        var id: Int64 = 0
        while let document = tree.next() {
            let parent = chainedParent(of: Int(id), treeParent: document.parent)
            id += 1
            let parentValue: Value = parent < 0 ? .null : .integer(Int64(parent) + 1)
            try writer.append(Row([.integer(id), .text("Document \(id)"), parentValue]))
        }
        try writer.end()
        var random = tree.random
        guard case let .count(k) = selection else { throw WorkloadError.impossible("only a counted selection streams") }
        let selected = random.distinctIndices(k, below: rows).sorted()
        try writer.begin(TableHeader(
            name: "selected_documents", scheme: Scheme(["id"]), rowCount: selected.count,
            indexedAttributes: ["id"], primaryKey: ["id"]))
        for index in selected { try writer.append(Row([.integer(Int64(index) + 1)])) }
        try writer.end()
        return statistics(tree, selectionNote: Self.selectionNote(selected.map { Int64($0) + 1 }))
    }

    private func statistics(_ tree: DocumentTree, selectionNote: String) -> DatasetStatistics {
        var statistics = DatasetStatistics()
        statistics.depthHistogram = tree.depthHistogram
        statistics.fanout = tree.fanoutStatistics
        statistics.notes = [
            "fanout: \(fanout.summary)", "roots: \(rootCount), max-depth: \(maxDepth), order: \(shuffled ? "shuffled" : "parents-first")",
            selectionNote,
        ]
        if chainLength > 1 {
            statistics.notes.append("chain-length: the last \(chainLength) documents form one chain (depth and fanout above are the tree's before it)")
        }
        if cycles > 0 { statistics.notes.append("cycles: \(cycles) injected (each a document made its own root's parent)") }
        return statistics
    }

    /// Makes random documents the parents of their roots. Drawn after everything else, so
    /// the tree and the selection are the ones drawn without cycles.
    private func injectCycles(_ parent: inout [Int32], _ random: inout SplitMix64Generator) {
        for _ in 0..<cycles {
            let document = random.index(below: rows)
            var root = document
            var steps = 0
            // Before cycles no document is deeper than max-depth plus the chain.
            while parent[root] >= 0 && steps <= maxDepth + chainLength {
                root = Int(parent[root])
                steps += 1
            }
            // A walk that never reached a root went round an earlier cycle: skip it.
            if parent[root] < 0 { parent[root] = Int32(document) }
        }
    }

    private static func selectionNote(_ selected: [Int64]) -> String {
        let shown = selected.prefix(5).map(String.init).joined(separator: ", ") + (selected.count > 5 ? ", ..." : "")
        return "selected_documents: \(selected.count) id(s): \(shown)"
    }

    private static func fanoutDistribution(_ parameters: ShapeParameters) throws -> FanoutDistribution {
        let kind = try parameters.choice("fanout", default: "uniform", among: ["uniform", "fixed", "zipf"])
        let k = try parameters.integer("fanout-k", default: 4, minimum: 1, maximum: fanoutLimit)
        // `zipf-s=abc` beside the uniform fanout was accepted, echoed and ignored.
        if kind != "zipf", let name = ["zipf-max", "zipf-s"].first(where: { parameters[$0] != nil }) {
            throw WorkloadError.badParameter(name: name, value: parameters[name] ?? "",
                                             expected: "no value unless fanout=zipf (the fanout is \(kind))")
        }
        // And `fanout-k` beside zipf, whose sizes come from `zipf-max` and `zipf-s`.
        if kind == "zipf", let given = parameters["fanout-k"] {
            throw WorkloadError.badParameter(name: "fanout-k", value: given,
                                             expected: "no value with fanout=zipf (its sizes come from zipf-max and zipf-s)")
        }
        switch kind {
        case "fixed": return .fixed(k)
        case "zipf":
            let maximum = try parameters.integer("zipf-max", default: 64, minimum: 1, maximum: zipfMaximumLimit)
            let sText = parameters["zipf-s"] ?? "1"
            guard let s = Double(sText), s >= 0.5, s <= 4, (s * 2).rounded() == s * 2 else {
                throw WorkloadError.badParameter(name: "zipf-s", value: sText, expected: "a multiple of 0.5 from 0.5 to 4")
            }
            return .zipf(ZipfSampler(maximum: maximum, halfSteps: Int(s * 2)))
        default: return .uniform(mean: k)
        }
    }

    /// Rows `[id, name, parent_id]` (scheme order) sorted by id, written straight into
    /// columns: no `Row` or `String` is made per document.
    private func documentRows(parent: [Int32], ids: [Int64]) throws -> DatasetTable {
        // parentByID[id - 1]: the parent's id, or 0 for a root (ids start at 1).
        var parentByID = [Int64](repeating: 0, count: rows)
        for i in 0..<rows {
            let p = parent[i]
            parentByID[Int(ids[i] - 1)] = p < 0 ? 0 : ids[Int(p)]
        }
        var idColumn = ValueColumn()
        var nameColumn = ValueColumn()
        var parentColumn = ValueColumn()
        idColumn.reserveCapacity(rows)
        nameColumn.reserveCapacity(rows)
        nameColumn.reserveTextCapacity(strings: rows, bytes: rows * 16)
        parentColumn.reserveCapacity(rows)
        var name = DocumentName()
        for id in stride(from: Int64(1), through: Int64(rows), by: 1) {
            idColumn.appendInteger(id)
            name.withBytes(id) { nameColumn.appendText(utf8: $0) }
            let p = parentByID[Int(id - 1)]
            if p == 0 { parentColumn.appendNull() } else { parentColumn.appendInteger(p) }
        }
        return try DatasetTable(
            name: "documents", scheme: Scheme(["id", "name", "parent_id"]),
            store: ColumnStore(columns: [idColumn, nameColumn, parentColumn]),
            indexedAttributes: ["id", "parent_id"])
    }

    private func selectedIDs(
        parent: [Int32], ids: [Int64], random: inout SplitMix64Generator
    ) throws -> ([Int64], String) {
        if case .root = selection {
            let roots = (0..<rows).filter { parent[$0] < 0 }
            let root = roots.isEmpty ? random.index(below: rows) : roots[random.index(below: roots.count)]
            return ([ids[root]], "selected_documents: root document \(ids[root])")
        }
        guard case let .count(k) = selection else {
            var childCount = [Int32](repeating: 0, count: rows)
            for p in parent where p >= 0 { childCount[Int(p)] += 1 }
            let withChildren = (0..<rows).filter { childCount[$0] > 0 }
            let top = withChildren.isEmpty ? random.index(below: rows) : withChildren[random.index(below: withChildren.count)]
            // Children lists by counting sort of parent indices.
            var start = [Int](repeating: 0, count: rows + 1)
            for i in 0..<rows { start[i + 1] = start[i] + Int(childCount[i]) }
            var fill = start
            var children = [Int](repeating: 0, count: rows)
            for (child, p) in parent.enumerated() where p >= 0 {
                children[fill[Int(p)]] = child
                fill[Int(p)] += 1
            }
            var members = [top]
            var k = 0
            while k < members.count {
                let node = members[k]
                members.append(contentsOf: children[start[node]..<start[node + 1]])
                k += 1
            }
            let selected = members.map { ids[$0] }.sorted()
            return (selected, "selected_documents: subtree of document \(ids[top]) (\(selected.count) ids)")
        }
        let selected = random.distinctIndices(k, below: rows).map { ids[$0] }.sorted()
        return (selected, Self.selectionNote(selected))
    }
}

/// The bytes of `"Document \(id)"` for a positive id, built in a reused buffer.
private struct DocumentName {
    private static let prefix = Array("Document ".utf8)
    private var buffer: [UInt8] = DocumentName.prefix + [UInt8](repeating: 0, count: 20)

    mutating func withBytes(_ id: Int64, _ body: (UnsafeRawBufferPointer) -> Void) {
        let start = Self.prefix.count
        var digits = 0
        var n = id
        repeat {
            digits += 1
            n /= 10
        } while n > 0
        n = id
        buffer.withUnsafeMutableBytes { bytes in
            var i = start + digits
            repeat {
                i -= 1
                bytes[i] = UInt8(truncatingIfNeeded: 48 + n % 10)
                n /= 10
            } while n > 0
            body(UnsafeRawBufferPointer(rebasing: bytes[0..<(start + digits)]))
        }
    }
}
