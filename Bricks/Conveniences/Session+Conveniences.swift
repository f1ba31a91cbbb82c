public import FoundationEssentials

/// One-line GETs through a session, for calls that do not deserve a class of their own. Each is a full brick request: the session's base URL, headers,
/// interceptors, error handlers and validation (any 2xx) apply, and `retry` sets its retry rules.
extension Session {
    /// The body of a GET to `url` (absolute, or a path against the session's base URL).
    /// - Throws: ``BrickError``: transport, validation (a status outside 2xx) or retry failures.
    public func data(
        from url: String, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> Data {
        try await QuickGet<Data>(self, url, headers, retry, ResponseSerializer { $0.body }).response()
    }

    /// The body of a GET to `url` parsed as ``JSON``.
    /// - Throws: ``BrickError``; ``ResponseSerializationError`` inside `.serialization` for an empty or invalid body.
    public func json(
        from url: String, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> JSON {
        try await QuickGet(self, url, headers, retry, JSONSerializers.json).response()
    }

    /// The body of a GET to `url` decoded as `type` with `decoder`.
    /// - Throws: ``BrickError``; ``ResponseSerializationError`` inside `.serialization` when it does not decode.
    public func decode<Value: Decodable & Sendable>(
        _ type: Value.Type, from url: String, headers: HTTPHeaders = [:], decoder: JSONDecoder = JSONDecoder(),
        retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> Value {
        try await QuickGet(self, url, headers, retry, JSONSerializers.decodable(type, decoder: decoder)).response()
    }

    /// The body of a GET to `url` as text, in the charset its `Content-Type` names (UTF-8 when none).
    /// - Throws: ``BrickError``; ``ResponseSerializationError/undecodableText(charset:)`` inside `.serialization`.
    public func string(
        from url: String, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> String {
        try await QuickGet(self, url, headers, retry, Charset.serializer(fallback: .utf8)).response()
    }
}

/// The request behind the conveniences: a GET whose parts are given, not declared.
final class QuickGet<Value: Sendable>: Component, GETRequestType, ResponseType {
    let session: Session
    let path: String
    let headers: HTTPHeaders
    let autoRetryConfiguration: AutoRetryConfiguration
    let responseSerializer: ResponseSerializer<Value>

    init(_ session: Session, _ url: String, _ headers: HTTPHeaders, _ retry: AutoRetryConfiguration,
         _ serializer: ResponseSerializer<Value>) {
        self.session = session
        self.path = url
        self.headers = headers
        self.autoRetryConfiguration = retry
        self.responseSerializer = serializer
        super.init()
    }
}
