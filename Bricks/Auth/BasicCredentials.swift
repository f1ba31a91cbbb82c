import FoundationEssentials

/// A user name and password for HTTP Basic authentication (RFC 7617).
public struct BasicCredentials: Sendable, Equatable {
    /// The user name; it must not contain a colon (RFC 7617).
    public let username: String
    /// The password (redacted in logs with the `Authorization` field).
    public let password: String

    /// Credentials of `username` and `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The `Authorization` value: `Basic` and the base64 of `username:password` in UTF-8.
    public var authorization: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
}

/// Sets `Authorization: Basic …` on every attempt addressed where its ``scope`` allows (by default the
/// session's origin).
public struct BasicAuthenticator: Interceptor {
    /// What is sent.
    public let credentials: BasicCredentials
    /// Where the credentials may go. Default is `CredentialScope.sessionOrigin`.
    public let scope: CredentialScope
    /// Sends `credentials` where `scope` allows.
    public init(_ credentials: BasicCredentials, scope: CredentialScope = .sessionOrigin) {
        self.credentials = credentials
        self.scope = scope
    }

    /// `InterceptorPriority.authentication`: before your interceptors adapt the request, after them on the response.
    public var priority: InterceptorPriority { .authentication }

    public func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        guard scope.allows(context) else { return }
        request.headers["Authorization"] = credentials.authorization
    }
}
