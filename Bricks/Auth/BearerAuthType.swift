/// Authenticates the request with a bearer token from a shared ``BearerAuthenticator``, refreshed once
/// for everyone when the server answers 401, and the request replayed once with the new token.
/// Sets: `authentication` = ``bearerAuthenticator``.
public protocol BearerAuthType: RequestType {
    /// The authenticator, shared by every request of one API (keep it in a `static let`). No default.
    var bearerAuthenticator: BearerAuthenticator { get }
}

extension BearerAuthType {
    public var authentication: (any Interceptor)? { bearerAuthenticator }
}
