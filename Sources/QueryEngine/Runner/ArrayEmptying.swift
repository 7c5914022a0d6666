extension Array {
    /// Empties the array keeping its storage, as `removeAll(keepingCapacity: true)` does.
    /// That call takes the standard library's generic range replacement (a few hundred
    /// instructions even for an empty array); the short lists a run empties (a join table's
    /// few rows, the hook timer's called slots) are emptied one element at a time instead,
    /// and an empty one is left alone.
    @inline(__always)
    mutating func emptyKeepingCapacity() {
        if count > 16 {
            removeAll(keepingCapacity: true)
            return
        }
        while !isEmpty { removeLast() }
    }
}
