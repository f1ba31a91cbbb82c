/// The secrets every description, dump and log line of a request hides: the values of fields that carry
/// credentials, the values of query items that carry tokens, keys and signatures, and a URL's password. The
/// stock request logger (`Redaction`) starts from these lists; the transport's own values
/// (``TransportRequest``, ``HTTPHeaders``, ``TransferMetrics``, ``CallLine``) describe themselves with them.
public enum Secrets {
    /// `Authorization`, `Proxy-Authorization`, cookies, and the usual API-key and token fields (lowercased).
    public static let headerNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
        "x-access-token", "x-csrf-token", "x-xsrf-token",
    ]
    /// Tokens, keys, passwords and secrets passed in query strings, OAuth codes, and the signatures and
    /// credentials of presigned URLs (AWS, Google Cloud, Azure), lowercased.
    public static let queryNames: Set<String> = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "password", "passwd", "secret",
        "client_secret", "signature", "sig", "code", "auth", "session", "sessionid", "jwt",
        "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential",
    ]

    /// Words that, anywhere in a name (of a field, a query item, a JSON member, a form field), say that its
    /// value may be a secret: `X-Vault-Token`, `Private-Token`, `apikey`, `AccessToken`, `client_secret`. Names
    /// are compared as ``normalized(_:)`` makes them.
    package static let secretWords = ["token", "secret", "password", "passwd", "key", "auth", "cookie", "session", "signature", "credential"]

    /// Standard fields with one of ``secretWords`` in their names whose values are not secrets: CORS's flags
    /// and lists of field names, authentication challenges (a scheme and a realm), WebSocket's handshake nonce
    /// and its answer, and published public keys (lowercased).
    package static let meaningfulFields: Set<String> = [
        "access-control-allow-credentials", "access-control-allow-headers", "access-control-expose-headers",
        "access-control-request-headers", "www-authenticate", "proxy-authenticate", "sec-websocket-key",
        "sec-websocket-accept", "public-key-pins", "public-key-pins-report-only",
    ]

    /// Fields whose values are URLs (or hold one): their secrets are a URL's (``url(_:queryNames:)``).
    package static let urlFields: Set<String> = ["location", "content-location", "refresh", "link"]

    /// `name` as names are compared for secrets: lowercased, without `_` and `-` (so `X_Vault_Token`,
    /// `x-vault-token` and `XVaultToken` are one name).
    package static func normalized(_ name: some StringProtocol) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// Whether a name sounds secret: one of ``secretWords`` is in it (after ``normalized(_:)``), and it is not a
    /// field of ``meaningfulFields``.
    package static func soundsSecret(_ name: some StringProtocol) -> Bool {
        let lowered = name.lowercased()
        if meaningfulFields.contains(lowered) { return false }
        let plain = normalized(lowered)
        return secretWords.contains { plain.contains($0) }
    }

    /// `value`, or `<redacted>` when the field `name` is one of `names` (case-insensitive).
    public static func header(_ name: String, _ value: String, names: Set<String> = headerNames) -> String {
        names.contains(name.lowercased()) ? URLPassword.placeholder : value
    }

    /// `url` with a password in its user info and the values of the query items named in `queryNames`
    /// (compared after percent-decoding, so `access%5Ftoken` is `access_token`) replaced by
    /// `<redacted>`, before any fragment.
    public static func url(_ url: String, queryNames: Set<String> = queryNames) -> String {
        Self.url(url) { queryNames.contains($0) }
    }

    /// `url` with a password in its user info and the values of the query items whose names (percent-decoded,
    /// lowercased) `isSecret` judges secret replaced by `<redacted>`, before any fragment.
    package static func url(_ url: String, judging isSecret: (String) -> Bool) -> String {
        let url = URLPassword.redacted(url)
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragment = url[question...].firstIndex(of: "#") ?? url.endIndex
        let pairs = url[url.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
        let cleaned = pairs.map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), isSecret(percentDecoded(pair[..<equals]).lowercased()) else {
                return String(pair)
            }
            return pair[...equals] + URLPassword.placeholder
        }
        return url[...question] + cleaned.joined(separator: "&") + url[fragment...]
    }

    /// `text` with `%XX` escapes decoded (invalid ones kept as they are).
    package static func percentDecoded(_ text: Substring) -> String {
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
