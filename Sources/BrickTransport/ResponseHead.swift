/// The status line and header fields of the final response (after redirects and `100 Continue`).
public struct ResponseHead: Sendable, Equatable {
    /// The status code, for example 200.
    public var status: Int
    /// The HTTP version the server answered with: `"1.0"`, `"1.1"`, `"2"` or `"3"`.
    public var version: String
    /// The reason phrase, empty over HTTP/2.
    public var reason: String
    /// The header fields, in the order they arrived.
    public var headers: HTTPHeaders

    /// Creates a head.
    public init(status: Int, version: String = "1.1", reason: String = "", headers: HTTPHeaders = [:]) {
        self.status = status
        self.version = version
        self.reason = reason
        self.headers = headers
    }
}
