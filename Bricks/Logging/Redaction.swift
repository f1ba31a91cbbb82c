/// Which header fields and query parameters a logger never writes out: their values become `<redacted>`.
public struct Redaction: Sendable {
    /// Header names whose values are hidden (case-insensitive).
    public var headerNames: Set<String>
    /// Query parameter names whose values are hidden (case-insensitive).
    public var queryNames: Set<String>

    public init(headerNames: Set<String> = Redaction.standardHeaders, queryNames: Set<String> = Redaction.standardQuery) {
        self.headerNames = Set(headerNames.map { $0.lowercased() })
        self.queryNames = Set(queryNames.map { $0.lowercased() })
    }

    /// `Authorization`, `Proxy-Authorization`, cookies, and the usual API-key and token fields.
    public static let standardHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-access-token", "x-csrf-token", "x-xsrf-token",
    ]
    /// Tokens, keys, passwords and secrets passed in query strings.
    public static let standardQuery: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "password", "secret",
        "client_secret", "signature", "sig",
    ]

    /// The text put in place of a hidden value.
    public static let placeholder = "<redacted>"

    /// `value`, or the placeholder when `name` is a secret header.
    public func header(_ name: String, _ value: String) -> String {
        headerNames.contains(name.lowercased()) ? Self.placeholder : value
    }

    /// `url` with the values of secret query parameters replaced (before any fragment).
    public func url(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragment = url[question...].firstIndex(of: "#") ?? url.endIndex
        let pairs = url[url.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
        let cleaned = pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), queryNames.contains(pair[..<equals].lowercased()) else {
                return String(pair)
            }
            return pair[...equals] + Self.placeholder
        }
        return url[...question] + cleaned.joined(separator: "&") + url[fragment...]
    }
}
