/// "Did you mean" support: the candidate closest to a misspelt name, if it is close enough
/// to be a plausible typo (edit distance at most a third of the name's length, minimum 1).
public func closestMatch(to name: String, among candidates: [String]) -> String? {
    let limit = max(1, name.count / 3)
    var best: (String, Int)?
    for candidate in candidates.sorted() {
        let d = editDistance(name.lowercased(), candidate.lowercased())
        if d <= limit && (best == nil || d < best!.1) { best = (candidate, d) }
    }
    return best?.0
}

/// Levenshtein distance over characters.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
