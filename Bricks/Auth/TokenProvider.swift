/// Where a ``BearerAuthenticator`` gets its tokens.
public protocol TokenProvider: Sendable {
    /// The token to start with (stored, or from a login). Called when there is none yet, or after a
    /// refresh failed.
    func initialToken() async throws -> String
    /// A new token to replace `rejected`, which the server refused with 401.
    func refreshToken(rejected: String) async throws -> String
}

/// Why a bearer-authenticated request failed; found in `BrickError.interceptor(_:)`.
public enum AuthenticationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider could not give a first token.
    case tokenUnavailable(String)
    /// The server refused the token and the refresh failed; every request waiting on it fails with this.
    case refreshFailed(String)

    public var description: String {
        switch self {
        case .tokenUnavailable(let reason): "no bearer token: \(reason)"
        case .refreshFailed(let reason): "the bearer token was refused and refreshing it failed: \(reason)"
        }
    }
}
