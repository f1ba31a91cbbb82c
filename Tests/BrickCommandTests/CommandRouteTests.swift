import Testing
import TestServers

/// Where the command connects: the environment's proxy, `--proxy`, `--proxy none`, `--unix-socket`.
@Suite struct CommandRouteTests {
    @Test func theEnvironmentsProxyIsUsedUnlessTheCommandLineSaysOtherwise() async throws {
        let nginx = try nginx()
        let proxy = try ForwardProxy()
        defer { proxy.stop() }
        let url = nginx.url("/small?route")
        let brick = try Brick.path()
        let environment = ["http_proxy": proxy.url, "no_proxy": ""]

        let viaEnvironment = try await PipedChild.run([brick, url], environment: environment)
        #expect(viaEnvironment.status == 0, "\(viaEnvironment.error)")
        #expect(proxy.requests.map(\.line) == ["GET \(url)"])

        let direct = try await PipedChild.run([brick, "--proxy", "none", url], environment: environment)
        #expect(direct.status == 0, "\(direct.error)")
        #expect(proxy.requests.count == 1, "--proxy none ignores http_proxy")

        let explicit = try await PipedChild.run([brick, "--proxy", proxy.url, url + "&explicit"])
        #expect(explicit.status == 0, "\(explicit.error)")
        #expect(proxy.requests.last?.line == "GET \(url)&explicit")
    }

    @Test func aUnixSocketAnswersForAHostThatResolvesNowhere() async throws {
        let outcome = try await Brick.run("--unix-socket", try nginx().socketPath, "http://daemon.invalid/host")
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.text == "daemon.invalid")
    }
}
