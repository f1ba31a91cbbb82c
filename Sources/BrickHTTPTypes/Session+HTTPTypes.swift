#if HTTPTypes  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import FoundationEssentials
public import HTTPTypes

extension Session {
    /// Sends an `HTTPRequest` with an optional body through the session's whole pipeline (as
    /// `send(_:retry:idempotency:validation:owner:)` does for a request value) and returns the response
    /// as HTTPTypes values.
    /// - Parameters:
    ///   - request: The request; a relative one (no scheme or authority) is resolved against the base URL.
    ///   - body: The body, if any.
    ///   - retry: The retry rules. Default is `AutoRetryConfiguration.none`.
    /// - Throws: `BrickError`; `.transport` with kind `invalidResponse` when the response head cannot be an
    ///   `HTTPResponse`.
    public func send(
        _ request: HTTPRequest, body: Data? = nil, retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> (HTTPResponse, Data) {
        let value = TransportRequest(request, body: body.map(RequestBody.data), options: configuration.transportOptions)
        let response = try await send(value, retry: retry)
        return (try HTTPResponse.checked(response.head), response.body)
    }
}

extension HTTPResponse {
    /// `head` as an `HTTPResponse`, or the typed error a response that cannot be one gets.
    package static func checked(_ head: ResponseHead) throws(BrickError) -> HTTPResponse {
        guard let response = HTTPResponse(head) else {
            throw .transport(TransportError(.invalidResponse, message: "the response head cannot be an HTTPResponse (status \(head.status))"))
        }
        return response
    }
}
#endif
