/// How a generator writes its tables as it generates them, in name order and in the
/// stored row order the in-memory dataset has (so files come out byte for byte the same).
struct StreamingSource {
    /// True when the stored order is also the value order, so the writer hashes the rows
    /// as they pass; otherwise `run` returns the content hash it computed itself.
    let rowsInValueOrder: Bool
    let run: (StreamingTableWriter) throws -> (statistics: DatasetStatistics, contentHashHex: String?)
}
