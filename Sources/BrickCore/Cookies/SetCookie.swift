import FoundationEssentials

/// Reads a `Set-Cookie` field (RFC 6265 §5.2) into a ``Cookie`` for the request that got it, or `nil` when
/// the cookie must be ignored: no name, control characters (a tab included), over 4096 bytes, a `Domain` the request's host
/// does not belong to (or a bare top-level name, or any for an IP address), or `Secure` from plain http.
/// `Max-Age` wins over `Expires`; both are capped at 400 days.
enum SetCookie {
    static let maxSize = 4096
    static let longestLife: TimeInterval = 400 * 86_400

    static func parse(_ field: String, host: String, path requestPath: String, https: Bool, now: Date) -> Cookie? {
        guard field.utf8.count <= maxSize else { return nil }
        var parts = field.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = String(pair[..<equals].trimmingWhitespace), value = String(pair[pair.index(after: equals)...].trimmingWhitespace)
        guard !name.isEmpty, !(name + value).unicodeScalars.contains(where: isControl) else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, path: defaultPath(requestPath))
        var maxAge: TimeInterval?
        var expires: Date?
        for attribute in parts {
            let equals = attribute.firstIndex(of: "=")
            let key = attribute[..<(equals ?? attribute.endIndex)].trimmingWhitespace.lowercased()
            let argument = equals.map { String(attribute[attribute.index(after: $0)...].trimmingWhitespace) } ?? ""
            switch key {
            case "expires": expires = HTTPDate.parse(argument)
            case "max-age":
                let digits = argument.hasPrefix("-") ? argument.dropFirst() : argument[...]
                guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { continue }
                let seconds = TimeInterval(Int64(digits) ?? 0)
                maxAge = argument.hasPrefix("-") ? -1 : seconds
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                guard host == domain || (host.hasSuffix("." + domain) && !CookieURL.isIPAddress(host) && domain.contains("."))
                else { return nil }
                cookie.domain = domain
                cookie.hostOnly = CookieURL.isIPAddress(host)  // an address has no subdomains
            case "path": if argument.hasPrefix("/"), !argument.unicodeScalars.contains(where: isControl) { cookie.path = argument }
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: continue
            }
        }
        if cookie.secure && !https { return nil }
        if let maxAge {
            cookie.expires = now.addingTimeInterval(maxAge <= 0 ? -1 : min(maxAge, longestLife))
        } else if let expires {
            cookie.expires = min(expires, now.addingTimeInterval(longestLife))
        }
        return cookie
    }

    /// RFC 6265 §5.1.4: the request path up to its last `/`, or `/`.
    static func defaultPath(_ path: String) -> String {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// Control characters, tab included: none belongs in a cookie, and a tab or a line end would change
    /// the fields of the cookie file.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }
}
