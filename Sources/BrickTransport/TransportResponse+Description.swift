extension TransportResponse: CustomStringConvertible, CustomDebugStringConvertible {
    /// What `print` shows: `200, 100 bytes (GET "https://api.example.test/users")`, the call left out when the
    /// response came from no session's call; the URL as errors write it (its query and user info left out).
    public var description: String {
        let size = body.count == 1 ? "1 byte" : "\(body.count) bytes"
        return "\(head.status), \(size)" + (call.map { " (\($0))" } ?? "")
    }

    /// What `debugPrint` and the debugger show: ``description`` with the HTTP version and the number of
    /// header fields.
    public var debugDescription: String {
        let fields = head.headers.count
        return "TransportResponse(\(description), HTTP/\(head.version), \(fields) header field\(fields == 1 ? "" : "s"))"
    }
}
