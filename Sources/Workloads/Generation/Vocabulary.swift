/// Fixed word lists the generators draw names from (part of the generated data, so
/// changing them changes every content hash).
enum Vocabulary {
    static let petNames = [
        "Mickey", "Fido", "Nudges", "Rover", "Pointy", "Whiskers", "Biscuit", "Pepper", "Luna", "Milo",
        "Shadow", "Ginger", "Oscar", "Daisy", "Bella", "Max", "Coco", "Ziggy", "Socks", "Mittens",
        "Buster", "Tiger", "Pickle", "Noodle", "Clover", "Pebble", "Maple", "Olive", "Rusty", "Sunny",
    ]
    static let animals = ["cat", "dog", "fish", "bird", "hamster", "rabbit"]
    static let firstNames = [
        "Jane", "John", "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken",
        "Dennis", "Margaret", "Niklaus", "Tony", "Radia", "Leslie", "Shafi", "Butler", "Fran", "Robin",
    ]
    static let lastNames = [
        "Doe", "Smith", "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson",
        "Ritchie", "Hamilton", "Wirth", "Hoare", "Perlman", "Lamport", "Goldwasser", "Lampson", "Milner", "Codd",
    ]
    static let equipmentKinds = ["laptop", "monitor", "phone", "keyboard", "headset", "dock", "tablet", "chair"]
    static let verbs = ["Buy", "Call", "Write", "Fix", "Read", "Plan", "Review", "Clean", "Book", "Send"]
    static let objects = [
        "groceries", "the report", "a birthday card", "the bike", "chapter 3", "the trip", "the budget",
        "the garage", "tickets", "the invoice", "flowers", "the slides",
    ]
    static let tagWords = ["work", "home", "urgent", "errand", "someday", "health", "money", "family", "reading", "travel"]
    static let statuses = ["pending", "done"]
}
