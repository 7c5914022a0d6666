import Relational

/// At least 30 hand-built relation graphs, each a name and a function making its outputs
/// over fresh sources: shared subexpressions, self-joins, unions of renamed relations,
/// differences, intersections, empty relations, nulls in join keys, selects over unions
/// over differences, chains of joins, literal relations.
enum HandcraftedGraphs {
    typealias Graph = (name: String, make: @Sendable () throws -> [Relation])

    static let all: [Graph] = [
        ("seed document parent", {
            let docs = try Tables.people().rename(["boss": "parent_id"])
            let selected = try Tables.make("selected", ["id"], [[4]])
            let doc = try selected.join(docs)
            let parent = try doc.project(["parent_id"]).rename(["parent_id": "id"])
            return [try parent.join(docs)]
        }),
        ("pets minus removed select cat", {
            let added = try Tables.pets("added", [[5, "mo", "cat"], [2, "rex", "dog"]])
            let removed = try Tables.pets("removed", [[3, "kit", "cat"]])
            return [try Tables.pets().union(added).difference(removed).select(Attribute("animal") *== "cat")]
        }),
        ("self-join through a rename: each person's boss", {
            let people = try Tables.people()
            let bosses = try people.rename(["id": "boss", "name": "boss_name", "boss": "grand_boss"])
            return [try people.join(bosses)]
        }),
        ("natural self-join", { let p = try Tables.people(); return [try p.join(p)] }),
        ("nulls in join keys", { [try Tables.keys().join(Tables.other())] }),
        ("equijoin on differently named keys with nulls", {
            [try Tables.keys().equijoin(Tables.other().rename(["k": "k2"]), matching: [JoinPair("k", "k2")])]
        }),
        ("shared select used by a join and a union", {
            let cats = try Tables.pets().select(Attribute("animal") *== "cat")
            let names = try cats.project(["id", "name"])
            return [try names.union(names.select(Attribute("id") *> 1)), try cats.join(Tables.people().project(["id"]))]
        }),
        ("shared node with two outputs", {
            let s = try Tables.people().select(Attribute("boss") *== 1)
            return [s, try s.project(["name"])]
        }),
        ("union of renamed relations", {
            let a = try Tables.pets().project(["id", "name"])
            let b = try Tables.people().project(["id", "boss"]).rename(["boss": "name"])
            return [try a.union(b)]
        }),
        ("difference of a relation with itself", { let p = try Tables.pets(); return [try p.difference(p)] }),
        ("intersection with a renamed copy", {
            let p = try Tables.people().project(["id", "boss"])
            let swapped = try p.rename(["id": "boss", "boss": "id"])
            return [try p.intersection(swapped), try p.union(swapped)]
        }),
        ("empty relation joined", { [try Tables.empty().join(Tables.pets())] }),
        ("empty relation unioned and subtracted", {
            let p = try Tables.pets()
            return [try p.union(Tables.empty()).difference(Tables.empty())]
        }),
        ("minus empty then select", {
            [try Tables.pets().difference(Tables.empty()).select(Attribute("id") *>= 2)]
        }),
        ("select over union over difference", {
            let added = try Tables.pets("added", [[5, "mo", "cat"], [6, "zed", "dog"]])
            let removed = try Tables.pets("removed", [[1, "tom", "cat"], [6, "zed", "dog"]])
            let p = Predicate.any([Attribute("animal") *== "dog", Attribute("id") *< 3])
            return [try Tables.pets().union(added.difference(removed)).select(p)]
        }),
        ("chain of three joins", {
            let people = try Tables.people()
            let boss = try people.rename(["id": "boss", "name": "bn", "boss": "gb"])
            let grand = try people.rename(["id": "gb", "name": "gn", "boss": "ggb"])
            return [try people.join(boss).join(grand)]
        }),
        ("chain of joins over a literal", {
            let lit = try Tables.make("literal", ["id"], [[2], [4]])
            let people = try Tables.people()
            let boss = try people.project(["id", "boss"]).rename(["id": "x", "boss": "id"])
            return [try lit.join(people).join(boss)]
        }),
        ("literal relation alone", { [try Tables.make("literal", ["a", "b"], [[1, nil], [nil, "t"], [2.5, .blob([0])]])] }),
        ("one-row literal join filter", {
            [try Tables.make("literal", ["id"], [[3]]).join(Tables.pets())]
        }),
        ("cross product", {
            [try Tables.make("l", ["x"], [[1], [2]]).join(Tables.make("r", ["y"], [[nil], ["a"], [3]]))]
        }),
        ("project creating duplicates", { [try Tables.pets().project(["animal"])] }),
        ("project of a join feeding a join", {
            let pairs = try Tables.keys().join(Tables.other()).project(["v", "w"])
            return [try pairs.join(Tables.make("ws", ["w"], [["x"], ["y"], [nil]]))]
        }),
        ("select with and/or/not across types", {
            let p = Predicate.all([
                .not(Attribute("k") *== nil),
                Predicate.any([Attribute("k") *< "a", Attribute("k") *>= .blob([])]),
            ])
            return [try Tables.keys().select(p), try Tables.other().select(.not(p))]
        }),
        ("select comparing two attributes", {
            [try Tables.people().select(.comparison(.attribute("id"), .greater, .attribute("boss")))]
        }),
        ("constant selects", {
            let p = try Tables.pets()
            return [try p.select(.true), try p.select(.false).union(p.select(Attribute("id") *== 9))]
        }),
        ("shared subtree under two joins (subtree copying)", {
            let people = try Tables.people()
            let sel1 = try Tables.make("s1", ["id"], [[2]])
            let sel2 = try Tables.make("s2", ["id"], [[5]])
            return [try sel1.join(people), try sel2.join(people)]
        }),
        ("shared union under selects", {
            let u = try Tables.pets().union(Tables.pets("more", [[7, "al", "cat"]]))
            return [try u.select(Attribute("animal") *== "cat"), try u.select(Attribute("id") *== 2)]
        }),
        ("nested unions", {
            let a = try Tables.pets("a", [[1, "x", "cat"]])
            let b = try Tables.pets("b", [[2, "y", "dog"]])
            let c = try Tables.pets("c", [[1, "x", "cat"], [3, "z", "cat"]])
            let inner = try a.union(b)
            return [try inner.union(c).union(inner)]
        }),
        ("union of a node with itself", { let p = try Tables.pets(); return [try p.union(p).select(Attribute("id") *< 3)] }),
        ("difference whose right side is a join", {
            let ids = try Tables.people().project(["id"])
            let withPets = try ids.join(Tables.pets().project(["id"]))
            return [try ids.difference(withPets)]
        }),
        ("intersection of selects of one source", {
            let p = try Tables.pets()
            return [try p.select(Attribute("id") *<= 3).intersection(p.select(Attribute("animal") *!= "dog"))]
        }),
        ("rename then select then join back", {
            let people = try Tables.people()
            let renamed = try people.rename(["name": "n"]).select(Attribute("n") *> "b")
            return [try renamed.project(["id", "n"]).join(people)]
        }),
        ("null keyed self-join of keys", {
            let k = try Tables.keys()
            return [try k.join(k.rename(["v": "v2"]))]
        }),
        ("empty operand of an intersection and a join filter", {
            let e = try Tables.empty(["k", "v"])
            return [try Tables.keys().intersection(e), try e.project(["k"]).join(Tables.other())]
        }),
    ]
}
