/// Which header fields and query parameters a logger never writes out: their values become `<redacted>`.
public struct Redaction: Sendable {
    /// Header names whose values are hidden (case-insensitive).
    public var headerNames: Set<String>
    /// Query parameter names whose values are hidden (case-insensitive).
    public var queryNames: Set<String>

    /// Hides the values of `headerNames` and `queryNames` (compared case-insensitively). Default is the
    /// standard lists, ``standardHeaders`` and ``standardQuery``.
    public init(headerNames: Set<String> = Redaction.standardHeaders, queryNames: Set<String> = Redaction.standardQuery) {
        self.headerNames = Set(headerNames.map { $0.lowercased() })
        self.queryNames = Set(queryNames.map { $0.lowercased() })
    }

    /// `Authorization`, `Proxy-Authorization`, cookies, and the usual API-key and token fields.
    public static let standardHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-access-token", "x-csrf-token", "x-xsrf-token",
    ]
    /// Tokens, keys, passwords and secrets passed in query strings, OAuth codes, and the signatures and
    /// credentials of presigned URLs (AWS, Google Cloud, Azure).
    public static let standardQuery: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "password", "passwd", "secret",
        "client_secret", "signature", "sig", "code", "auth", "session", "sessionid", "jwt",
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential",
    ]

    /// The text put in place of a hidden value.
    public static let placeholder = "<redacted>"

    /// `value`, or the placeholder when `name` is a secret header.
    public func header(_ name: String, _ value: String) -> String {
        headerNames.contains(name.lowercased()) ? Self.placeholder : value
    }

    /// `url` with a password in its user info and the values of secret query parameters (names compared
    /// after percent-decoding, so `access%5Ftoken` is `access_token`) replaced, before any fragment.
    public func url(_ url: String) -> String {
        let url = Self.withoutPassword(url)
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragment = url[question...].firstIndex(of: "#") ?? url.endIndex
        let pairs = url[url.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
        let cleaned = pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), queryNames.contains(Self.percentDecoded(pair[..<equals]).lowercased()) else {
                return String(pair)
            }
            return pair[...equals] + Self.placeholder
        }
        return url[...question] + cleaned.joined(separator: "&") + url[fragment...]
    }

    /// `url` with the password of `scheme://user:password@host` replaced.
    static func withoutPassword(_ url: String) -> String { URLPassword.redacted(url) }

    /// `text` with `%XX` escapes decoded (invalid ones kept as they are).
    static func percentDecoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
