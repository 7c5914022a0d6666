import Foundation
import Relational

/// Writes the plan graphs of one captured run as `.dot` and `.svg` files:
/// `<base>-relation`, `<base>-planned`, `<base>-optimized` and `<base>-final`.
public enum PlanExport {
    public static func graphs(_ snapshots: PlanSnapshots, title: String) -> [(suffix: String, dot: String)] {
        [
            ("relation", PlanDot.relationGraph(snapshots.relations, title: "\(title): relation graph")),
            ("planned", PlanDot.planGraph(snapshots.planned, title: "\(title): planner graph")),
            ("optimized", PlanDot.planGraph(snapshots.optimized, title: "\(title): after optimizer passes")),
            ("final", PlanDot.planGraph(snapshots.final, annotations: snapshots.finalAnnotations,
                                        title: "\(title): runner's final graph")),
        ]
    }

    /// Graphs larger than this are written as DOT only: Graphviz's layout of thousands of
    /// nodes takes minutes, and such a picture is unreadable anyway.
    public static let svgNodeLimit = 400

    /// Writes every graph to `directory` (created if needed); returns the paths written.
    /// SVG is skipped for graphs over `svgNodeLimit` nodes (the DOT is still written).
    @discardableResult
    public static func writePlans(_ snapshots: PlanSnapshots, to directory: String, baseName: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let largest = max(snapshots.planned.liveNodeIDs.count, snapshots.final.liveNodeIDs.count)
        var written: [String] = []
        for (suffix, dot) in graphs(snapshots, title: baseName) {
            let base = (directory as NSString).appendingPathComponent("\(baseName)-\(suffix)")
            try writeAtomically(dot, to: base + ".dot")
            written.append(base + ".dot")
            if largest <= svgNodeLimit {
                try writeAtomically(try GraphvizRenderer.svg(fromDOT: dot), to: base + ".svg")
                written.append(base + ".svg")
            }
        }
        return written
    }

    static func writeAtomically(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
