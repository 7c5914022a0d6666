import CGraphviz

public struct GraphvizError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { "graphviz: \(message)" }
}

/// Renders DOT text to SVG in-process through libgraphviz (no `dot` subprocess).
/// Graphviz keeps global state, so calls must not run concurrently; the testbed renders
/// from one thread.
public enum GraphvizRenderer {
    public static func svg(fromDOT dot: String) throws -> String {
        guard let context = gvContext() else { throw GraphvizError(message: "could not create a context") }
        defer { gvFreeContext(context) }
        guard let graph = dot.withCString({ agmemread($0) }) else {
            throw GraphvizError(message: "could not parse the DOT text")
        }
        defer { agclose(graph) }
        guard gvLayout(context, graph, "dot") == 0 else { throw GraphvizError(message: "layout failed") }
        defer { gvFreeLayout(context, graph) }
        var data: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        guard gvRenderData(context, graph, "svg", &data, &length) == 0, let data else {
            throw GraphvizError(message: "SVG rendering failed")
        }
        defer { gvFreeRenderData(data) }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        return String(decoding: bytes, as: UTF8.self)
    }
}
