/// Which call an error or a response belongs to: the request's method and URL, shown in error descriptions
/// as `GET "https://api.example.com/users/…"` (the URL without user info, query or fragment, which may hold
/// secrets: ``TransportRequest/forMessages(_:)``).
public struct CallLine: Sendable, Equatable, CustomStringConvertible {
    /// The request's method.
    public let method: HTTPMethod
    /// The URL as sent, secrets included: only ``description`` leaves them out.
    public let url: String

    /// The call that sends `request`.
    public init(_ request: TransportRequest) {
        method = request.method
        url = request.url
    }

    public var description: String { "\(method.rawValue) \(TransportRequest.forMessages(url))" }
}
