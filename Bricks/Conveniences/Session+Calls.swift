public import FoundationEssentials

/// One-line calls of any method through a session, with `Encodable` parameters and body and a `Decodable`
/// result. Each is a full brick request: the session's base URL, headers, interceptors, error handlers and
/// reachability apply, the response must be 2xx, and `retry` sets its retry rules (a request that is not
/// idempotent is never sent twice).
///
/// ```swift
/// let created = try await api.send(.post, "/users", json: NewUser(name: "Ada"), as: User.self)
/// let page = try await api.send(.get, "/users", query: Page(size: 20, after: cursor), as: [User].self)
/// try await api.send(.delete, "/users/\(id)")
/// ```
extension Session {
    /// Sends a `method` request to `url` and decodes its JSON body as `type`.
    /// - Parameters:
    ///   - method: The method.
    ///   - url: Absolute, or a path against the session's base URL; a `String` or a `URL`.
    ///   - query: Parameters added to the URL's query, from a struct or dictionary (`ParameterEncoder`).
    ///   - json: A body sent as JSON (`Content-Type: application/json`).
    ///   - form: A body sent as `application/x-www-form-urlencoded` fields (`ParameterEncoder`); not with `json`.
    ///   - headers: Fields sent after the session's.
    ///   - retry: The retry rules. Default is `AutoRetryConfiguration/none`.
    ///   - type: The type of the result.
    ///   - encoder: Encodes `json`. Default is `JSONEncoder()`.
    ///   - decoder: Decodes the result. Default is `JSONDecoder()`.
    /// - Throws: `BrickError`: `.requestEncoding` (nothing sent), transport, validation (not 2xx),
    ///   `.serialization` with a `DecodingFailure` that names the member that failed, or a retry failure.
    public func send<Value: Decodable & Sendable>(
        _ method: HTTPMethod, _ url: some URLConvertible, query: (any Encodable & Sendable)? = nil,
        json: (any Encodable & Sendable)? = nil, form: (any Encodable & Sendable)? = nil, headers: HTTPHeaders = [:],
        retry: AutoRetryConfiguration = .none, as type: Value.Type, encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) async throws(BrickError) -> Value {
        let content = QuickContent(query: query, json: json, form: form, jsonEncoder: encoder)
        return try await QuickCall(self, method, url, headers, retry, JSONSerializers.decodable(type, decoder: decoder), content: content)
            .response()
    }

    /// Sends a `method` request to `url` and returns its response (head, body, metrics), as
    /// `send(_:_:query:json:form:headers:retry:as:encoder:decoder:)` sends it, for calls whose answer is
    /// not JSON or not wanted.
    /// - Throws: `BrickError`: `.requestEncoding` (nothing sent), transport, validation (not 2xx), or a retry
    ///   failure.
    @discardableResult
    public func send(
        _ method: HTTPMethod, _ url: some URLConvertible, query: (any Encodable & Sendable)? = nil,
        json: (any Encodable & Sendable)? = nil, form: (any Encodable & Sendable)? = nil, headers: HTTPHeaders = [:],
        retry: AutoRetryConfiguration = .none, encoder: JSONEncoder = JSONEncoder()
    ) async throws(BrickError) -> TransportResponse {
        let content = QuickContent(query: query, json: json, form: form, jsonEncoder: encoder)
        return try await QuickCall(self, method, url, headers, retry, ResponseSerializer { $0 }, content: content).response()
    }
}
