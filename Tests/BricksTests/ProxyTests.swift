import BrickRequest
import BrickTesting
import Testing
import TestServers

/// Explicit proxies (`TransportOptions.proxy`): http requests in absolute form, https through a `CONNECT`
/// tunnel, credentials for the proxy alone, hosts that bypass it, and the route the retry rules watch.
@Suite struct ProxyTests {
    static func session(_ proxy: Proxy, reachability: (any Reachability)? = nil) throws -> Session {
        var configuration = Session.Configuration()
        configuration.transportOptions.proxy = .through(proxy)
        configuration.transportOptions.caBundlePath = try Nginx.shared.get().certificatePath
        if let reachability { configuration.reachability = reachability }
        return Session(configuration: configuration)
    }

    @Test func httpGoesInAbsoluteFormAndHttpsThroughATunnel() async throws {
        let nginx = try Nginx.shared.get()
        let proxy = try ForwardProxy()
        defer { proxy.stop() }
        let session = try Self.session(Proxy(url: proxy.url))
        let plain = try await session.send(.get, nginx.url("/small?via-proxy"))
        #expect(plain.body.count == 100)
        let secure = try await session.send(.get, nginx.tlsURL("/small?via-tunnel"))
        #expect(secure.body.count == 100)
        let lines = proxy.requests.map(\.line)
        #expect(lines.contains("GET \(nginx.url("/small?via-proxy"))"), "\(lines)")
        #expect(lines.contains("CONNECT localhost:\(nginx.tlsPort)"), "\(lines)")
        #expect(!lines.contains { $0.contains("via-tunnel") }, "the tunnel hides the path from the proxy")
    }

    @Test func credentialsGoToTheProxyAndAMissingOneIsA407() async throws {
        let nginx = try Nginx.shared.get()
        let proxy = try ForwardProxy(credentials: "ada:s3cret")
        defer { proxy.stop() }
        let good = try Self.session(Proxy(url: proxy.url, username: "ada", password: "s3cret"))
        #expect(try await good.send(.get, nginx.url("/small?with-credentials")).body.count == 100)
        #expect(try await good.send(.get, nginx.tlsURL("/small")).body.count == 100)
        #expect(proxy.requests.allSatisfy { $0.proxyAuthorization == "Basic YWRhOnMzY3JldA==" })

        let none = try Self.session(Proxy(url: proxy.url))
        let refused = await none.dataResponse(for: TransportRequest(url: nginx.url("/small"), options: none.configuration.transportOptions))
        #expect(refused.statusCode == 407)  // the proxy's answer, given as the response: nothing reached nginx
        let tunnel = await none.dataResponse(for: TransportRequest(url: nginx.tlsURL("/small"), options: none.configuration.transportOptions))
        #expect(tunnel.error?.transportError?.kind == .proxyFailure, "\(String(describing: tunnel.error))")
        #expect(tunnel.error?.requestMayHaveArrived == false)
        #expect(!"\(Proxy(url: proxy.url, username: "ada", password: "s3cret"))".contains("s3cret"))
    }

    @Test func bypassedHostsGoDirectAndTheRouteWatchedIsTheProxys() async throws {
        let nginx = try Nginx.shared.get()
        let proxy = try ForwardProxy()
        defer { proxy.stop() }
        let direct = try Self.session(Proxy(url: proxy.url, bypass: ["127.0.0.1"]))
        #expect(try await direct.send(.get, nginx.url("/small?bypassed")).body.count == 100)
        #expect(proxy.requests.isEmpty)

        // The origin's host is offline, the proxy's is not: the request goes through the proxy at once
        // (which cannot reach `origin.invalid` and answers 502) instead of waiting for the origin's route.
        let reachability = ManualReachability()
        reachability.goOffline("origin.invalid")
        let session = try Self.session(Proxy(url: proxy.url), reachability: reachability)
        var request = TransportRequest(url: "http://origin.invalid/x", options: session.configuration.transportOptions)
        request.options.connectTimeout = .seconds(5)
        let outcome = await session.dataResponse(for: request, retry: .soft)
        #expect(outcome.statusCode == 502)
        #expect(proxy.requests.map(\.line) == ["GET http://origin.invalid/x"])

        // And the proxy's host offline: the request waits for it (and gives up, the wait being bounded).
        reachability.goOffline("127.0.0.1")
        var rules = AutoRetryConfiguration.soft
        rules.failWhenNotReachable = true
        let waiting = await session.dataResponse(for: request, retry: rules)
        #expect(waiting.error?.requestMayHaveArrived == false)
        #expect(proxy.requests.count == 1, "nothing more reached the proxy")
    }
}
