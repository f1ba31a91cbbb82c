/// Where an authenticator's credentials may be sent.
///
/// Credentials belong to the server they were issued by. A request built from an absolute URL the server
/// handed out (a pagination link, a download link) may point anywhere; sending the session's token there
/// would give it away.
public enum CredentialScope: Sendable, Equatable {
    /// Only to the origin (scheme, host, port) of the session's base URL; to any origin when the session
    /// has none. The default.
    case sessionOrigin
    /// Only to these origins, given as URLs (`https://api.example.com`; the path is ignored).
    case origins([String])
    /// Anywhere the request goes.
    case anyOrigin

    /// Whether credentials go with the request of `context`.
    public func allows(_ context: RequestContext) -> Bool {
        guard let target = Origin(context.request.url) else { return false }
        switch self {
        case .anyOrigin: return true
        case .sessionOrigin: return context.sessionBaseURL.map { Origin($0) == target } ?? true
        case .origins(let urls): return urls.contains { Origin($0) == target }
        }
    }
}
