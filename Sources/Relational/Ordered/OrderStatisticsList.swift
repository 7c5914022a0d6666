/// A sorted list of distinct elements with O(log n) insertion, removal and rank.
///
/// It is a two-level B-tree: sorted chunks of at most `chunkCapacity` elements, plus a
/// Fenwick tree over the chunk sizes so that the position of a chunk's first element is a
/// prefix sum. Chunks keep elements contiguous (cheap comparisons, little memory); a chunk
/// that overflows splits in two and an emptied chunk is dropped, and only then is the
/// Fenwick tree rebuilt (O(number of chunks), amortised over the chunk's capacity).
///
/// swift-collections' `SortedSet` is a B-tree too, but in 1.6.0 it is behind the
/// `UnstableSortedCollections` trait and marked "not ready for use in production"; it also
/// has no rank query, which is the operation ordered views need.
public struct OrderStatisticsList<Element> {
    public typealias Less = (Element, Element) -> Bool

    public static var chunkCapacity: Int { 512 }

    private var chunks: [[Element]] = []
    private var fenwick: [Int] = []
    private let less: Less
    public private(set) var count = 0

    /// A list of `sorted`, which must be in strictly increasing order under `less`.
    public init(sorted: [Element], less: @escaping Less) {
        self.less = less
        var start = 0
        let half = Self.chunkCapacity / 2
        while start < sorted.count {
            let end = Swift.min(sorted.count, start + half)
            chunks.append(Array(sorted[start..<end]))
            start = end
        }
        count = sorted.count
        rebuildFenwick()
    }

    /// A list of `elements` in any order (duplicates under `less` are kept once).
    public init(_ elements: some Sequence<Element>, less: @escaping Less) {
        var sorted = elements.sorted(by: less)
        var kept = 0
        for i in sorted.indices where kept == 0 || less(sorted[kept - 1], sorted[i]) {
            sorted[kept] = sorted[i]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        self.init(sorted: sorted, less: less)
    }

    public var isEmpty: Bool { count == 0 }

    /// Every element in order.
    public var elements: [Element] { chunks.flatMap { $0 } }

    /// The position `element` has in the list, or nil when it is not there.
    public func rank(of element: Element) -> Int? {
        guard let c = chunkIndex(for: element) else { return nil }
        let i = lowerBound(element, in: chunks[c])
        guard i < chunks[c].count, !less(element, chunks[c][i]) else { return nil }
        return prefix(c) + i
    }

    /// The element at position `index` (0 ≤ index < count).
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "OrderStatisticsList index out of range")
        let (c, offset) = locate(index)
        return chunks[c][offset]
    }

    /// Inserts `element`; returns its position, or nil (and changes nothing) if it was there.
    @discardableResult
    public mutating func insert(_ element: Element) -> Int? {
        if chunks.isEmpty {
            chunks = [[element]]
            count = 1
            rebuildFenwick()
            return 0
        }
        let c = chunkIndex(for: element) ?? chunks.count - 1
        let i = lowerBound(element, in: chunks[c])
        if i < chunks[c].count, !less(element, chunks[c][i]) { return nil }
        let position = prefix(c) + i
        chunks[c].insert(element, at: i)
        count += 1
        if chunks[c].count > Self.chunkCapacity {
            let upper = Array(chunks[c][(chunks[c].count / 2)...])
            chunks[c].removeLast(upper.count)
            chunks.insert(upper, at: c + 1)
            rebuildFenwick()
        } else {
            add(1, at: c)
        }
        return position
    }

    /// Removes `element`; returns the position it had, or nil if it was not there.
    @discardableResult
    public mutating func remove(_ element: Element) -> Int? {
        guard let c = chunkIndex(for: element) else { return nil }
        let i = lowerBound(element, in: chunks[c])
        guard i < chunks[c].count, !less(element, chunks[c][i]) else { return nil }
        let position = prefix(c) + i
        chunks[c].remove(at: i)
        count -= 1
        if chunks[c].isEmpty {
            chunks.remove(at: c)
            rebuildFenwick()
        } else {
            add(-1, at: c)
        }
        return position
    }

    // MARK: - Chunks

    /// The first chunk whose last element is not below `element`; nil when every chunk's
    /// last element is below it (the element would go after the end).
    private func chunkIndex(for element: Element) -> Int? {
        var low = 0, high = chunks.count
        while low < high {
            let mid = (low + high) / 2
            if let last = chunks[mid].last, less(last, element) { low = mid + 1 } else { high = mid }
        }
        return low < chunks.count ? low : nil
    }

    private func lowerBound(_ element: Element, in chunk: [Element]) -> Int {
        var low = 0, high = chunk.count
        while low < high {
            let mid = (low + high) / 2
            if less(chunk[mid], element) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    // MARK: - Fenwick tree over chunk sizes

    private mutating func rebuildFenwick() {
        fenwick = [Int](repeating: 0, count: chunks.count + 1)
        for (c, chunk) in chunks.enumerated() {
            let i = c + 1
            fenwick[i] += chunk.count
            let parent = i + (i & -i)
            if parent <= chunks.count { fenwick[parent] += fenwick[i] }
        }
    }

    private mutating func add(_ delta: Int, at chunk: Int) {
        var i = chunk + 1
        while i < fenwick.count {
            fenwick[i] += delta
            i += i & -i
        }
    }

    /// The number of elements in chunks before `chunk`.
    private func prefix(_ chunk: Int) -> Int {
        var sum = 0, i = chunk
        while i > 0 {
            sum += fenwick[i]
            i -= i & -i
        }
        return sum
    }

    /// The chunk holding position `index` and the offset within it.
    private func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        var position = 0, remaining = index
        var step = 1
        while step * 2 < fenwick.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < fenwick.count, fenwick[next] <= remaining {
                position = next
                remaining -= fenwick[next]
            }
            step /= 2
        }
        return (position, remaining)
    }
}
