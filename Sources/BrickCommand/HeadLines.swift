import BrickRequest

/// The request and response heads of each attempt, as `--verbose` prints them on standard error: the
/// request as the library handed it to libcurl (`>` lines) and the head that came back (`<` lines), with
/// secrets redacted.
enum HeadLines {
    /// The logger's standard lists, plus any header whose name says it carries a secret (`X-Token`,
    /// `X-Client-Secret`), since a command line is often pasted into a bug report.
    static func redacted(_ name: String, _ value: String) -> String {
        let lowered = name.lowercased()
        let secretWords = ["token", "secret", "password", "key", "auth", "cookie", "session", "signature"]
        if secretWords.contains(where: lowered.contains) { return Redaction.placeholder }
        return Redaction().header(name, value)
    }

    static func lines(for attempts: [AttemptRecord]) -> [String] {
        var lines: [String] = []
        for (index, attempt) in attempts.enumerated() {
            if attempts.count > 1 { lines.append("* attempt \(index + 1)" + (attempt.repeatReason.map { ", repeated: \($0)" } ?? "")) }
            lines.append("> \(attempt.request.method) \(Redaction().url(attempt.request.url))")
            lines += attempt.request.headers.map { "> \($0.name): \(redacted($0.name, $0.value))" }
            if let head = attempt.head {
                lines.append("< HTTP/\(head.version) \(head.status) \(head.reason)".trimmingTrailingSpaces)
                lines += head.headers.map { "< \($0.name): \(redacted($0.name, $0.value))" }
            } else if let error = attempt.error {
                lines.append("< (no answer: \(error))")
            }
        }
        return lines
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
