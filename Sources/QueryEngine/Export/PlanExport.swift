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

    /// Writes every graph to `directory` (created if needed); returns the paths written.
    @discardableResult
    public static func writePlans(_ snapshots: PlanSnapshots, to directory: String, baseName: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for (suffix, dot) in graphs(snapshots, title: baseName) {
            let base = (directory as NSString).appendingPathComponent("\(baseName)-\(suffix)")
            try writeAtomically(dot, to: base + ".dot")
            try writeAtomically(try GraphvizRenderer.svg(fromDOT: dot), to: base + ".svg")
            written += [base + ".dot", base + ".svg"]
        }
        return written
    }

    static func writeAtomically(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
