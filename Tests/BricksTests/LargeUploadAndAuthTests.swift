import BrickRequest
import Foundation
import LoopbackServer
import Synchronization
import TestServers
import Testing

final class GetVault: Component, GETRequestType, APISessionRequestType, BearerAuthType, StringResponseType {
    let path: String
    let bearerAuthenticator: BearerAuthenticator
    init(url: String, authenticator: BearerAuthenticator) {
        path = url
        bearerAuthenticator = authenticator
        super.init()
    }
}

/// Sends `times` vault requests at once and collects their outcomes.
func fetchVault(times: Int, from server: LoopbackServer, with authenticator: BearerAuthenticator) async -> [DataResponse<String>] {
    await withTaskGroup(of: DataResponse<String>.self) { group in
        for _ in 0..<times {
            group.addTask { await GetVault(url: server.baseURL + "/vault", authenticator: authenticator).dataResponse() }
        }
        return await group.reduce(into: []) { $0.append($1) }
    }
}

@Suite struct LargeUploadAndAuthTests {
    @Test func twentyConcurrent401sShareOneRefreshAndEachIsReplayedOnce() async throws {
        let refused = Countdown()
        let server = try LoopbackServer { request in
            guard request.header("Authorization") == "Bearer token-1" else {
                refused.increment()
                return .text("expired", status: 401)
            }
            return .text("vault opened")
        }
        defer { server.stop() }
        // The refresh waits until all 20 requests have been refused: they all hit the 401 together.
        let provider = CountingProvider(gate: { await refused.wait(for: 20) })
        let authenticator = BearerAuthenticator(provider: provider)
        let outcomes = await fetchVault(times: 20, from: server, with: authenticator)
        #expect(provider.refreshes == 1)
        #expect(refused.count == 20)
        #expect(outcomes.allSatisfy { $0.value == "vault opened" })
        #expect(outcomes.allSatisfy { $0.attempts.count == 2 })
    }

    @Test func aFailedSharedRefreshFailsEveryWaitingRequest() async throws {
        let refused = Countdown()
        let server = try LoopbackServer { _ in
            refused.increment()
            return .text("expired", status: 401)
        }
        defer { server.stop() }
        let provider = CountingProvider(failRefresh: true, gate: { await refused.wait(for: 10) })
        let authenticator = BearerAuthenticator(provider: provider)
        let outcomes = await fetchVault(times: 10, from: server, with: authenticator)
        #expect(provider.refreshes == 1)
        for outcome in outcomes {
            guard case .interceptor(let error)? = outcome.error, case .refreshFailed? = error as? AuthenticationError else {
                Issue.record("got \(String(describing: outcome.error))")
                continue
            }
        }
        #expect(refused.count == 10)
    }
}
