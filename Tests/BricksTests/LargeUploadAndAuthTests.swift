import BrickRequest
import Foundation
import LoopbackServer
import Synchronization
import TestServers
import Testing

final class UploadArchive: Component, POSTRequestType, APISessionRequestType, MultipartBodyType, DataResponseType {
    let path: String
    init(url: String, file: URL) {
        path = url
        super.init(parameterBuilder: ParameterBuilder {
            TextParameter("nightly", name: "label")
            FileParameter(fileURL: file, name: "archive", mimeType: "application/x-tar")
        })
    }
}

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
    @Test func a200MBMultipartFileIsStreamedFromDiskInBoundedMemory() async throws {
        let size = 200 << 20
        let path = try makeTestFile(size: size, seed: 200)
        defer { unlink(path) }
        let sink = try UploadSink.shared.get()
        let before = residentMemoryBytes()
        let peak = Mutex(before)
        let sampler = Task {
            while !Task.isCancelled {
                let now = residentMemoryBytes()
                peak.withLock { $0 = max($0, now) }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        let response = await UploadArchive(url: sink.url("/upload"), file: URL(fileURLWithPath: path)).dataResponse()
        sampler.cancel()
        let answer = try SinkAnswer(json: try #require(response.value))
        let parts = try #require(answer.parts)
        #expect(answer.complete)
        #expect(parts.map(\.name) == ["label", "archive"])
        #expect(parts[0].bytes == Data("nightly".utf8))
        #expect(parts[1].filename == URL(fileURLWithPath: path).lastPathComponent)
        #expect(parts[1].contentType == "application/x-tar")
        #expect(parts[1].length == size)
        #expect(parts[1].sha256 == (try sha256(ofFile: path)))
        #expect(answer.contentLength == String(answer.length))
        let growth = peak.withLock { $0 } - before
        print("200 MiB multipart upload: RSS before \(before >> 20) MiB, peak growth \(growth >> 20) MiB")
        #expect(growth < 48 << 20, "the file must not be loaded into memory")
    }

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
