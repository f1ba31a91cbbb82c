/// A request as the loopback server received it.
public struct ServerRequest: Sendable {
    /// The method, for example `GET`.
    public var method: String
    /// The path without the query, percent-encoding kept.
    public var path: String
    /// The raw query after `?`, or `""`.
    public var query: String
    /// The header fields in arrival order.
    public var headers: [(name: String, value: String)]
    /// The body (read by `Content-Length`).
    public var body: [UInt8]

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A response for the loopback server to send; `Content-Length` is added.
public struct ServerResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response from already-encoded JSON text.
    public static func json(_ text: String, status: Int = 200) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> ServerResponse {
        ServerResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }
}

/// Reads HTTP/1.1 requests from a byte stream: pure, so that it can be tested without sockets.
struct RequestParser {
    private var buffer: [UInt8] = []

    /// Adds received bytes.
    mutating func append(_ bytes: some Collection<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next complete request, `nil` if more bytes are needed.
    /// - Throws: ``ParseError`` when the bytes are not an HTTP request.
    mutating func next() throws(ParseError) -> ServerRequest? {
        guard let headEnd = Self.find([13, 10, 13, 10], in: buffer) else {
            if buffer.count > 64 * 1024 { throw .headTooLarge }
            return nil
        }
        let lines = String(decoding: buffer[..<headEnd], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { throw .badRequestLine }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .badHeader }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: " \t")))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.map { Int($0.value) ?? -1 } ?? 0
        guard length >= 0 else { throw .badHeader }
        let bodyStart = headEnd + 4
        guard buffer.count >= bodyStart + length else { return nil }
        let target = requestLine[1]
        let queryStart = target.firstIndex(of: "?")
        let request = ServerRequest(
            method: String(requestLine[0]), path: String(target[..<(queryStart ?? target.endIndex)]),
            query: queryStart.map { String(target[target.index(after: $0)...]) } ?? "",
            headers: headers, body: Array(buffer[bodyStart..<(bodyStart + length)]))
        buffer.removeFirst(bodyStart + length)
        return request
    }

    enum ParseError: Error { case headTooLarge, badRequestLine, badHeader }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if bytes[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
