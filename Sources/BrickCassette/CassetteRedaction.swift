import BrickTransport

/// What a recording leaves out: the values of secret header fields, query items, JSON members and form
/// fields, and a URL's user info, each replaced by ``marker`` (which replay takes as matching any value), and
/// every other place in the recording where one of those values appears again (a server that echoes the
/// `Authorization` field in its body, a token learned from one answer and sent with the next request). On by
/// default; opting out is per name.
///
/// A name is secret when it is one of the lists below, or when one of ``secretWords`` is in it, compared
/// lowercased and without `_` and `-` (`X-Vault-Token`, `Private-Token`, `apikey`, `AccessToken`,
/// `client_secret`): the words `brick --verbose` judges fields by. URLs are redacted wherever they stand
/// (the request's, `Location`, `Content-Location`, `Refresh`, `Link`, `redirectURL`): their user info, and
/// secret items of the query, of the fragment (`#access_token=`) and of `;name=value` path parameters.
///
/// ```swift
/// var redaction = CassetteRedaction()
/// redaction.keepHeaders(["X-Request-Id"])   // not secret in this API
/// redaction.jsonFields.insert("pin")        // secret in this one
/// ```
public struct CassetteRedaction: Sendable {
    /// What stands where a secret was.
    public static let marker = "<redacted>"
    /// ``marker`` as it stands in a URL.
    static let markerInURL = "%3Credacted%3E"

    /// Header fields whose values are secret whatever their names say, lowercased (the logger's list:
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, API-key and token fields).
    public var headerNames: Set<String> = Secrets.headerNames
    /// Query items whose values are secret whatever their names say, lowercased (the logger's list: `token`,
    /// `access_token`, `key`, OAuth's `code`, presigned URLs' signatures, …).
    public var queryNames: Set<String> = Secrets.queryNames
    /// JSON object members and form fields whose values are secret whatever their names say, lowercased.
    public var jsonFields: Set<String> = [
        "password", "passwd", "secret", "client_secret", "token", "access_token", "refresh_token", "id_token", "api_key",
        "apikey",
    ]
    /// Words that make any name secret when it holds one of them (after lowercasing and removing `_` and
    /// `-`). Default is the words of `brick --verbose`: `token`, `secret`, `password`, `passwd`, `key`,
    /// `auth`, `cookie`, `session`, `signature`, `credential`.
    public var secretWords: [String] = Secrets.secretWords
    /// Whether a URL's user info (a user name, which may be a token, and the password) is left out. Default
    /// `true`.
    public var urlPasswords = true

    /// Names opted out of, per family, as ``Secrets/normalized(_:)`` makes them.
    private var keptHeaders: Set<String> = []
    private var keptQueryItems: Set<String> = []
    private var keptMembers: Set<String> = []

    /// Redacts all of the above.
    public init() {}

    /// Nothing is redacted: every secret is written to the cassette as it was sent and received.
    public static let none = CassetteRedaction(headerNames: [], queryNames: [], jsonFields: [], urlPasswords: false)

    private init(headerNames: Set<String>, queryNames: Set<String>, jsonFields: Set<String>, urlPasswords: Bool) {
        self.headerNames = headerNames
        self.queryNames = queryNames
        self.jsonFields = jsonFields
        self.urlPasswords = urlPasswords
        secretWords = []
    }

    /// Writes these header fields' values as they are.
    public mutating func keepHeaders(_ names: some Sequence<String>) {
        headerNames.subtract(names.map { $0.lowercased() })
        keptHeaders.formUnion(names.map(Secrets.normalized))
    }
    /// Writes these query items' values as they are.
    public mutating func keepQueryItems(_ names: some Sequence<String>) {
        queryNames.subtract(names.map { $0.lowercased() })
        keptQueryItems.formUnion(names.map(Secrets.normalized))
    }
    /// Writes these JSON members' and form fields' values as they are.
    public mutating func keepJSONFields(_ names: some Sequence<String>) {
        jsonFields.subtract(names.map { $0.lowercased() })
        keptMembers.formUnion(names.map(Secrets.normalized))
    }

    var isNone: Bool { headerNames.isEmpty && queryNames.isEmpty && jsonFields.isEmpty && secretWords.isEmpty && !urlPasswords }

    /// Whether the header field `name`'s value is secret (a field of known meaning is judged by it).
    func isSecretHeader(_ name: String) -> Bool {
        let lowered = name.lowercased()
        if headerNames.contains(lowered) { return true }
        return !Secrets.meaningfulFields.contains(lowered) && holdsSecretWord(lowered, kept: keptHeaders)
    }

    /// Whether the value of the query, fragment or path parameter `name` is secret.
    func isSecretQueryItem(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return queryNames.contains(lowered) || holdsSecretWord(lowered, kept: keptQueryItems)
    }

    /// Whether the value of the JSON member `name` is secret.
    func isSecretMember(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return jsonFields.contains(lowered) || holdsSecretWord(lowered, kept: keptMembers)
    }

    /// Whether the value of the form or multipart field `name` is secret: a member's names, and a query
    /// item's (a form is a query in a body: OAuth's `code=` goes in one).
    func isSecretFormField(_ name: String) -> Bool {
        isSecretMember(name) || (queryNames.contains(name.lowercased()) && !keptMembers.contains(Secrets.normalized(name)))
    }

    private func holdsSecretWord(_ name: String, kept: Set<String>) -> Bool {
        let plain = Secrets.normalized(name)
        return !kept.contains(plain) && secretWords.contains { !$0.isEmpty && plain.contains($0.lowercased()) }
    }
}
