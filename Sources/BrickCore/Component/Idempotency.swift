/// Whether a request may be sent again once it may have reached the server.
///
/// A request that never left (refused, no route, DNS) may always be retried. One that may have reached the
/// server (the connection broke, a timeout, a 5xx answer) is retried only if sending it twice is harmless.
public enum Idempotency: Sendable, Equatable {
    /// Harmless if the method is idempotent: GET, HEAD, OPTIONS, TRACE, PUT, DELETE.
    case byMethod
    /// Harmless whatever the method: the request's author says so.
    case idempotent
    /// Made harmless by a key the server de-duplicates on: a new random value in header `header`, the same
    /// on every attempt of one call.
    case key(header: String)

    /// Whether a request with `method` may be repeated after it may have reached the server.
    public func allowsRepeat(of method: HTTPMethod) -> Bool {
        switch self {
        case .byMethod: method.isIdempotent
        case .idempotent, .key: true
        }
    }

    /// Whether `request`, as it is sent, may be repeated after it may have reached the server: judged on its
    /// method as sent (an interceptor may have changed it), and for ``key(header:)`` on the key being there.
    public func allowsRepeat(of request: TransportRequest) -> Bool {
        switch self {
        case .byMethod: request.method.isIdempotent
        case .idempotent: true
        case .key(let header): request.headers[header] != nil || request.method.isIdempotent
        }
    }
}
