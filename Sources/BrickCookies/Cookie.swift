import BrickTransport
public import FoundationEssentials

/// One cookie a server set, as a ``CookieJar`` keeps it (RFC 6265).
public struct Cookie: Sendable, Equatable {
    /// The cookie's name.
    public var name: String
    /// Its value, as the server set it.
    public var value: String
    /// The host it belongs to (lowercased, no leading dot).
    public var domain: String
    /// Whether it goes to ``domain`` only (no `Domain` attribute), or to its subdomains too.
    public var hostOnly: Bool
    /// The path it goes to, and the paths below it.
    public var path: String
    /// Whether it goes over https only.
    public var secure: Bool
    /// The server's `HttpOnly`: kept (and written to the file) so that a browser sharing the file would
    /// hide it from scripts; a client like this one has no scripts, so it is sent as any other.
    public var httpOnly: Bool
    /// When it expires, or `nil` for a session cookie (kept until the jar is dropped; never written to a file).
    public var expires: Date?

    /// A cookie.
    public init(name: String, value: String, domain: String, hostOnly: Bool = true, path: String = "/",
                secure: Bool = false, httpOnly: Bool = false, expires: Date? = nil) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
    }

    /// Whether it goes with a request to `host` and `path` over `https` (or not) at `now`.
    func matches(host: String, path requestPath: String, https: Bool, now: Date) -> Bool {
        if let expires, expires <= now { return false }
        if secure && !https { return false }
        let domainMatches = host == domain || (!hostOnly && host.hasSuffix("." + domain) && !CookieURL.isIPAddress(host))
        return domainMatches && Self.pathMatches(requestPath, path)
    }

    /// RFC 6265bis §5.7 step 16: whether this kept cookie stops `new`, which came over plain http, from
    /// being stored: this one is `Secure`, has its name, its domain and `new`'s domain-match one way or the
    /// other, and `new`'s path is this one's or below it. So plain http can neither overwrite a `Secure`
    /// cookie nor delete it (a deletion is an expired cookie of the same name).
    func shadowsInsecure(_ new: Cookie) -> Bool {
        guard secure, name == new.name, Self.pathMatches(new.path, path) else { return false }
        return domain == new.domain || domain.hasSuffix("." + new.domain) || new.domain.hasSuffix("." + domain)
    }

    /// RFC 6265 §5.1.4: the same path, or one below it.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
            || requestPath.dropFirst(cookiePath.count).first == "/"
    }
}

/// The parts of a URL cookies are matched on.
enum CookieURL {
    /// Host (lowercased; an IPv4 address in the dotted-decimal form of the address libcurl connects to,
    /// however the URL writes it: `0x7f.0.0.1` is `127.0.0.1`), path (`/` when empty) and whether the scheme
    /// is https.
    static func parts(of url: String) -> (host: String, path: String, https: Bool)? {
        guard let written = TransportRequest.host(of: url), let schemeEnd = url.firstRange(of: "://") else { return nil }
        let host = IPv4Literal.normalized(written) ?? written
        let afterAuthority = url[schemeEnd.upperBound...].drop { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = afterAuthority.prefix { $0 != "?" && $0 != "#" }
        return (host, path.isEmpty ? "/" : String(path), url.lowercased().hasPrefix("https://"))
    }

    /// Whether `host` is an IPv4 or IPv6 address (no `Domain` cookies for those).
    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isNumber || $0 == "." })
    }
}
