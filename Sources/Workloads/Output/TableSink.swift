import Relational

/// A table about to be written: its identity, how many rows will follow, what to index and
/// the SQLite primary key (empty: the whole row is the key).
public struct TableHeader: Sendable {
    public let name: String
    public let scheme: Scheme
    public let rowCount: Int
    public let indexedAttributes: [Attribute]
    public let primaryKey: [Attribute]

    public init(name: String, scheme: Scheme, rowCount: Int, indexedAttributes: [Attribute], primaryKey: [Attribute]) {
        self.name = name
        self.scheme = scheme
        self.rowCount = rowCount
        self.indexedAttributes = indexedAttributes
        self.primaryKey = primaryKey
    }
}

/// Where streamed tables go (an SQLite file, a CSV directory, or nowhere for a summary):
/// tables one after another, each as `begin`, rows in chunks, `end`.
public protocol TableSink: AnyObject {
    func begin(_ table: TableHeader) throws
    func write(_ rows: [Row]) throws
    func end() throws
}

/// A sink that keeps nothing (for printing only the summary of a streamed dataset).
public final class DiscardingSink: TableSink {
    public init() {}
    public func begin(_ table: TableHeader) throws {}
    public func write(_ rows: [Row]) throws {}
    public func end() throws {}
}

/// Passes rows to a sink in chunks of at most `chunkRows`, so a streamed dataset holds no
/// more than one chunk of rows at a time, and counts what it did (the counters are what
/// tests assert bounded memory by). With `hashing`, rows must come in strictly increasing
/// value order (checked) and the content hash is computed on the way.
public final class StreamingTableWriter {
    public static let defaultChunkRows = 4096

    public let chunkRows: Int
    public let hashing: Bool
    private let sink: TableSink
    private var buffer: [Row] = []
    private var hasher = ContentHasher()
    private var current: TableHeader?
    private var rowsInTable = 0
    private var previous: Row?

    /// The most rows held at once, and how many chunks went to the sink.
    public private(set) var maximumBufferedRows = 0
    public private(set) var chunksWritten = 0
    public private(set) var rowsWritten = 0
    /// The tables written, in order, with their row counts.
    public private(set) var tables: [TableOverview] = []

    public init(sink: TableSink, chunkRows: Int = StreamingTableWriter.defaultChunkRows, hashing: Bool) {
        self.sink = sink
        self.chunkRows = max(1, chunkRows)
        self.hashing = hashing
        buffer.reserveCapacity(self.chunkRows)
    }

    public func begin(_ table: TableHeader) throws {
        guard current == nil else { throw WorkloadError.output("table \(table.name) begun inside table \(current?.name ?? "")") }
        if let last = tables.last, hashing, !(last.name < table.name) {
            throw WorkloadError.output("streamed tables out of name order: \(table.name) after \(last.name)")
        }
        current = table
        rowsInTable = 0
        previous = nil
        if hashing { hasher.addHeader(table: table.name, scheme: table.scheme, rowCount: table.rowCount) }
        try sink.begin(table)
    }

    public func append(_ row: Row) throws {
        if hashing {
            if let previous, !(previous < row) {
                throw WorkloadError.output("streamed rows of \(current?.name ?? "") out of order at row \(rowsInTable + 1)")
            }
            hasher.add(row: row)
            previous = row
        }
        buffer.append(row)
        rowsInTable += 1
        maximumBufferedRows = max(maximumBufferedRows, buffer.count)
        if buffer.count >= chunkRows { try flush() }
    }

    public func end() throws {
        guard let table = current else { throw WorkloadError.output("end of a table never begun") }
        try flush()
        guard rowsInTable == table.rowCount else {
            throw WorkloadError.output("table \(table.name): \(rowsInTable) rows streamed, \(table.rowCount) announced")
        }
        try sink.end()
        tables.append(TableOverview(
            name: table.name, scheme: table.scheme, rowCount: rowsInTable, indexedAttributes: table.indexedAttributes))
        current = nil
    }

    /// The content hash of what was streamed (only with `hashing`).
    public var contentHashHex: String { hasher.hex }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try sink.write(buffer)
        chunksWritten += 1
        rowsWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
