/// Why a request could not be built; found in ``BrickError/requestEncoding(_:)``. Nothing was sent.
public enum RequestEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file parameter's URL is not a `file:` URL.
    case notAFileURL(String)
    /// The body value could not be encoded (say, a `JSONEncoder` failure); the encoder's explanation.
    case unencodableBody(String)
    /// The parameters cannot go where the request puts them (say, files in a query string).
    case unsupportedParameters(String)
    /// The request asks to be hedged (``Hedging``) but may not be sent twice: its method is not idempotent
    /// and it has no idempotency key.
    case notHedgeable(method: String)
    /// The body was refused where it was to come from (a shared queue's row that names a file): why.
    case refusedBody(String)

    public var description: String {
        switch self {
        case .notAFileURL(let url): "not a file URL: \(url)"
        case .unencodableBody(let reason): "the body cannot be encoded: \(reason)"
        case .unsupportedParameters(let reason): "unsupported parameters: \(reason)"
        case .notHedgeable(let method): "a \(method) request that may not be sent twice cannot be hedged (give it an idempotency key)"
        case .refusedBody(let reason): "the body was refused: \(reason)"
        }
    }
}
