import QueryEngine

/// A `flags` column read back from a result file (`merge`, `compare`, `--resume`).
///
/// A canonical flags string names a heuristic added after the seed only when it is off
/// (`FlagSpec.alwaysListed`), so a file written before that heuristic existed lacks
/// `NAME=off` where today's string of the same flag set (`all-off`, `seed`) has it. Such a
/// run had no such heuristic, which is what its all-off value means: read back, each later
/// heuristic the string does not name is taken at its all-off value. A name the catalog does
/// not have is still an error.
enum StoredFlags {
    /// `stored` as the config's flag set writes it now (`expected`): `stored` itself, or
    /// `expected` when `stored` with every later heuristic it does not name at its all-off
    /// value is that flag set; nil when it is another one. Throws when `stored` does not
    /// parse (an unknown heuristic, a malformed assignment or value).
    static func reconciled(_ stored: String, expected: String, catalog: HeuristicCatalog = .standard) throws -> String? {
        if stored == expected { return stored }
        let filled = try withLaterHeuristicsOff(stored, catalog: catalog)
        return filled.canonical == expected ? expected : nil
    }

    /// The flag set `text` names (on top of `all-on`, as `parseCanonical`), with every heuristic
    /// added after the seed that it does not name at its all-off value.
    static func withLaterHeuristicsOff(_ text: String, catalog: HeuristicCatalog = .standard) throws -> FlagSet {
        let assignments = text.split(separator: ",").map { part -> String in
            var s = Substring(part)
            while s.first == " " { s = s.dropFirst() }
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
        let named = Set(assignments.map { String($0.prefix { $0 != "=" }) })
        let missing = catalog.flags.filter { $0.laterThanSeed && !named.contains($0.name) }
        return try catalog.flagSet(preset: "all-on", enable: [], disable: [],
                                   assignments: assignments + missing.map { "\($0.name)=\($0.allOff)" })
    }
}
