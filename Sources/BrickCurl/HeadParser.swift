import BrickTransport

/// Builds the final response head from the header lines libcurl hands over one by one.
///
/// libcurl passes every header block it sees (`100 Continue`, each redirect, the final response), each
/// starting with a status line; a new status line starts a new head, so the last one is the final head.
struct HeadParser {
    /// The head being built, or the last complete one.
    private(set) var head: ResponseHead?

    /// Feeds one header line, with or without its trailing CRLF.
    mutating func feed(_ rawLine: Substring) {
        let line = rawLine.trimmingSuffix { $0.isNewline }
        if line.hasPrefix("HTTP/") {
            head = Self.parseStatusLine(line)
        } else if line.isEmpty {
            return
        } else if line.first == " " || line.first == "\t" {
            // obs-fold: a continuation of the previous field's value.
            guard var current = head, let last = current.headers.fields.last else { return }
            var fields = current.headers.fields
            fields[fields.count - 1].value = last.value + " " + line.trimmingWhitespace()
            current.headers = HTTPHeaders(fields)
            head = current
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingWhitespace()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            head?.headers.add(name: name, value: value)
        }
    }

    /// Parses `HTTP/1.1 200 OK` or `HTTP/2 204`; a status that is not a number becomes 0.
    static func parseStatusLine(_ line: Substring) -> ResponseHead {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        let version = parts.first.map { String($0.dropFirst("HTTP/".count)) } ?? ""
        let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let reason = parts.count > 2 ? String(parts[2]) : ""
        return ResponseHead(status: status, version: version, reason: reason)
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
        var result = self
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }

    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).trimmingSuffix(while: isSpace))
    }
}
