import BrickCore
import CPublicSuffix
import FoundationEssentials

/// Reads a `Set-Cookie` field (RFC 6265 §5.2, with RFC 6265bis's prefixes) into a ``Cookie`` for the
/// request that got it, or `nil` when the cookie must be ignored: no name, control characters (a tab
/// included), over 4096 bytes, a `Domain` the request's host does not belong to (or a public suffix such as
/// `co.uk` or `github.io`, or a bare top-level name, or any for an IP address), `Secure` from plain http, or
/// a `__Secure-` or `__Host-` name whose rules it breaks. When an attribute comes twice, the last one counts.
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
        var domainAttribute: String?
        var pathAttribute: String?
        for attribute in parts {
            let equals = attribute.firstIndex(of: "=")
            let key = attribute[..<(equals ?? attribute.endIndex)].trimmingWhitespace.lowercased()
            let argument = equals.map { String(attribute[attribute.index(after: $0)...].trimmingWhitespace) } ?? ""
            switch key {
            case "expires": expires = HTTPDate.parseLeniently(argument)
            case "max-age":
                let digits = argument.hasPrefix("-") ? argument.dropFirst() : argument[...]
                guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { continue }
                let seconds = TimeInterval(Int64(digits) ?? 0)
                maxAge = argument.hasPrefix("-") ? -1 : seconds
            case "domain":
                // §5.2.3: an empty value is ignored (the last non-empty one counts).
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                if !domain.isEmpty { domainAttribute = domain }
            case "path":
                // §5.2.4: the last Path counts; one that is empty or does not start with `/` means the default.
                pathAttribute = argument
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            default: continue
            }
        }
        if let pathAttribute {
            let usable = pathAttribute.hasPrefix("/") && !pathAttribute.unicodeScalars.contains(where: isControl)
            cookie.path = usable ? pathAttribute : defaultPath(requestPath)
        }
        if let domain = domainAttribute {
            guard let scope = scope(of: domain, host: host) else { return nil }
            cookie.domain = scope.domain
            cookie.hostOnly = scope.hostOnly
        }
        if cookie.secure && !https { return nil }
        guard keepsPrefixRules(cookie, https: https, domainAttribute: domainAttribute, pathAttribute: pathAttribute) else { return nil }
        if let maxAge {
            cookie.expires = now.addingTimeInterval(maxAge <= 0 ? -1 : min(maxAge, longestLife))
        } else if let expires {
            cookie.expires = min(expires, now.addingTimeInterval(longestLife))
        }
        return cookie
    }

    /// Where a cookie with `Domain=domain` from `host` goes (RFC 6265 §5.3 steps 5 and 6): the domain and its
    /// subdomains; only `host` itself when the domain is a public suffix that is the host; `nil` (ignore the
    /// cookie) when the host is not within the domain, when the domain is any other public suffix or a bare
    /// top-level name, or for an IP address. A trailing dot is compared as written and ignored for the list.
    static func scope(of domain: String, host: String) -> (domain: String, hostOnly: Bool)? {
        let isAddress = CookieURL.isIPAddress(host)
        let within = host == domain || (host.hasSuffix("." + domain) && !isAddress && domain.contains("."))
        guard within else { return nil }
        if isAddress { return (domain, true) }  // an address has no subdomains
        if PublicSuffixes.contains(domain) {
            return host == domain ? (domain, true) : nil
        }
        return (domain, false)
    }

    /// RFC 6265bis §4.1.3: a `__Secure-` cookie must be `Secure` and come over https; a `__Host-` one also
    /// has no `Domain` attribute and a `Path` attribute of `/` (§4.1.3.2: the attribute itself, not a default
    /// path that happens to be `/`). Compared without regard to case, as browsers do now.
    private static func keepsPrefixRules(_ cookie: Cookie, https: Bool, domainAttribute: String?, pathAttribute: String?) -> Bool {
        let lowered = cookie.name.lowercased()
        if lowered.hasPrefix("__secure-") || lowered.hasPrefix("__host-") {
            guard cookie.secure, https else { return false }
        }
        if lowered.hasPrefix("__host-") {
            guard domainAttribute == nil, pathAttribute == "/" else { return false }
        }
        return true
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

/// The public suffix list (`com`, `co.uk`, `github.io` …) as the system's libpsl holds it: names under
/// which anyone may register a domain, so that no cookie may be set for one.
enum PublicSuffixes {
    /// Whether `domain` (lowercased) is on the list; a trailing dot is ignored. When no list could be
    /// loaded, every name with fewer than three labels counts as one, so that a missing list refuses too
    /// much rather than too little.
    static func contains(_ domain: String) -> Bool {
        var name = domain
        while name.hasSuffix(".") { name.removeLast() }
        guard !name.isEmpty, !name.utf8.contains(0) else { return true }
        switch brick_is_public_suffix(name) {
        case 0: return false
        case 1: return true
        default: return name.split(separator: ".").count < 3
        }
    }
}
