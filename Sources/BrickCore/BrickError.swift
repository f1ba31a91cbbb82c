/// The error of a BrickRequest call: the transport failed, or the response could not be serialized.
public enum BrickError: Error, Sendable, CustomStringConvertible {
    /// The request could not be sent or its response not received: see ``TransportError/kind``, libcurl's
    /// code and the OS errno.
    case transport(TransportError)
    /// A response arrived but could not become the requested value; the raw response is kept.
    case serialization(any Error, response: TransportResponse)

    /// The transport error, if that is what this is.
    public var transportError: TransportError? {
        if case .transport(let error) = self { error } else { nil }
    }

    /// Whether the request was cancelled.
    public var isCancelled: Bool { transportError?.kind == .cancelled }

    /// The raw response, when one arrived.
    public var response: TransportResponse? {
        if case .serialization(_, let response) = self { response } else { nil }
    }

    public var description: String {
        switch self {
        case .transport(let error): "transport error: \(error)"
        case .serialization(let error, let response):
            "cannot serialize the response (status \(response.head.status), \(response.body.count) bytes): \(error)"
        }
    }
}
