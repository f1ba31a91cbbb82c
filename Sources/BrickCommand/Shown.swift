/// What of an exchange goes to standard output, by `--print` (HTTPie's letters): `H` the request's head,
/// `B` the request's body, `h` the response's head, `b` the response's body. Without `--print`: the
/// response's head and body on a terminal, its body alone when the output is piped or redirected.
struct Shown: Sendable, Equatable {
    var requestHead = false
    var requestBody = false
    var responseHead = false
    var responseBody = false

    /// `--print WHAT`: any of the letters `HBhb`, at least one.
    init(parsing letters: String) throws(UsageError) {
        guard !letters.isEmpty else { throw UsageError("--print takes some of the letters H, B, h and b") }
        for letter in letters {
            switch letter {
            case "H": requestHead = true
            case "B": requestBody = true
            case "h": responseHead = true
            case "b": responseBody = true
            default: throw UsageError("--print takes the letters H (request head), B (request body), h (response head) and b (response body), not \(letter)")
            }
        }
    }

    /// What is shown without `--print`.
    static func byDefault(terminal: Bool) -> Shown {
        var shown = Shown()
        shown.responseHead = terminal
        shown.responseBody = true
        return shown
    }

    private init() {}
}
