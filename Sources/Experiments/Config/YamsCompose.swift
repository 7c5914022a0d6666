import Yams

/// The YAML node tree of config text, for locating key paths in messages.
func composeYAML(_ text: String) throws -> Node? {
    try Yams.compose(yaml: text)
}
