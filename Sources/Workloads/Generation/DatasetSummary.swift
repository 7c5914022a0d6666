import Relational

/// One table as the summary and manifest describe it (no rows).
public struct TableOverview: Sendable, Equatable {
    public let name: String
    public let scheme: Scheme
    public let rowCount: Int
    public let indexedAttributes: [Attribute]
}

/// Everything `testbed generate` prints about a dataset, whether it was held in memory or
/// streamed to a file: shape, parameters, tables, statistics and the content hash.
public struct DatasetOverview: Sendable {
    public let shape: Shape
    public let rowsRequested: Int
    public let seed: UInt64
    public let parameters: ShapeParameters
    /// Sorted by name.
    public let tables: [TableOverview]
    public let statistics: DatasetStatistics
    public let contentHashHex: String

    /// Shape, parameters, row counts, depth histogram, fanout statistics, content hash.
    public func summary() -> String {
        var lines: [String] = []
        let params = parameters.description
        lines.append("shape \(shape), rows \(rowsRequested), seed \(seed)" + (params.isEmpty ? "" : ", params \(params)"))
        let width = tables.map(\.name.count).max() ?? 0
        for t in tables {
            let indexes = t.indexedAttributes.map(\.name).joined(separator: ", ")
            lines.append("  " + t.name + String(repeating: " ", count: width - t.name.count)
                + "  \(t.rowCount) row\(t.rowCount == 1 ? "" : "s")  \(t.scheme)" + (indexes.isEmpty ? "" : "  indexed on \(indexes)"))
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

    /// The manifest written next to CSV files.
    public func manifestText() -> String {
        var lines = [
            "shape: \(shape)", "rows: \(rowsRequested)", "seed: \(seed)", "params: \(parameters)",
            "content-hash: \(contentHashHex)",
            "csv-encoding: null = empty unquoted field; text always double-quoted; integers and reals bare; blobs x'hex'",
        ]
        for t in tables {
            lines.append("table \(t.name): \(t.scheme) rows \(t.rowCount) indexed [" + t.indexedAttributes.map(\.name).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension Dataset {
    public var overview: DatasetOverview {
        DatasetOverview(
            shape: shape, rowsRequested: rowsRequested, seed: seed, parameters: parameters,
            tables: tables.map { TableOverview(name: $0.name, scheme: $0.scheme, rowCount: $0.rowCount, indexedAttributes: $0.indexedAttributes) },
            statistics: statistics, contentHashHex: contentHashHex)
    }

    /// What `testbed generate` prints; see `DatasetOverview.summary`.
    public func summary() -> String { overview.summary() }

    /// The manifest written next to CSV files.
    public func manifestText() -> String { overview.manifestText() }
}
