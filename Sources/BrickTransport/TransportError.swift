/// The one error a transport throws: what went wrong, classified, with curl's code, the OS errno and a
/// readable message.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in terms a caller can act on. The library may add kinds in a minor version: switch
    /// with a `default`.
    public enum Kind: String, Sendable, CaseIterable {
        /// The URL could not be parsed (or holds characters a URL cannot hold).
        case invalidURL
        /// The URL's scheme is not http or https.
        case unsupportedScheme
        /// A header name is not a token, or a header value holds CR, LF or NUL; nothing was sent.
        case invalidHeader
        /// The request itself is malformed in another way (a bad method token, a body on a body-less method).
        case invalidRequest
        /// DNS could not resolve the host.
        case cannotResolveHost
        /// There is no route to the host (`ENETUNREACH`, `EHOSTUNREACH`).
        case networkUnreachable
        /// The host answered the connection attempt with a refusal (`ECONNREFUSED`).
        case connectionRefused
        /// No connection could be made within the connect timeout.
        case connectTimeout
        /// The whole request took longer than its timeout.
        case timedOut
        /// The transfer went slower than the low-speed limit for longer than allowed.
        case stalled
        /// The connection broke after it was made: reset, closed early, truncated body.
        case connectionLost
        /// The server's answer is not valid HTTP (a malformed status line, a body that does not decode).
        case invalidResponse
        /// TLS could not be set up: handshake failure, untrusted or mismatched certificate, or a client
        /// certificate or key that cannot be used (a wrong passphrase).
        case tlsFailure
        /// The proxy would not open a tunnel to the server (it answered `CONNECT` with an error, such as
        /// 407 for missing credentials); nothing was sent to the server.
        case proxyFailure
        /// More redirects than allowed.
        case tooManyRedirects
        /// A redirect pointed at a scheme other than http or https, and was not followed.
        case redirectRefused
        /// The request body could not be read: a file is missing or changed size while sending, or a body
        /// stream threw or yielded a length other than the one announced.
        case uploadFailed
        /// The body is larger than the configured cap.
        case responseTooLarge
        /// The request was cancelled, by `cancel()` or by Task cancellation.
        case cancelled
        /// A cassette in replay has no recorded answer for the request (the message names the nearest entry
        /// and what differed); nothing was sent.
        case notRecorded
        /// Anything else libcurl reported; see ``TransportError/curlCode`` and the message.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// libcurl's `CURLcode`, when libcurl reported the failure.
    public let curlCode: Int?
    /// The OS `errno` libcurl saw (`CURLINFO_OS_ERRNO`), when there was one.
    public let osErrno: Int32?
    /// A readable explanation (libcurl's error buffer when it had one).
    public let message: String
    /// The call that failed, when a session's pipeline knows it (it names the call in `BrickError`'s
    /// description). Not part of equality: the same failure of another call is the same error.
    public var call: CallLine?

    /// Creates an error.
    public init(_ kind: Kind, curlCode: Int? = nil, osErrno: Int32? = nil, message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.osErrno = osErrno
        self.message = message
    }

    /// The error for a request cancelled before or during its transfer.
    public static let cancelled = TransportError(.cancelled, message: "the request was cancelled")

    public static func == (lhs: TransportError, rhs: TransportError) -> Bool {
        lhs.kind == rhs.kind && lhs.curlCode == rhs.curlCode && lhs.osErrno == rhs.osErrno && lhs.message == rhs.message
    }

    /// `connection refused: Failed to connect to … (curl 7, errno 111)`: the kind in words, the message, the codes.
    public var description: String {
        var text = "\(kind.words): \(message)"
        if let curlCode { text += " (curl \(curlCode)" + (osErrno.map { ", errno \($0)" } ?? "") + ")" }
        return text
    }
}

extension TransportError.Kind {
    /// The kind in words, as an error's description says it (`connection refused`, not `connectionRefused`).
    public var words: String {
        switch self {
        case .invalidURL: "invalid URL"
        case .unsupportedScheme: "unsupported scheme"
        case .invalidHeader: "invalid header"
        case .invalidRequest: "invalid request"
        case .cannotResolveHost: "cannot resolve the host"
        case .networkUnreachable: "network unreachable"
        case .connectionRefused: "connection refused"
        case .connectTimeout: "no connection within the connect timeout"
        case .timedOut: "timed out"
        case .stalled: "stalled"
        case .connectionLost: "connection lost"
        case .invalidResponse: "invalid response"
        case .tlsFailure: "TLS failure"
        case .proxyFailure: "proxy failure"
        case .tooManyRedirects: "too many redirects"
        case .redirectRefused: "redirect refused"
        case .uploadFailed: "the body could not be sent"
        case .responseTooLarge: "response too large"
        case .cancelled: "cancelled"
        case .notRecorded: "not recorded in the cassette"
        case .other: "transfer failed"
        }
    }
}
