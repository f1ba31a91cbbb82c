import BrickTransport

/// Classifies a failed libcurl transfer. Pure: it only reads the numbers it is given.
enum CurlErrorMapping {
    /// What the engine knows about a failed transfer besides curl's code.
    struct Context {
        var osErrno: Int32 = 0
        /// Whether a connection had been made or reused (connect or pre-transfer time > 0).
        var connected = false
        /// Whether the body passed a cap: the size cap, the decompression ratio, or libcurl's buffer for a
        /// paused transfer.
        var exceededCap = false
        /// Whether the transfer was cancelled by the caller.
        var cancelled = false
        /// Whether the response head was refused for its size (by the engine's cap, or by libcurl's limit on
        /// one field, which libcurl reports as out of memory).
        var headTooLarge = false
        /// Whether the engine stopped libcurl from sending the request a second time.
        var refusedResend = false
        /// Whether the request went out at least once in this transfer (libcurl reached its send step).
        var requestWentOut = false
    }

    /// The error for curl code `code`, with libcurl's message `message`.
    static func error(code: Int, message: String, context: Context) -> TransportError {
        let errno: Int32? = context.osErrno == 0 ? nil : context.osErrno
        let kind = kind(code: code, message: message, context: context)
        let resent = kind == .connectionLost && context.requestWentOut
            && neverSentKinds.contains(baseKind(code: code, message: message, context: context))
        let said = resent ? message + " (while sending the request again: it may have arrived)" : message
        return TransportError(kind, curlCode: code, osErrno: errno, message: said + (wayOut(code: code).map { " (\($0))" } ?? ""))
    }

    /// What to do about a TLS failure whose cause the caller can change, in the library's own terms.
    static func wayOut(code: Int) -> String? {
        switch code {
        case 60, 77:  // the peer's certificate is not trusted; the CA file cannot be read
            "a self-signed or private CA is trusted through TransportOptions.caBundlePath (brick --cacert FILE), "
                + "or the server's key pinned through TransportOptions.pinnedPublicKeys"
        case 90: "the server's public key is not one of TransportOptions.pinnedPublicKeys"
        case 58: "the client certificate or its key cannot be used: see TransportOptions.clientCertificate"
        default: nil
        }
    }

    static func kind(code: Int, message: String, context: Context) -> TransportError.Kind {
        let kind = baseKind(code: code, message: message, context: context)
        // A connection failure after the request already went out is libcurl's own resend failing to
        // connect (a reused connection closed without an answer, then the fresh one was refused or had no
        // route): the request may have arrived, so it is not one that "never left".
        guard context.requestWentOut, neverSentKinds.contains(kind) else { return kind }
        return .connectionLost
    }

    /// Kinds that say the request never left, when they come before it did.
    static let neverSentKinds: Set<TransportError.Kind> = [.connectionRefused, .networkUnreachable, .cannotResolveHost, .connectTimeout]

    private static func baseKind(code: Int, message: String, context: Context) -> TransportError.Kind {
        if context.cancelled { return .cancelled }
        if context.refusedResend { return .connectionLost }
        if context.headTooLarge { return .invalidResponse }
        if context.exceededCap { return .responseTooLarge }
        switch code {
        case 1:
            // The first URL's scheme is checked before sending, so this is a redirect to another scheme, or
            // an answer that is not HTTP at all ("Received HTTP/0.9", "Unsupported HTTP version").
            return message.contains("HTTP") ? .invalidResponse : .redirectRefused
        case 3: return .invalidURL
        case 5, 6: return .cannotResolveHost
        case 7:
            switch context.osErrno {
            case 111: return .connectionRefused
            case 2: return .connectionRefused  // a Unix socket path where nothing listens (ENOENT)
            case 101, 113: return .networkUnreachable
            case 110: return .connectTimeout
            // The server reset the connection as it accepted it, before libcurl saw the connect complete: the
            // same fault as a reset just after (code 56), so the same kind.
            case 104: return .connectionLost
            default: return .other
            }
        case 28:
            if !context.connected { return .connectTimeout }
            return message.lowercased().contains("too slow") ? .stalled : .timedOut
        case 8, 61: return .invalidResponse
        case 97: return .proxyFailure
        // libcurl 7.88 reports a refused CONNECT as a receive error: "CONNECT tunnel failed, response 407".
        case 56 where !context.requestWentOut && message.contains("CONNECT tunnel failed"): return .proxyFailure
        case 16, 18, 52, 55, 56, 92: return .connectionLost
        case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: return .tlsFailure
        case 42: return .cancelled
        case 47: return .tooManyRedirects
        case 63: return .responseTooLarge
        case 26, 65: return .uploadFailed  // read error; a streamed body cannot be sent twice
        default: return .other
        }
    }
}
