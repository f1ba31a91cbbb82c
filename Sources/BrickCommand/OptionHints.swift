/// What `brick` says of an option it does not know: the brick way of what curl's or HTTPie's option does,
/// or the known option closest in spelling.
enum OptionHints {
    /// Options of curl and HTTPie that brick spells otherwise, or needs not.
    static let habits: [String: String] = [
        "-O": "--download saves the body under the URL's last path segment: brick -d URL",
        "-k": "brick never turns TLS verification off; trust a certificate authority with --cacert FILE",
        "--insecure": "brick never turns TLS verification off; trust a certificate authority with --cacert FILE",
        "--verify": "brick always verifies TLS; trust a certificate authority with --cacert FILE",
        "--check-status": "brick already exits with 4 for a 4xx answer and 5 for a 5xx",
        "--fail": "brick already exits with 4 for a 4xx answer and 5 for a 5xx",
        "--data": "send fields as items: name=text (a string), name:=36 (JSON), or --json TEXT",
        "--data-raw": "send the body with --json TEXT, or from standard input: brick URL < FILE",
        "--data-binary": "send the body from standard input: brick URL < FILE",
        "-u": "-a USER:PASSWORD (or -a USER, asked for the password)",
        "--user": "-a USER:PASSWORD (or -a USER, asked for the password)",
        "-i": "-p Hhb shows the heads with the body",
        "--include": "-p Hhb shows the heads with the body",
        "-m": "--timeout SECONDS",
        "--max-time": "--timeout SECONDS",
        "--follow-all": "brick follows redirects by default (--max-redirects N, --no-follow)",
        "--all": "-v shows every exchange, each redirect's included",
    ]

    /// The message for `option`, which brick does not know.
    static func unknown(_ option: String) -> String {
        if let habit = habits[option] { return "unknown option \(option): \(habit)" }
        let known = Completion.options.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }
        let closest = known.map { (name: $0, distance: distance($0, option)) }.min { $0.distance < $1.distance }
        if let closest, closest.distance <= max(2, option.count / 4) { return "unknown option \(option): did you mean \(closest.name)?" }
        return "unknown option \(option)"
    }

    /// The edit distance between `a` and `b` (insertions, deletions and substitutions); options are short.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8.prefix(64)), b = Array(b.utf8.prefix(64))
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() { current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))) }
            previous = current
        }
        return previous[b.count]
    }
}
