/// The origin of a URL (RFC 6454): scheme, host and port, the port made explicit. The one parser of origins
/// in the core: what decides where the session's fields go, which origin's protections a call draws on,
/// which credentials a redirect keeps and which stored responses an unsafe request invalidates.
///
/// A WebSocket's `ws` and `wss` are the origins of `http` and `https` (a WebSocket's handshake is an HTTP
/// request to that origin, RFC 6455 §4.1), so the session treats the two alike. The scheme and host are
/// compared lowercased, the port as a number (`:080` is port 80, the scheme's own
/// when the URL names none); the user info is never part of it. A URL whose port is not a number from 0 to
/// 65535 has no origin, and so is the same origin as nothing.
struct Origin: Equatable, Sendable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    /// The origin of `url`; `nil` when it has no `://`, no host, or a port that is not a port.
    init?(_ url: String) {
        guard let parts = URLAuthority(url) else { return nil }
        self.init(parts)
    }

    /// The origin of a URL whose parts are found; `nil` when its port is not a port.
    init?(_ parts: URLAuthority) {
        scheme = parts.scheme == "ws" ? "http" : parts.scheme == "wss" ? "https" : parts.scheme
        host = parts.host
        guard let digits = parts.port, !digits.isEmpty else {
            port = Self.defaultPort(of: scheme)
            return
        }
        // Digits alone (no sign, no second colon), at most five of them, no more than 65535.
        guard digits.utf8.count <= 5, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(digits),
            number <= 65535
        else { return nil }
        port = number
    }

    /// `scheme://host:port`, an IPv6 host in brackets: the name of the origin in the session's tables.
    var description: String {
        let bracketed = host.utf8.contains(UInt8(ascii: ":"))
        var name = ""
        name.reserveCapacity(scheme.utf8.count + host.utf8.count + 11)
        name += scheme
        name += bracketed ? "://[" : "://"
        name += host
        name += bracketed ? "]:" : ":"
        name += String(port)
        return name
    }

    private static func defaultPort(of scheme: String) -> Int { scheme == "https" ? 443 : 80 }

    /// Whether `url` has the origin of `base`. When `url` is `base` followed by nothing or by a path, query or
    /// fragment (the usual request of a session with a base URL), the two have the same authority byte for
    /// byte and nothing is parsed; otherwise both origins are parsed and compared. Never a comparison of
    /// prefixes alone: `http://api.example.test` is not the origin of `http://api.example.test.evil.example`,
    /// `http://api.example.test@127.0.0.1`, `http://api.example.test:8443` or `http://api.example.testing`.
    static func isSame(_ url: String, as base: String) -> Bool {
        if url.utf8.starts(with: base.utf8), base.utf8.contains(UInt8(ascii: ":")) {
            let next = url.utf8.dropFirst(base.utf8.count).first
            if next == nil || next == UInt8(ascii: "/") || next == UInt8(ascii: "?") || next == UInt8(ascii: "#") || authorityEnds(in: base) {
                return Origin(base) != nil
            }
        }
        guard let target = Origin(url), let origin = Origin(base) else { return false }
        return target == origin
    }

    /// Whether `url`'s authority ends before its end (a path, query or fragment follows it), so that whatever
    /// is appended to it cannot change its origin.
    private static func authorityEnds(in url: String) -> Bool {
        guard let separator = url.utf8.firstRange(of: "://".utf8) else { return false }
        return url.utf8[separator.upperBound...].contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    }
}
