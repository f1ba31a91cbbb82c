/// The password in a URL's user info (`scheme://user:password@host`), found and hidden: what every
/// description, log line and dump of a URL goes through, so that none shows a password.
package enum URLPassword {
    /// The text put in place of a hidden password.
    package static let placeholder = "<redacted>"

    /// `url` with the password of `scheme://user:password@host` replaced by ``placeholder``; any other
    /// text as it is. Only a `://` that ends a scheme at the start counts: one in a path or query is not
    /// an authority.
    package static func redacted(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), !url[..<colon].isEmpty,
            url[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            url[colon...].hasPrefix("://")
        else { return url }
        let schemeEnd = colon..<url.index(colon, offsetBy: 3)
        let authorityEnd = url[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let authority = url[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return url[..<authority.index(after: colon)] + placeholder + url[at...]
    }
}
