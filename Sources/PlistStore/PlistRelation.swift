import Relational

/// What the database needs of its relations: a mutable source whose changes are buffered
/// until `save`, and that can apply a file deleted from outside.
public protocol PlistRelation: MutableSource {
    var path: String { get }
    var hasUnsavedChanges: Bool { get }
    /// Files read since opening (or `resetStatistics`).
    var filesOpened: Int { get }
    func resetStatistics()
    func save() throws
    /// The rows removed because `file` was deleted, or nil when `file` is not this relation's.
    func deleteLocalFile(_ file: String) throws -> [Row]?
}
