import BrickTransport
import FoundationEssentials

/// The HTTP/1.1 head of an upgrade request as the engine writes it on a connection libcurl made, and the
/// head of the answer as read back from it. Pure: bytes in, values out.
enum HandshakeHead {
    /// The request line (`GET /path?query HTTP/1.1`, the fragment left out), `Host` unless the request has
    /// one, `Upgrade` with the slot's protocol and `Connection: Upgrade`, then the request's fields in their
    /// order (``TransportRequest/validate()`` refused any that would frame the message), then the empty line.
    static func bytes(of request: TransportRequest, upgradeProtocol: String) -> Data {
        let (host, target) = hostAndTarget(of: request.url)
        var text = "\(request.method.rawValue) \(target) HTTP/1.1\r\n"
        if request.headers["Host"] == nil { text += "Host: \(host)\r\n" }
        text += "Upgrade: \(upgradeProtocol)\r\nConnection: Upgrade\r\n"
        for field in request.headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// The authority without user information, and the path with its query (`/` when empty), of an
    /// absolute URL that ``TransportRequest/validate()`` accepted.
    static func hostAndTarget(of url: String) -> (host: String, target: String) {
        var afterScheme = url[...]
        if let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") {
            afterScheme = url[url.index(colon, offsetBy: 3)...]
        }
        let ends: Set<Character> = ["/", "?", "#"]
        let authorityEnd: Substring.Index = afterScheme.firstIndex(where: ends.contains) ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var target = afterScheme[authorityEnd...]
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        let path = target.hasPrefix("/") ? String(target) : "/" + target
        return (String(authority), path)
    }

    /// Where the head in `bytes` ends (the index after its empty line), or `nil` while it is incomplete.
    static func end(in bytes: Data) -> Int? {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for (index, byte) in zip(bytes.indices, bytes) {
            if byte == 0x0A, previous == 0x0A || (previous == 0x0D && beforePrevious == 0x0A) {
                return index + 1 - bytes.startIndex
            }
            beforePrevious = previous
            previous = byte
        }
        return nil
    }

    /// Parses a complete head: the status line, then `Name: value` fields (lines folded onto the one
    /// before, which HTTP/1.1 no longer allows, are refused).
    /// - Throws: ``TransportError`` of kind `invalidResponse`.
    static func parse(_ bytes: Data) throws(TransportError) -> ResponseHead {
        // Lines cut at LF as bytes (as text, CR LF is one character), a CR before it dropped.
        var lines: [Substring] = []
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = raw.last == 0x0D ? raw.dropLast() : raw
            lines.append(Substring(String(decoding: line, as: UTF8.self)))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw invalid("the head is empty") }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]), status >= 100 else {
            throw invalid("the status line is not HTTP/1.x: \(statusLine.prefix(80))")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let first = line.first, first != " ", first != "\t", let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw invalid("a header line is not a field: \(line.prefix(80))")
            }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            let trimmed = value.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            headers.add(name: String(line[..<colon]), value: String(trimmed))
        }
        let version = String(parts[0].dropFirst(5))
        return ResponseHead(status: status, version: version, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }

    private static func invalid(_ why: String) -> TransportError {
        TransportError(.invalidResponse, message: "the answer to the upgrade request is not HTTP: \(why)")
    }
}
