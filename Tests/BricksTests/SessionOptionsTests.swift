import BrickRequest
import Testing
import TestServers

/// A request value sent through a session (`send`, `stream`, `serverSentEvents`) takes every option it
/// does not set from the session: its trust, its proxy, its caps. Against nginx over TLS and a forward proxy.
@Suite struct SessionOptionsTests {
    @Test func aRequestValueThatSetsNoOptionGetsTheSessionsTrustProxyAndCaps() async throws {
        let nginx = try Nginx.shared.get()
        let proxy = try ForwardProxy()
        defer { proxy.stop() }
        var configuration = Session.Configuration()
        configuration.transportOptions.caBundlePath = nginx.certificatePath
        configuration.transportOptions.maxBodySize = 90  // compact.json fits, /small does not
        let session = Session(configuration: configuration)

        // The session's CA: without it, nginx's certificate would fail verification.
        let tls = try await session.send(TransportRequest(url: nginx.tlsURL("/compact.json")))
        #expect(tls.head.status == 200)
        // The session's cap on a collected body (`/small` is 100 bytes).
        await #expect(throws: BrickError.self) { try await session.send(TransportRequest(url: nginx.url("/small"))) }
        // Streams and events get them too.
        var streamed = 0
        for try await event in session.stream(TransportRequest(url: nginx.tlsURL("/small"))) {
            if case .body(let chunk) = event { streamed += chunk.count }
        }
        #expect(streamed == 100)

        // A request that sets one option overrides that one alone.
        var own = TransportOptions()
        own.maxBodySize = 1000
        let small = try await session.send(TransportRequest(url: nginx.tlsURL("/small"), options: own))
        #expect(small.body.count == 100, "its own cap, the session's CA")

        var proxied = Session.Configuration()
        proxied.transportOptions.proxy = .through(Proxy(url: proxy.url))
        let through = Session(configuration: proxied)
        _ = try await through.send(TransportRequest(url: nginx.url("/small")))
        #expect(proxy.requests.map(\.line) == ["GET \(nginx.url("/small"))"], "the session's proxy")
        var direct = TransportOptions()
        direct.proxy = .direct
        _ = try await through.send(TransportRequest(url: nginx.url("/small"), options: direct))
        #expect(proxy.requests.count == 1, "the request's own proxy setting wins")
    }

    @Test func setOptionsOverrideOnlyThemselvesAndSettingTheDefaultCounts() {
        var session = TransportOptions()
        session.caBundlePath = "/ca.pem"
        session.timeout = .seconds(1)
        var request = TransportOptions()
        #expect(request.applied(over: session) == session)
        request.timeout = nil  // set, to its default
        request.maxBodySize = 7
        let merged = request.applied(over: session)
        #expect(merged.caBundlePath == "/ca.pem" && merged.timeout == nil && merged.maxBodySize == 7)
    }
}
