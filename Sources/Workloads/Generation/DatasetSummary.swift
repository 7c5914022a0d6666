extension Dataset {
    /// What `testbed generate` prints: shape, parameters, row counts, depth histogram,
    /// fanout statistics and the content hash.
    public func summary() -> String {
        var lines: [String] = []
        let params = parameters.description
        lines.append("shape \(shape), rows \(rowsRequested), seed \(seed)" + (params.isEmpty ? "" : ", params \(params)"))
        let width = tables.map(\.name.count).max() ?? 0
        for t in tables {
            let indexes = t.indexedAttributes.map(\.name).joined(separator: ", ")
            lines.append("  " + t.name + String(repeating: " ", count: width - t.name.count)
                + "  \(t.rows.count) row\(t.rows.count == 1 ? "" : "s")  \(t.scheme)" + (indexes.isEmpty ? "" : "  indexed on \(indexes)"))
        }
        if !statistics.depthHistogram.isEmpty {
            let depths = statistics.depthHistogram.keys.sorted()
            lines.append("depth histogram: " + depths.map { "\($0):\(statistics.depthHistogram[$0] ?? 0)" }.joined(separator: " "))
        }
        if let f = statistics.fanout {
            let mean = (f.mean * 100).rounded() / 100
            lines.append("fanout (documents with children): \(f.parents) parents, \(f.leaves) leaves, min \(f.minimum), median \(f.median), mean \(mean), max \(f.maximum)")
        }
        lines.append(contentsOf: statistics.notes.filter { !$0.isEmpty })
        lines.append("content hash: \(contentHashHex)")
        return lines.joined(separator: "\n") + "\n"
    }
}
