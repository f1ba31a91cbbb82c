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
    }

    /// Checks what can be checked before anything is sent: the scheme is http or https, the URL has a host
    /// and no whitespace or control characters, the method is a token, and no header can inject another.
    ///
    /// - Throws: ``TransportError`` of kind `invalidURL`, `unsupportedScheme`, `invalidRequest` or
    ///   `invalidHeader`.
    public func validate() throws(TransportError) {
        let lowered = url.lowercased()
        let schemeEnd = lowered.firstIndex(of: ":")
        guard let schemeEnd, lowered[..<schemeEnd].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else {
            throw TransportError(.invalidURL, message: "not an absolute URL: \(url.debugDescription)")
        }
        let scheme = lowered[..<schemeEnd]
        guard scheme == "http" || scheme == "https" else {
            throw TransportError(.unsupportedScheme, message: "only http and https are allowed, not \(scheme)")
        }
        guard lowered[schemeEnd...].hasPrefix("://"),
            lowered.count > scheme.count + 3,
            !"/?#".contains(lowered[lowered.index(schemeEnd, offsetBy: 3)])
        else {
            throw TransportError(.invalidURL, message: "URL has no host: \(url.debugDescription)")
        }
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw TransportError(.invalidURL, message: "URL holds a space or control character: \(url.debugDescription)")
        }
        guard method.isValidToken else {
            throw TransportError(.invalidRequest, message: "invalid method \(method.rawValue.debugDescription)")
        }
        try headers.validate()
    }

    /// The URL's host, lowercased, without brackets, port or user info; `nil` when the URL has none.
    public var host: String? { Self.host(of: url) }

    /// The host of `url`, lowercased, without brackets, port or user info; `nil` when it has none.
    public static func host(of url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        var authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        return host.isEmpty ? nil : host.lowercased()
    }
}
