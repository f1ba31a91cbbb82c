import BrickTransport

/// What a recording leaves out: the values of secret header fields, query items and JSON fields, and URL
/// passwords, each replaced by ``marker`` (which replay takes as matching any value), and every other place
/// in the entry where one of those values appears again (a server that echoes the `Authorization` field in
/// its body). On by default; opting out is per field.
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

    /// Header fields whose values are secret, lowercased (the logger's list: `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, API-key and token fields).
    public var headerNames: Set<String> = Secrets.headerNames
    /// Query items whose values are secret, lowercased (the logger's list: `token`, `access_token`, `key`, …).
    public var queryNames: Set<String> = Secrets.queryNames
    /// JSON object members whose values are secret, in request and response bodies, lowercased.
    public var jsonFields: Set<String> = [
        "password", "passwd", "secret", "client_secret", "token", "access_token", "refresh_token", "id_token", "api_key",
        "apikey",
    ]
    /// Whether `user:password@` in a URL loses its password. Default `true`.
    public var urlPasswords = true

    /// Redacts all of the above.
    public init() {}

    /// Nothing is redacted: every secret is written to the cassette as it was sent and received.
    public static let none = CassetteRedaction(headerNames: [], queryNames: [], jsonFields: [], urlPasswords: false)

    private init(headerNames: Set<String>, queryNames: Set<String>, jsonFields: Set<String>, urlPasswords: Bool) {
        self.headerNames = headerNames
        self.queryNames = queryNames
        self.jsonFields = jsonFields
        self.urlPasswords = urlPasswords
    }

    /// Writes these header fields' values as they are.
    public mutating func keepHeaders(_ names: some Sequence<String>) { headerNames.subtract(names.map { $0.lowercased() }) }
    /// Writes these query items' values as they are.
    public mutating func keepQueryItems(_ names: some Sequence<String>) { queryNames.subtract(names.map { $0.lowercased() }) }
    /// Writes these JSON members' values as they are.
    public mutating func keepJSONFields(_ names: some Sequence<String>) { jsonFields.subtract(names.map { $0.lowercased() }) }

    var isNone: Bool { headerNames.isEmpty && queryNames.isEmpty && jsonFields.isEmpty && !urlPasswords }
}
