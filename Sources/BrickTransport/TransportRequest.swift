/// A request ready to send: everything a transport needs, already resolved by the core.
public struct TransportRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The absolute http or https URL, query included.
    public var url: String
    /// The header fields, in the order they are sent.
    public var headers: HTTPHeaders
    /// The body, or `nil` for none.
    public var body: RequestBody?
    /// Timeouts, redirects, caps and TLS trust.
    public var options: TransportOptions
    /// Whether the request may reach the server twice without harm. When it may not, a transport never
    /// sends it a second time by itself (libcurl would, on a fresh connection, when a reused one closed
    /// without an answer): the transfer fails with `connectionLost` instead. Default is the method's
    /// idempotency (``HTTPMethod/isIdempotent``); the session sets it from the request's `Idempotency`.
    public var mayBeSentTwice: Bool
    /// Whether the request must go out on a new connection rather than a kept-alive one. Default is
    /// `false`. The session sets it when it follows a 307 or 308 with the body again: the server that
    /// redirected most likely left the first body unread and may be closing that connection, and a request
    /// that must not arrive twice would then fail as "may have arrived" instead of being sent.
    public var needsFreshConnection = false
    /// Where the transport leaves the connection when the server switches protocols, for a request that asks
    /// for an upgrade (a WebSocket handshake): the transport then connects over HTTP/1.1 only, sends the
    /// request itself and, on a `101`, hands the connection over instead of reading a body. Default is `nil`:
    /// an ordinary request.
    public var upgrade: UpgradeSlot?

    /// Creates a request.
    public init(
        method: HTTPMethod = .get, url: String, headers: HTTPHeaders = [:], body: RequestBody? = nil,
        options: TransportOptions = TransportOptions()
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.options = options
        self.mayBeSentTwice = method.isIdempotent
    }

    /// A request whose `mayBeSentTwice` the caller decided (the session, from the request's idempotency).
    /// Not inlinable: inlined into the step that builds a component's request, the request was built twice
    /// there and copied once more.
    package init(method: HTTPMethod, url: String, headers: HTTPHeaders, options: TransportOptions, mayBeSentTwice: Bool) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = nil
        self.options = options
        self.mayBeSentTwice = mayBeSentTwice
    }

    /// Checks what can be checked before anything is sent: the scheme is http or https, the URL has a host
    /// and no whitespace or control characters, the method is a token, and no header can inject another.
    ///
    /// - Throws: ``TransportError`` of kind `invalidURL`, `unsupportedScheme`, `invalidRequest` or
    ///   `invalidHeader`.
    public func validate() throws(TransportError) {
        // Byte by byte on the URL's contiguous UTF-8: this runs for every request, so it allocates nothing on
        // the good path.
        var url = url
        let verdict = url.withUTF8 { Self.check(url: $0) }
        switch verdict {
        case .valid(nonASCII: false): break
        case .valid(nonASCII: true):
            guard Self.hasOneScalarPerCharacter(url) else {
                throw TransportError(.invalidURL, message: "URL holds a combining character (percent-encode it): \(Self.forMessages(url))")
            }
        case .notAbsolute:
            // A relative URL reaches the transport only when nothing resolved it: its session has no base URL.
            throw TransportError(
                .invalidURL,
                message: "not an absolute URL: \(Self.forMessages(url)); a relative URL needs the session's base URL "
                    + "(Session.Configuration.baseURL, or baseURL on the request), or write the whole URL")
        case .scheme(let scheme):
            throw TransportError(.unsupportedScheme, message: "only http and https are allowed, not \(scheme.lowercased())")
        case .noHost: throw TransportError(.invalidURL, message: "URL has no host: \(Self.forMessages(url))")
        case .controlCharacter:
            throw TransportError(.invalidURL, message: "URL holds a space or control character: \(Self.forMessages(url))")
        case .badAuthority:
            throw TransportError(.invalidURL, message: "URL's host or port is not valid: \(Self.forMessages(url))")
        }
        guard method.isValidToken else {
            throw TransportError(.invalidRequest, message: "invalid method \(method.rawValue.debugDescription)")
        }
        try headers.validate()
    }

    /// `url` as error messages show it: quoted, without its user info, query or fragment (which may hold
    /// passwords, tokens and signatures), which are replaced by `…`.
    public static func forMessages(_ url: String) -> String {
        var shown = Substring(url)
        var cut = false
        if let end = shown.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            shown = shown[..<end]
            cut = true
        }
        if let schemeEnd = shown.firstRange(of: "://") {
            let authority = shown[schemeEnd.upperBound...].prefix { $0 != "/" }
            if let at = authority.lastIndex(of: "@") {
                shown = shown[..<schemeEnd.upperBound] + "…@" + shown[shown.index(after: at)...]
            }
        }
        return (String(shown) + (cut ? "…" : "")).debugDescription
    }

    /// The URL's host, lowercased, without brackets, port or user info; `nil` when the URL has none.
    public var host: String? { Self.host(of: url) }

    /// The host of `url`, lowercased, without brackets, port or user info; `nil` when it has none.
    public static func host(of url: String) -> String? { URLAuthority(url)?.host }
}
