import BrickSystem
import BrickTransport

/// Sets `Authorization: Bearer <token>` on every attempt addressed where its ``scope`` allows (by default
/// the session's origin: a token never follows a URL to another server), and handles a 401 for every
/// request at once:
/// the first request refused with the current token starts one refresh, every other request refused
/// meanwhile waits for that same refresh, and each is then replayed once with the new token. When the
/// refresh fails, all of them fail with ``AuthenticationError/refreshFailed(_:)``.
public final class BearerAuthenticator: Interceptor {
    private enum Fetch { case ready(String), wait(Task<String, any Error>), failed(any Error) }

    private struct State {
        var token: String?
        var pending: Task<String, any Error>?
        /// The refused token whose refresh failed, and why: late 401s for it fail at once.
        var failedRefresh: (rejected: String, error: any Error)?
    }

    private let provider: any TokenProvider
    /// Where the token may go. Default is `CredentialScope.sessionOrigin`.
    public let scope: CredentialScope
    private let state = Locked(State())

    /// An authenticator drawing tokens from `provider`, sending them only where `scope` allows.
    public init(provider: any TokenProvider, scope: CredentialScope = .sessionOrigin) {
        self.provider = provider
        self.scope = scope
    }

    /// `InterceptorPriority.authentication`: before your interceptors adapt the request, after them on the response.
    public var priority: InterceptorPriority { .authentication }

    /// The reason recorded on an attempt replayed after a refresh.
    public static let replayReason = "bearer token refreshed after 401"

    public func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        guard scope.allows(context) else { return }
        request.headers["Authorization"] = "Bearer " + (try await token())
    }

    public func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision {
        guard case .success(let response) = outcome, response.head.status == 401,
            let sent = context.request.headers["Authorization"], sent.hasPrefix("Bearer "),
            !context.hasRepeated(for: Self.replayReason)
        else { return .proceed(outcome) }
        do {
            _ = try await refreshed(replacing: String(sent.dropFirst("Bearer ".count)))
            return .replay(reason: Self.replayReason)
        } catch {
            return .proceed(.failure(.interceptor(error)))
        }
    }

    /// The current token, fetched once for everyone when there is none.
    func token() async throws -> String {
        let fetch = state.withLock { state -> Fetch in
            if let token = state.token { return .ready(token) }
            if let pending = state.pending { return .wait(pending) }
            let provider = self.provider
            let task = Task { () async throws -> String in
                do { return try await provider.initialToken() } catch {
                    throw AuthenticationError.tokenUnavailable(String(describing: error))
                }
            }
            state.pending = task
            return .wait(task)
        }
        return try await settle(fetch, rejected: nil)
    }

    /// A token other than `rejected`: the one already refreshed, the refresh in flight, or a new refresh.
    func refreshed(replacing rejected: String) async throws -> String {
        let fetch = state.withLock { state -> Fetch in
            if let failed = state.failedRefresh, failed.rejected == rejected { return .failed(failed.error) }
            if let token = state.token, token != rejected { return .ready(token) }
            if let pending = state.pending { return .wait(pending) }
            let provider = self.provider
            let task = Task { () async throws -> String in
                do { return try await provider.refreshToken(rejected: rejected) } catch {
                    throw AuthenticationError.refreshFailed(String(describing: error))
                }
            }
            state.token = nil
            state.pending = task
            return .wait(task)
        }
        return try await settle(fetch, rejected: rejected)
    }

    private func settle(_ fetch: Fetch, rejected: String?) async throws -> String {
        switch fetch {
        case .ready(let token): return token
        case .failed(let error): throw error
        case .wait(let task):
            do {
                let token = try await task.value
                state.withLock { state in
                    if state.pending == task { (state.pending, state.token, state.failedRefresh) = (nil, token, nil) }
                }
                return token
            } catch {
                state.withLock { state in
                    guard state.pending == task else { return }
                    state.pending = nil
                    if let rejected { state.failedRefresh = (rejected, error) }
                }
                throw error
            }
        }
    }
}
