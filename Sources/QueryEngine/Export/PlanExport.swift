import FileSupport
import Foundation
import Relational

/// Writes the plan graphs of one captured run as `.dot` and `.svg` files:
/// `<base>-relation`, `<base>-planned`, `<base>-optimized` and `<base>-final`.
public enum PlanExport {
    /// Each graph's file suffix, DOT text and size for layout (`GraphLayoutSize`).
    public static func graphs(_ snapshots: PlanSnapshots, title: String) -> [(suffix: String, dot: String, layoutSize: Int)] {
        [
            ("relation", PlanDot.relationGraph(snapshots.relations, title: "\(title): relation graph"),
             GraphLayoutSize.relationGraph(snapshots.relations)),
            ("planned", PlanDot.planGraph(snapshots.planned, title: "\(title): planner graph"),
             GraphLayoutSize.planGraph(snapshots.planned)),
            ("optimized", PlanDot.planGraph(snapshots.optimized, title: "\(title): after optimizer passes"),
             GraphLayoutSize.planGraph(snapshots.optimized)),
            ("final", PlanDot.planGraph(snapshots.final, annotations: snapshots.finalAnnotations,
                                        title: "\(title): runner's final graph"),
             GraphLayoutSize.planGraph(snapshots.final)),
        ]
    }

    /// Graphs larger than this are written as DOT only: Graphviz's layout of thousands of
    /// nodes takes minutes, and such a picture is unreadable anyway.
    public static let svgNodeLimit = 400

    /// A graph whose layout size (nodes plus the virtual nodes of its long edges, see
    /// `GraphLayoutSize`) is larger than this is written as DOT only, whatever its node count:
    /// `dot` lays out the relation graph of a 45-way union of selects (1,036) in about 2 s,
    /// a 60-way one (1,831) in 29 s and a 75-way one (2,851) in 170 s.
    public static let svgLayoutLimit = 1_000

    /// Writes every graph to `directory` (created if needed); returns the paths written.
    /// SVG is skipped for graphs over `svgNodeLimit` nodes, and for a graph over
    /// `svgLayoutLimit` in layout size (the DOT is still written).
    @discardableResult
    public static func writePlans(_ snapshots: PlanSnapshots, to directory: String, baseName: String) throws -> [String] {
        // A failed write (a full disk, a read-only volume) takes back what this call wrote:
        // its files, and the directories it made, so no half set of plans is left.
        let firstMade = firstMissingComponent(of: directory)
        let largest = max(snapshots.planned.liveNodeIDs.count, snapshots.final.liveNodeIDs.count)
        let graphs = graphs(snapshots, title: baseName)
        let bases = graphs.map { (directory as NSString).appendingPathComponent("\(fileNamePart(baseName))-\($0.suffix)") }
        // So does a signal that ends the process meanwhile (`plan` left one file of eight in
        // the `--out` it made when stopped during a slow layout): the directories it made, or
        // in a directory that was there the files that were not, and any temporary.
        let paths = bases.flatMap { [$0 + ".dot", $0 + ".svg"] }
        let fresh = paths.filter { !FileSystem.exists($0) }
        let takeBack: @Sendable () -> Void = {
            if let firstMade { return SignalCleanup.removeTreeBeingWritten(firstMade) }
            for path in paths { FileSystem.remove(FileSystem.temporarySibling(of: path)) }
            for path in fresh { FileSystem.remove(path) }
        }
        let token = SignalCleanup.shared.add(takeBack)
        defer { SignalCleanup.shared.remove(token) }
        var written: [String] = []
        do {
            try FileSystem.makeDirectories(directory)
            for ((_, dot, layoutSize), base) in zip(graphs, bases) {
                try writeAtomically(dot, to: base + ".dot")
                written.append(base + ".dot")
                if largest <= svgNodeLimit && layoutSize <= svgLayoutLimit {
                    let svg = try GraphvizRenderer.svg(fromDOT: dot)
                    try writeAtomically(svg, to: base + ".svg")
                    written.append(base + ".svg")
                }
            }
        } catch {
            for path in written { FileSystem.remove(path) }
            if let firstMade { FileSystem.removeTree(firstMade) }
            throw error
        }
        return written
    }

    /// `name` with control characters (a query file named with an escape) as `_`, so no
    /// written file's name holds one; an empty name (a file called `.rq`) as `query`, whose
    /// files were `-final.dot` and alike; and cut to 200 bytes, so that with its suffix
    /// (`-optimized.svg`) it stays within a file name's 255 (a 250-byte query name failed
    /// as an unwritable `--out`).
    static func fileNamePart(_ name: String) -> String {
        let clean = String(String.UnicodeScalarView(name.unicodeScalars.map { $0.properties.generalCategory == .control ? "_" : $0 }))
        if clean.isEmpty { return "query" }
        var cut = ""
        for character in clean {
            guard cut.utf8.count + String(character).utf8.count <= maximumNameBytes else { break }
            cut.append(character)
        }
        return cut
    }

    static let maximumNameBytes = 200

    /// The outermost directory of `path` that does not exist yet (the one creating `path`
    /// makes first), or nil when `path` exists.
    private static func firstMissingComponent(of path: String) -> String? {
        // By hand: Foundation's `deletingLastPathComponent` traps on a one-component path.
        let exists = { FileManager.default.fileExists(atPath: $0) }
        guard !exists(path) else { return nil }
        var components = path.split(separator: "/").map(String.init)
        let root = path.hasPrefix("/") ? "/" : ""
        var missing = path
        while components.count > 1 {
            components.removeLast()
            let parent = root + components.joined(separator: "/")
            if exists(parent) { break }
            missing = parent
        }
        return missing
    }

    /// Through a temporary named after `path` (`.NAME.tmp-PID`), which a signal's cleanup
    /// can find; and not once a signal is ending the process (its cleanup may be done).
    static func writeAtomically(_ text: String, to path: String) throws {
        SignalCleanup.shared.parkIfDying()
        try FileSystem.writeTextAtomically(text, to: path)
    }
}
