import BrickRequest

/// The request and response heads of each attempt, as `--verbose` prints them on standard error: the
/// request as the library handed it to libcurl (`>` lines) and the head that came back (`<` lines), with
/// secrets redacted.
enum HeadLines {
    /// The logger's standard lists, plus any header whose name says it carries a secret (`X-Token`,
    /// `X-Client-Secret`, `X-Custom-Credential`: `Secrets.soundsSecret`, the words a cassette judges names by
    /// too), since a command line is often pasted into a bug report; a URL in `Location` or
    /// `Content-Location` has its secret query values (an OAuth `code=`) and its password hidden. A standard
    /// field whose meaning is known is judged by it, not by the words in its name (`Secrets.meaningfulFields`).
    /// Control characters are shown escaped, never written (``TerminalText``).
    static func redacted(_ name: String, _ value: String) -> String {
        let lowered = name.lowercased()
        if Secrets.soundsSecret(lowered) { return Redaction.placeholder }
        if lowered == "location" || lowered == "content-location" { return TerminalText.visible(url(value)) }
        return TerminalText.visible(Redaction().header(name, value))
    }

    /// A head's status line, as it came, made safe to print.
    static func statusLine(_ head: ResponseHead) -> String {
        TerminalText.visible("HTTP/\(head.version) \(head.status) \(head.reason)".trimmingTrailingSpaces)
    }

    /// Each attempt's exchange; the last one's redirects (`redirects`, as ``TransportResponse/redirects``
    /// lists them) each as an exchange of its own, before the request that got the last answer.
    static func lines(for attempts: [AttemptRecord], redirects: [RedirectHop] = []) -> [String] {
        var lines: [String] = []
        for (index, attempt) in attempts.enumerated() {
            if attempts.count > 1 { lines.append("* attempt \(index + 1)" + (attempt.repeatReason.map { ", repeated: \($0)" } ?? "")) }
            var request = attempt.request
            if index == attempts.count - 1, let last = redirects.last {
                for (number, hop) in redirects.enumerated() {
                    lines += requestLines(hop.request) + headLines(hop.head)
                    lines.append("* redirect \(number + 1) of \(redirects.count)")
                }
                // The request that got the last answer, as the redirect rule made it from the last hop.
                request = (try? RedirectRule.next(after: last.head, of: last.request, hops: redirects.count - 1)) ?? request
            }
            lines += requestLines(request)
            if let head = attempt.head {
                lines += headLines(head)
            } else if let error = attempt.error {
                lines.append("< (no answer: \(TerminalText.visible("\(error)")))")
            }
        }
        return lines
    }

    private static func requestLines(_ request: TransportRequest) -> [String] {
        ["> \(request.method) \(TerminalText.visible(url(request.url)))"]
            + request.headers.map { "> \(TerminalText.visible($0.name)): \(redacted($0.name, $0.value))" }
    }

    /// `url` with its password and the values of query items that the logger's list names or whose names
    /// sound secret (`Secrets.soundsSecret`) hidden.
    private static func url(_ url: String) -> String {
        Secrets.url(url) { Redaction.standardQuery.contains($0) || Secrets.soundsSecret($0) }
    }

    private static func headLines(_ head: ResponseHead) -> [String] {
        ["< " + statusLine(head)] + head.headers.map { "< \(TerminalText.visible($0.name)): \(redacted($0.name, $0.value))" }
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
