/// Authenticates the request with HTTP Basic credentials.
/// Sets: `authentication` = a ``BasicAuthenticator`` for ``basicCredentials``.
public protocol BasicAuthType: RequestType {
    /// The user name and password. No default.
    var basicCredentials: BasicCredentials { get }
}

extension BasicAuthType {
    public var authentication: (any Interceptor)? { BasicAuthenticator(basicCredentials) }
}
