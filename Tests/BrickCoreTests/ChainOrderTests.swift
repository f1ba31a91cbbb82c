import BrickCookies
@testable import BrickCore
import BrickTesting
import Testing

/// The chain as data: each kind of call on a session runs the stages its configuration and its bricks need,
/// in the one declared order (`StageOrder`), the transport last.
@Suite struct ChainOrderTests {
    struct Passing: CallObserver {
        func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd { await body() }
        func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd { await body() }
    }

    @Test func aSessionWithNothingConfiguredRunsTheConclusionTheRedirectsAndTheTransport() {
        var configuration = Session.Configuration()
        configuration.originProtection.retryBudget = nil
        configuration.originProtection.sharesRetryAfter = false
        let session = Session(configuration: configuration, transport: StubTransport())
        #expect(session.stageOrder(for: []) == [.conclusion, .redirects, .transport])
        #expect(session.stageOrder(for: [.loop]) == [.attemptLoop, .conclusion, .redirects, .transport])
    }

    @Test func theDefaultSessionProtectsItsOrigins() {
        let session = Session(transport: StubTransport())
        #expect(session.stageOrder(for: []) == [.conclusion, .redirects, .originProtection, .transport])
    }

    @Test func everyStageOfAFullyConfiguredSessionStandsInTheDeclaredOrder() {
        var configuration = Session.Configuration()
        configuration.observers = [Passing()]
        configuration.responseCache = MemoryResponseCache()
        configuration.cookies = CookieJar()
        let session = Session(configuration: configuration, transport: StubTransport())
        let order = session.stageOrder(for: [.loop, .cache, .hedging, .interceptors])
        #expect(order == [
            .observers, .cache, .attemptLoop, .attemptObservers, .conclusion, .interceptors, .cacheValidators, .hedging, .redirects,
            .cookies, .originProtection, .transport,
        ])
        #expect(order == order.sorted())
        #expect(order.prefix { $0.isCallLevel } == [.observers, .cache, .attemptLoop])
    }

    @Test func everyKindOfEveryConfigurationKeepsTheOrder() {
        var configuration = Session.Configuration()
        configuration.observers = [Passing()]
        configuration.responseCache = MemoryResponseCache()
        configuration.cookies = CookieJar()
        for session in [Session(transport: StubTransport()), Session(configuration: configuration, transport: StubTransport())] {
            for raw in 0..<ChainKind.count {
                let order = session.stageOrder(for: ChainKind(rawValue: raw))
                #expect(order == order.sorted() && order.last == .transport && order.contains(.conclusion), "kind \(raw): \(order)")
            }
        }
    }
}

/// The one parser of a URL's authority: the host and port of every shape a URL may take.
@Suite struct URLAuthorityTests {
    @Test(arguments: [
        ("http://api.example.test", "api.example.test", 80),
        ("https://API.Example.Test:8443/a?b#c", "api.example.test", 8443),
        ("http://user:pw@host.test:080/x", "host.test", 80),
        ("http://a@b@host.test/", "host.test", 80),
        ("http://[::1]:9000/", "::1", 9000),
        ("http://[::1]/", "::1", 80),
        ("https://host.test:/", "host.test", 443),
        ("wss://h.test?x=1:2", "h.test", 443),
        ("HTTPS://Host.Test", "host.test", 443),
        ("http://BÜCHER.example:81/", "bücher.example", 81),
    ])
    func theOriginOfAURL(url: String, host: String, port: Int) throws {
        let origin = try #require(Origin(url))
        #expect(origin.host == host && origin.port == port)
        #expect(TransportRequest.host(of: url) == host)
    }

    @Test(arguments: ["no-scheme", "http://", "http://user@/", "http://[::1/", "http://host:65536/", "http://host:+80/", "http://host:1:2/"])
    func aURLWithoutAnOrigin(url: String) {
        #expect(Origin(url) == nil)
    }
}
