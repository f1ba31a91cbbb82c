/// The error of a BrickRequest call: the transport failed, or the response could not be serialized.
///
/// Every case is stored indirectly, so that the error is one reference wide: results and outcomes carry a
/// `BrickError` through every step of a call, and each async step's frame stays allocated while the request
/// is on its way. The library may add cases in a minor version: switch with a `default` (or read
/// ``rootCause`` and ``transportError``).
public indirect enum BrickError: Error, Sendable, CustomStringConvertible {
    /// The request could not be sent or its response not received: see `TransportError.kind`, libcurl's
    /// code and the OS errno.
    case transport(TransportError)
    /// A response arrived but could not become the requested value; the raw response is kept.
    case serialization(any Error, response: TransportResponse)
    /// A response arrived but its status or content type is not acceptable (``RequestType/validation``);
    /// the raw response is kept.
    case validation(ResponseValidationError, response: TransportResponse)
    /// The request could not be built (its body or parameters failed to encode); nothing was sent.
    case requestEncoding(RequestEncodingError)
    /// An interceptor failed while adapting the request, or refused the response (for example a failed
    /// token refresh); its error is kept. Nothing more was sent.
    case interceptor(any Error)
    /// The request's retry rules gave up: retries spent, the host unreachable, the deadline passed. Every
    /// attempt and the last error are kept (``RetryFailure/lastError``).
    case gaveUp(RetryFailure)
    /// A download's file could not be opened, written or moved into place; what arrived so far is kept
    /// for a later resume where possible.
    case file(FileError)
    /// A request with ``CacheMode/cacheOnly`` found nothing stored for its URL; nothing was sent.
    case notCached(url: String)
    /// The session is shutting down (``Session/shutdown(gracePeriod:)``): the request was not sent.
    case shutDown
    /// The request's origin held it back: its circuit breaker is open, or a `Retry-After` asked calls to
    /// wait and this one may not (``OriginProtection``). The request was not sent.
    case heldBack(HeldBack)

    /// The transport error, if that is what this is.
    public var transportError: TransportError? {
        if case .transport(let error) = self { error } else { nil }
    }

    /// The error behind the retries: the last attempt's error for ``gaveUp(_:)`` (when one was sent),
    /// otherwise the error itself.
    public var rootCause: BrickError {
        if case .gaveUp(let failure) = self, let last = failure.lastError { return last.rootCause }
        return self
    }

    /// Whether the request was cancelled.
    public var isCancelled: Bool { transportError?.kind == .cancelled }

    /// Whether the request may have reached the server (and been acted on): `false` only when it is known
    /// that it never left — it could not be built or was refused before sending, or no connection was made
    /// (refused, no route, no DNS answer, connect timeout, TLS not set up), or a cassette in replay had no
    /// answer recorded for it. A response that arrived, a connection lost or timed out after the request went
    /// out, a cancellation, or anything else, is `true`.
    /// For ``gaveUp(_:)``, whether any attempt may have. The same answer for the same failure, whether it
    /// ends the first attempt or the last.
    public var requestMayHaveArrived: Bool {
        switch self {
        case .transport(let error):
            switch error.kind {
            case .invalidURL, .unsupportedScheme, .invalidHeader, .invalidRequest, .cannotResolveHost, .networkUnreachable,
                .connectionRefused, .connectTimeout, .tlsFailure, .proxyFailure, .notRecorded:
                false
            default: true
            }
        case .requestEncoding, .notCached, .shutDown, .heldBack: false
        case .gaveUp(let failure): failure.attempts.contains { $0.head != nil || $0.error?.requestMayHaveArrived ?? true }
        case .file(let error): error.operation != .open && error.operation != .lock
        default: true
        }
    }

    /// The raw response, when one arrived.
    public var response: TransportResponse? {
        switch self {
        case .serialization(_, let response), .validation(_, let response): response
        case .gaveUp(let failure): failure.lastError?.response
        default: nil
        }
    }

    /// The call it belongs to, when the pipeline knew it: the transport's failure, the response that was not
    /// accepted or could not be serialized, the last attempt of a call that gave up.
    public var call: CallLine? {
        switch self {
        case .transport(let error): error.call
        case .serialization(_, let response), .validation(_, let response): response.call
        case .gaveUp(let failure): failure.attempts.last.map { CallLine($0.request) }
        case .requestEncoding, .interceptor, .file, .notCached, .shutDown, .heldBack: nil
        }
    }

    /// This error with `call` recorded where it has room for it (a transport error, a response refused or not
    /// serialized), unless one is there.
    func naming(_ call: @autoclosure () -> CallLine) -> BrickError {
        switch self {
        case .transport(var error) where error.call == nil:
            error.call = call()
            return .transport(error)
        case .validation(let refusal, var response) where response.call == nil:
            response.call = call()
            return .validation(refusal, response: response)
        case .serialization(let failure, var response) where response.call == nil:
            response.call = call()
            return .serialization(failure, response: response)
        default: return self
        }
    }

    /// What went wrong, after the call it belongs to when that is known (``call``): `GET "https://…": …`.
    public var description: String {
        guard let call else { return explanation }
        return "\(call): \(explanation)"
    }

    /// ``description`` without the call.
    var explanation: String {
        switch self {
        case .transport(let error): "\(error)" + (requestMayHaveArrived ? " (the request may have arrived)" : " (the request was not sent)")
        case .serialization(let error, let response):
            "cannot serialize the response (status \(response.head.status), \(response.body.count) bytes): \(error)"
        case .validation(let error, let response):
            "response not accepted (\(response.body.count) bytes): \(error)"
        case .requestEncoding(let error): "cannot build the request: \(error)"
        case .interceptor(let error): "interceptor failed: \(error)"
        case .gaveUp(let failure):
            // A last error from the transport already said whether the request may have arrived.
            if case .transport? = failure.lastError { "\(failure)" } else {
                "\(failure)" + (requestMayHaveArrived ? " (the request may have arrived)" : " (the request was never sent)")
            }
        case .file(let error): "download file error: \(error)"
        case .notCached(let url): "nothing cached for \(url), and the request may not use the network"
        case .shutDown: "the session is shutting down: the request was not sent"
        case .heldBack(let held): "\(held)"
        }
    }
}
