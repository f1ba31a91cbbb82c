public import FoundationEssentials

/// One-line GETs through a session, for calls that do not deserve a class of their own. Each is a full brick request: the session's base URL, headers,
/// interceptors, error handlers and validation (any 2xx) apply, and `retry` sets its retry rules.
extension Session {
    /// The body of a GET to `url` (absolute, or a path against the session's base URL).
    /// - Throws: `BrickError`: transport, validation (a status outside 2xx) or retry failures.
    public func data(
        from url: some URLConvertible, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> Data {
        try await QuickCall<Data>(self, .get, url, headers, retry, ResponseSerializer { $0.body }).response()
    }

    /// The body of a GET to `url` parsed as `JSON`.
    /// - Throws: `BrickError`; `ResponseSerializationError` inside `.serialization` for an empty or invalid body.
    public func json(
        from url: some URLConvertible, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> JSON {
        try await QuickCall(self, .get, url, headers, retry, JSONSerializers.json).response()
    }

    /// The body of a GET to `url` decoded as `type` with `decoder`.
    /// - Throws: `BrickError`; `ResponseSerializationError` inside `.serialization` when it does not decode.
    public func decode<Value: Decodable & Sendable>(
        _ type: Value.Type, from url: some URLConvertible, headers: HTTPHeaders = [:], decoder: JSONDecoder = JSONDecoder(),
        retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> Value {
        try await QuickCall(self, .get, url, headers, retry, JSONSerializers.decodable(type, decoder: decoder)).response()
    }

    /// The body of a GET to `url` as text, in the charset its `Content-Type` names (UTF-8 when none).
    /// - Throws: `BrickError`; `ResponseSerializationError/undecodableText(charset:)` inside `.serialization`.
    public func string(
        from url: some URLConvertible, headers: HTTPHeaders = [:], retry: AutoRetryConfiguration = .none
    ) async throws(BrickError) -> String {
        try await QuickCall(self, .get, url, headers, retry, Charset.serializer(fallback: .utf8)).response()
    }
}

/// The request behind the one-line calls: its parts are given, not declared.
final class QuickCall<Value: Sendable>: Component, RequestType, ResponseType {
    let session: Session
    let method: HTTPMethod
    let path: String
    let headers: HTTPHeaders
    let autoRetryConfiguration: AutoRetryConfiguration
    let responseSerializer: ResponseSerializer<Value>
    let content: QuickContent

    init(_ session: Session, _ method: HTTPMethod, _ url: some URLConvertible, _ headers: HTTPHeaders,
         _ retry: AutoRetryConfiguration, _ serializer: ResponseSerializer<Value>, content: QuickContent = QuickContent()) {
        self.session = session
        self.method = method
        self.path = url.urlString
        self.headers = headers
        self.autoRetryConfiguration = retry
        self.responseSerializer = serializer
        self.content = content
        super.init()
    }

    func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try content.encode(into: &request)
    }
}

/// What a one-line call sends besides its URL and headers: query parameters and a JSON or form body, each
/// from an `Encodable` value.
struct QuickContent: Sendable {
    var query: (any Encodable & Sendable)?
    var json: (any Encodable & Sendable)?
    var form: (any Encodable & Sendable)?
    var jsonEncoder = JSONEncoder()

    func encode(into request: inout TransportRequest) throws(RequestEncodingError) {
        if let query { try ParameterEncoding.query(try ParameterEncoder().encode(query), into: &request) }
        switch (json, form) {
        case (nil, nil): break
        case (let json?, nil):
            do { request.body = .data(try jsonEncoder.encode(json)) } catch { throw .unencodableBody(String(describing: error)) }
            ParameterEncoding.setKnownContentType("application/json", on: &request)
        case (nil, let form?): ParameterEncoding.formURLEncoded(try ParameterEncoder().encode(form), into: &request)
        case (.some, .some): throw .unsupportedParameters("a call sends one body: json or form, not both")
        }
    }
}
