/// The documents hierarchy built breadth-first, one document at a time in index order, with
/// memory proportional to the documents that get children and the number of levels (not to
/// all documents): roots first, then each document in turn draws its number of children
/// until `rows` documents exist; when the documents at `maxDepth` are reached first, the
/// rest are attached to random documents above that depth.
///
/// Both the in-memory generator and the streaming writer walk this one builder, so they
/// consume the random stream identically and produce the same tree.
struct DocumentTree {
    let rows: Int
    let rootCount: Int
    let maxDepth: Int
    private(set) var fanout: FanoutDistribution
    private(set) var random: SplitMix64Generator

    /// Documents emitted so far.
    private(set) var emitted = 0
    /// Documents placed (emitted or waiting in `pending`).
    private var placed: Int
    /// The next document to expand (draw children for).
    private var expanding = 0
    private var expandingDepth = 0
    /// `levelStarts[d]`: index of the first document at depth `d`.
    private var levelStarts: [Int] = [0]
    /// Documents per depth.
    private var levelCounts: [Int] = []
    /// Children of each expanded document (documents `0..<expanding`).
    private var childCounts: [Int32] = []
    /// Children drawn for the document being expanded, not yet emitted: `pendingFirst..<placed`.
    private var pendingFirst: Int
    private var pendingParent = -1
    private var breadthFirstDone = false

    init(rows: Int, rootCount: Int, maxDepth: Int, fanout: FanoutDistribution, random: SplitMix64Generator) {
        self.rows = rows
        self.rootCount = rootCount
        self.maxDepth = maxDepth
        self.fanout = fanout
        self.random = random
        placed = rootCount
        pendingFirst = 0
    }

    /// The next document in index order: its parent's index (-1 for a root) and its depth;
    /// nil after the last.
    mutating func next() -> (parent: Int, depth: Int)? {
        guard emitted < rows else { return nil }
        let index = emitted
        if index < rootCount {
            emitted += 1
            count(depth: 0)
            if emitted == rootCount { pendingFirst = rootCount }
            return (-1, 0)
        }
        if pendingFirst < placed {
            pendingFirst += 1
            emitted += 1
            let depth = expandingDepth + 1
            count(depth: depth)
            return (pendingParent, depth)
        }
        if !breadthFirstDone {
            // The expansion loop of the original generator, one expansion per call.
            while expandingDepth + 1 < levelStarts.count && levelStarts[expandingDepth + 1] <= expanding {
                expandingDepth += 1
            }
            if placed < rows && expanding < placed && expandingDepth < maxDepth {
                let children = min(fanout.draw(&random), rows - placed)
                let childDepth = expandingDepth + 1
                if levelStarts.count == childDepth { levelStarts.append(placed) }
                childCounts.append(Int32(children))
                pendingParent = expanding
                pendingFirst = placed
                placed += children
                expanding += 1
                return next()
            }
            breadthFirstDone = true
        }
        // Overflow: documents `0..<expanding` are exactly those above max-depth.
        let p = random.index(below: expanding)
        childCounts[p] += 1
        placed += 1
        pendingFirst = placed
        emitted += 1
        let depth = depthOf(p) + 1
        count(depth: depth)
        return (p, depth)
    }

    private mutating func count(depth: Int) {
        while levelCounts.count <= depth { levelCounts.append(0) }
        levelCounts[depth] += 1
    }

    /// Depth of an already placed document: the last level starting at or before it.
    private func depthOf(_ index: Int) -> Int {
        var low = 0
        var high = levelStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if levelStarts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// depth → documents at that depth (after the last document).
    var depthHistogram: [Int: Int] {
        var out: [Int: Int] = [:]
        for (d, n) in levelCounts.enumerated() where n > 0 { out[d] = n }
        return out
    }

    /// Every document with children is one that was expanded, so `childCounts` is the
    /// whole multiset of positive child counts.
    var fanoutStatistics: FanoutStatistics {
        var histogram: [Int32: Int] = [:]
        var total = 0
        for c in childCounts {
            histogram[c, default: 0] += 1
            total += Int(c)
        }
        let keys = histogram.keys.sorted()
        let parents = childCounts.count
        var median = 0
        var seen = 0
        for k in keys {
            seen += histogram[k] ?? 0
            if seen > parents / 2 { median = Int(k); break }
        }
        return FanoutStatistics(
            parents: parents, leaves: rows - parents,
            minimum: keys.first.map(Int.init) ?? 0, maximum: keys.last.map(Int.init) ?? 0,
            mean: parents == 0 ? 0 : Double(total) / Double(parents),
            median: median)
    }

    /// Documents that have children (`0..<expandedCount`, all of them expanded).
    var expandedCount: Int { childCounts.count }

    /// Bytes the builder holds per document, at most (child counts and level tables).
    static let bytesPerDocument = 4 + 16
}
