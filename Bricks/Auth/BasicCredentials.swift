import FoundationEssentials

/// A user name and password for HTTP Basic authentication (RFC 7617).
public struct BasicCredentials: Sendable, Equatable {
    public let username: String
    public let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The `Authorization` value: `Basic` and the base64 of `username:password` in UTF-8.
    public var authorization: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }
}

/// Sets `Authorization: Basic …` on every attempt.
public struct BasicAuthenticator: Interceptor {
    public let credentials: BasicCredentials
    public init(_ credentials: BasicCredentials) { self.credentials = credentials }

    /// ``InterceptorPriority/library``: after the request's own headers, before logging.
    public var priority: InterceptorPriority { .library }

    public func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        request.headers["Authorization"] = credentials.authorization
    }
}
