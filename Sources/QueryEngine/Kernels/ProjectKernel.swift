import Relational

/// Keeps some attributes; rows that coincide after projecting are emitted once. Seen rows
/// are kept as key encodings (`EncodedKeySet`), and a column view stays a view: the new
/// rows' positions, remapped to the kept columns.
///
/// Two cheaper ways while every row arrives in views read alike (decided on the first
/// piece, kept while later pieces read the same columns of the same store snapshots):
/// - when every kept column reads one part, and one of them holds distinct values in its
///   store (`ColumnView.Part.distinctColumn`: a table's key), a row's position is its
///   key: equal positions give equal rows, different ones differ in that column. Seen
///   positions are bits (`PositionSet`).
/// - keys of several columns, or of one column that is not all integers, are kept as
///   stored codes (`CodedKeySet`: no text bytes copied or hashed).
/// The first piece read otherwise moves the kept keys into the encoded set, spelled in
/// full, and the kernel goes on there.
///
/// A run's first few rows (at most `smallLimit`, the usual whole input of a selective
/// query) skip those set-ups: their keys go to the encoded set, which the kernel keeps
/// emptied across the runs of a prepared query, and the pieces are kept. A piece that
/// would take the run past the limit ends that: the encoded set is emptied, the kept
/// pieces go through the ways above as if they had just arrived (their new rows were
/// emitted already; the same rows are new either way, since every way compares rows by
/// value), and the kernel goes on as it would have from the start.
final class ProjectKernel: Kernel {
    private let map: ColumnMap
    /// Unchecked exclusivity: touched once per row, never by overlapping accesses.
    @exclusivity(unchecked) private var seen = EncodedKeySet()
    private var coded: CodedKeySet?
    private var positions: (set: PositionSet, store: ColumnStore, columns: [Int])?
    private var dependent: DependentKeys?
    /// Set once keys went to `seen`: they stay there.
    private var encodedOnly = false
    /// This run's pieces while it has had at most `smallLimit` rows (their keys in `seen`
    /// alone); nil once it had more.
    private var smallPieces: [BatchPiece]? = []
    private var smallRows = 0
    /// Encodes the keys of pieces that go to `seen` (one per kernel, not one per piece).
    private let encoder = KeyEncoder()
    /// The last views' maps remapped (kept across runs: they depend on no run state).
    private var maps = ColumnMapCache()
    static let smallLimit = 16
    /// At most this many keys for `seen` to be emptied keeping its storage at a run's reset.
    static let reuseLimit = 4096

    init(map: ColumnMap) { self.map = map }

    func receive(_ batch: Batch, operand: Int) -> Batch {
        var out = Batch()
        for piece in batch.pieces {
            let keep = smallNewRows(piece) ?? newRows(piece)
            out.append(piece.selecting(keep).mapping(map.positions, maps: &maps))
        }
        return out
    }

    private func newRows(_ piece: BatchPiece) -> [Int] {
        newRowsByPosition(piece) ?? newRowsByDeterminingPosition(piece) ?? codedNewRows(piece) ?? encodedNewRows(piece)
    }

    /// The piece's new rows while the run is small (see the type's note), else nil, after
    /// replaying the kept pieces when this piece ends the small run.
    private func smallNewRows(_ piece: BatchPiece) -> [Int]? {
        guard var pieces = smallPieces else { return nil }
        let count = piece.count
        if smallRows + count <= Self.smallLimit {
            smallRows += count
            smallPieces = nil  // so the list is not shared while it grows
            pieces.append(piece)
            smallPieces = pieces
            return encodedNewRows(piece)
        }
        smallPieces = nil
        seen.removeAllKeepingCapacity()
        for earlier in pieces { _ = newRows(earlier) }
        return nil
    }

    private func encodedNewRows(_ piece: BatchPiece) -> [Int] {
        var keep: [Int] = []
        piece.forEachKey(map.positions, encoder: encoder) { k, key in
            if seen.insert(key).inserted { keep.append(k) }
        }
        return keep
    }

    /// The one part every kept column reads, when one of them is distinct in its store.
    private func keyedPart(_ view: ColumnView) -> Int? {
        guard let j = map.positions.first else { return nil }
        let part = view.partOf[j]
        guard map.positions.allSatisfy({ view.partOf[$0] == part }),
              let distinct = view.parts[part].distinctColumn,
              map.positions.contains(where: { view.columnOf[$0] == distinct })
        else { return nil }
        return part
    }

    /// The piece's new rows by position, or nil when keys are not positions (anymore).
    private func newRowsByPosition(_ piece: BatchPiece) -> [Int]? {
        guard !encodedOnly, coded == nil, dependent == nil else { return nil }
        guard case let .columns(view) = piece, let part = keyedPart(view) else { return positions == nil ? nil : moveToEncoded() }
        let store = view.parts[part].store
        let columns = map.positions.map { view.columnOf[$0] }
        if let p = positions, p.columns != columns || !p.store.sharesStorage(with: store) { return moveToEncoded() }
        var current = positions ?? (PositionSet(limit: store.count), store, columns)
        positions = nil  // so the set is not shared while it is filled
        var keep: [Int] = []
        view.parts[part].positions.withUnsafeBufferPointer { current.set.insertEach($0, fresh: &keep) }
        positions = current
        return keep
    }

    /// The piece's new rows by their position in the determining part of a join's view
    /// (`ColumnView.Dependence`), when that part's distinct column is kept: equal positions
    /// give equal rows (the other part's position follows from it), different ones differ
    /// there. Nil when keys are not kept so (anymore).
    private func newRowsByDeterminingPosition(_ piece: BatchPiece) -> [Int]? {
        guard !encodedOnly, coded == nil, positions == nil else { return nil }
        guard case let .columns(view) = piece, let layout = DependentLayout(view, keeping: map.positions) else {
            return dependent == nil ? nil : moveToEncoded()
        }
        if let kept = dependent, !kept.layout.matches(layout) { return moveToEncoded() }
        var current = dependent ?? DependentKeys(layout: layout)
        dependent = nil  // so the set is not shared while it is filled
        let determining = view.dependence?.determining ?? 0
        let keep = current.insertNew(view.parts[determining].positions, view.parts[1 - determining].positions)
        dependent = current
        return keep
    }

    /// The piece's new rows by stored codes, or nil when the piece must go through `seen`
    /// (after moving any coded keys there).
    private func codedNewRows(_ piece: BatchPiece) -> [Int]? {
        guard !encodedOnly else { return nil }
        guard case let .columns(view) = piece else { return moveToEncoded() }
        let sources = map.positions.map { j in (store: view.parts[view.partOf[j]].store, column: view.columnOf[j]) }
        if coded == nil {
            let worthIt = sources.count > 1 || sources.first.map { !$0.store.columns[$0.column].isIntegerOnly } ?? false
            guard worthIt, let set = CodedKeySet(sources: sources) else { return moveToEncoded() }
            coded = set
        }
        guard coded?.accepts(sources) == true else { return moveToEncoded() }
        let positions = map.positions.map { view.parts[view.partOf[$0]].positions }
        return coded?.insertNew(rowCount: view.count, positions: positions)
    }

    /// Spells every key kept as codes or positions into `seen`, which holds them from now on.
    private func moveToEncoded() -> [Int]? {
        encodedOnly = true
        if let coded {
            coded.encodeEach { seen.insert($0) }
            self.coded = nil
        }
        if let kept = positions {
            let encoder = KeyEncoder()
            kept.store.withKeyReader { reader in
                for p in kept.set.positions {
                    encoder.reset()
                    for c in kept.columns { reader.encode(row: p, column: c, into: encoder) }
                    seen.insert(encoder)
                }
            }
            positions = nil
        }
        if let kept = dependent {
            kept.encodeEach { seen.insert($0) }
            dependent = nil
        }
        return nil
    }

    func operandCompleted(_ operand: Int) -> Batch { .empty }

    func freshCopy() -> any Kernel { ProjectKernel(map: map) }

    func resetForRun() -> Bool {
        // Already empty (a run hands its state back emptied, and the next run resets it
        // again): nothing to do, where emptying again cost about 1,000 instructions.
        if seen.count == 0, smallRows == 0, smallPieces?.isEmpty == true, coded == nil, positions == nil,
            dependent == nil, !encodedOnly {
            return true
        }
        if seen.count <= Self.reuseLimit { seen.removeAllKeepingCapacity() } else { seen = EncodedKeySet() }
        // Emptied one by one, keeping the list's storage (`removeAll(keepingCapacity:)` takes
        // the array's generic range replacement, about 1,000 instructions); the pieces must
        // go, as they hold the sources' columns.
        var pieces = smallPieces ?? []
        smallPieces = nil
        while !pieces.isEmpty { pieces.removeLast() }
        smallPieces = pieces
        smallRows = 0
        coded = nil
        positions = nil
        dependent = nil
        encodedOnly = false
        return true
    }
}
