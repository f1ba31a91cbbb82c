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

    /// `Authorization`, `Proxy-Authorization`, cookies, and the usual API-key and token fields
    /// (`Secrets.headerNames`, which the transport's own descriptions hide too).
    public static let standardHeaders: Set<String> = Secrets.headerNames
    /// Tokens, keys, passwords and secrets passed in query strings, OAuth codes, and the signatures and
    /// credentials of presigned URLs (AWS, Google Cloud, Azure): `Secrets.queryNames`.
    public static let standardQuery: Set<String> = Secrets.queryNames

    /// The text put in place of a hidden value.
    public static let placeholder = URLPassword.placeholder

    /// `value`, or the placeholder when `name` is a secret header.
    public func header(_ name: String, _ value: String) -> String { Secrets.header(name, value, names: headerNames) }

    /// `url` with a password in its user info and the values of secret query parameters (names compared
    /// after percent-decoding, so `access%5Ftoken` is `access_token`) replaced, before any fragment.
    public func url(_ url: String) -> String { Secrets.url(url, queryNames: queryNames) }
}
