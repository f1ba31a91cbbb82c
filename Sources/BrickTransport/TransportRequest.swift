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
        // Byte by byte: this runs for every request, so it allocates nothing on the good path.
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon != bytes.startIndex,
            bytes[..<colon].allSatisfy({ Self.isSchemeByte($0) })
        else {
            throw TransportError(.invalidURL, message: "not an absolute URL: \(url.debugDescription)")
        }
        let scheme = bytes[..<colon]
        guard Self.equalsIgnoringCase(scheme, "http") || Self.equalsIgnoringCase(scheme, "https") else {
            throw TransportError(.unsupportedScheme, message: "only http and https are allowed, not \(String(decoding: scheme, as: UTF8.self).lowercased())")
        }
        let rest = bytes[colon...]
        guard rest.starts(with: "://".utf8), let hostStart = rest.dropFirst(3).first,
            hostStart != UInt8(ascii: "/"), hostStart != UInt8(ascii: "?"), hostStart != UInt8(ascii: "#")
        else {
            throw TransportError(.invalidURL, message: "URL has no host: \(url.debugDescription)")
        }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
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

extension TransportRequest {
    /// Whether `byte` may appear in a URL scheme (RFC 3986: letters, digits, `+`, `-`, `.`).
    fileprivate static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// Whether the ASCII bytes `bytes` spell `lowercase` in any case.
    fileprivate static func equalsIgnoringCase(_ bytes: Substring.UTF8View, _ lowercase: String) -> Bool {
        bytes.count == lowercase.utf8.count && zip(bytes, lowercase.utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}

