import BrickRequest
import BrickTesting
import Foundation
import LoopbackServer
import BrickSystem
import Testing
import TestServers

/// A hedged PUT whose body is a stream of 1 MiB: a body that can be read once.
final class HedgedStreamPut: Component, RequestType, StringResponseType {
    let session: Session
    let URLString: String
    var method: HTTPMethod { .put }
    var hedging: Hedging? { .standard }
    init(_ url: String, session: Session) {
        self.session = session
        URLString = url
        super.init()
    }

    func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        let chunks = AsyncStream<Data> { continuation in
            for _ in 0..<16 { continuation.yield(Data(repeating: 0x61, count: 64 << 10)) }
            continuation.finish()
        }
        request.body = .stream(BodyStream(chunks, length: 1 << 20))
    }
}

/// A GET, hedged and soft-retried, with the request's own interceptors.
final class InterceptedGet: Component, GETRequestType, StringResponseType {
    let session: Session
    let URLString: String
    let modifiers: [any RequestModifier]
    let autoRetryConfiguration: AutoRetryConfiguration
    var hedging: Hedging? { .standard }
    init(_ url: String, session: Session, interceptors: [any Interceptor], rules: AutoRetryConfiguration) {
        self.session = session
        URLString = url
        modifiers = interceptors
        autoRetryConfiguration = rules
        super.init()
    }
}

/// Turns every request into a POST.
struct MakesPost: Interceptor {
    func adapt(_ request: inout TransportRequest, context: RequestContext) async throws { request.method = .post }
}

/// A GET with a tenant's token.
final class TenantCall: Component, GETRequestType, StringResponseType {
    let session: Session
    let URLString: String
    let headers: HTTPHeaders
    let autoRetryConfiguration: AutoRetryConfiguration
    init(_ url: String, token: String, session: Session, rules: AutoRetryConfiguration = .none) {
        self.session = session
        URLString = url
        headers = ["Authorization": "Bearer \(token)"]
        autoRetryConfiguration = rules
        super.init()
    }
}

/// The defects found where features meet, each closed: hedging and a body read once, idempotency judged on
/// the request as sent, origin protection charging the origin that answered, a `429` holding one tenant
/// alone, one rule for how long a `Retry-After` holds.
@Suite struct WhereFeaturesMeetTests {
    /// A hedged PUT of a streamed body is sent once, whole, however slow the server: a body read once cannot
    /// go twice, so it is not hedged (fresh and kept-alive connections: the second call rides the first's).
    @Test func aHedgedStreamedBodyIsSentOnceWhole() async throws {
        let sizes = Locked<[Int]>([])
        let server = try LoopbackServer { request in
            sizes.withLock { $0.append(request.body.count) }
            usleep(200_000)  // slower than the hedge's delay (50 ms)
            return .text("stored")
        }
        defer { server.stop() }
        let session = Session()
        for _ in 0..<2 { #expect(try await HedgedStreamPut(server.baseURL + "/upload", session: session).response() == "stored") }
        #expect(sizes.withLock { $0 } == [1 << 20, 1 << 20])
    }

    /// An interceptor that turns a GET into a POST makes a request that may not go twice: it is not hedged,
    /// and a dropped connection after it was sent is not retried (fresh and kept-alive connections).
    @Test(arguments: [false, true]) func aGetAnInterceptorTurnsIntoAPostGoesOnce(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        defer { server.stop() }
        let session = Session()
        if keepAlive { _ = await FaultCall(server.baseURL + "/ok?key=warm", session: session, rules: .none).dataResponse() }
        let rules = AutoRetryConfiguration(breakTime: .milliseconds(1), maxRetryCount: 3, maxBreakTime: .milliseconds(2))
        let hedged = await InterceptedGet(server.baseURL + "/slow?ms=300&every=1&key=hedged", session: session, interceptors: [MakesPost()], rules: rules)
            .dataResponse()
        #expect(hedged.value == "ok")
        #expect(server.count("hedged") == 1)
        let dropped = await InterceptedGet(server.baseURL + "/close-after-read?key=dropped", session: session, interceptors: [MakesPost()], rules: rules)
            .dataResponse()
        #expect(dropped.error?.requestMayHaveArrived == true)
        #expect(server.count("dropped") == 1)
        #expect(dropped.request?.method == .post)  // the request as sent
    }

    /// A → 302 → B, and B answers `503 Retry-After: 3600`: B is held, A is not; the other way round, A is
    /// held, B is not. Collected (with and without retry rules) and streamed calls alike.
    @Test(arguments: [false, true]) func aRedirectTargetsAnswerIsChargedToTheTarget(keepAlive: Bool) async throws {
        let a = try FaultServer(keepAlive: keepAlive)
        let b = try FaultServer(keepAlive: keepAlive)
        defer { a.stop(); b.stop() }
        for (from, to) in [(a, b), (b, a)] {
            for shape in ["plain", "retrying", "streamed"] {
                let clock = ManualClock()
                var configuration = Session.Configuration()
                configuration.clock = clock
                let session = Session(configuration: configuration)
                let target = to.baseURL + "/status?code=503&retry_after=3600&key=\(shape)"
                let url = from.baseURL + "/redirect?to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                switch shape {
                case "plain": _ = await FaultCall(url, session: session, rules: .none).dataResponse()
                case "retrying":
                    // Retry rules that draw on the budget, for statuses other than this one (a retry would
                    // wait out the hold on a clock that stands still).
                    var rules = AutoRetryConfiguration(maxRetryCount: 1, failWhenNotReachable: true)
                    rules.retryableStatuses = [502]
                    _ = await FaultCall(url, session: session, rules: rules).dataResponse()
                default:
                    for try await _ in FaultCall(url, session: session, rules: .none).stream() {}
                }
                let held = session.originStatuses().filter { $0.heldUntil != nil }.map(\.origin)
                #expect(held == ["http://127.0.0.1:\(to.port)"], "\(shape): \(held)")
            }
        }
    }

    /// B's `500`s open B's breaker, not the breaker of A, which redirected to it.
    @Test func aRedirectTargetsFailuresOpenTheTargetsBreaker() async throws {
        let a = try FaultServer(keepAlive: true)
        let b = try FaultServer(keepAlive: true)
        defer { a.stop(); b.stop() }
        var configuration = Session.Configuration()
        configuration.originProtection = try OriginProtection(
            circuitBreaker: CircuitBreaker(window: 4, minimumCalls: 2, failureRate: 0.5), breaksEveryCall: true)
        let session = Session(configuration: configuration)
        let target = b.baseURL + "/status?code=500&key=broken"
        let url = a.baseURL + "/redirect?to=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        for _ in 0..<3 { _ = await FaultCall(url, session: session, rules: .none).dataResponse() }
        let statuses = Dictionary(uniqueKeysWithValues: session.originStatuses().map { ($0.origin, $0.breaker) })
        #expect(statuses["http://127.0.0.1:\(b.port)"] != .closed)
        #expect(statuses["http://127.0.0.1:\(a.port)"] == .closed)
    }

    /// Tenant A's `429 Retry-After` holds tenant A's calls, never tenant B's (fresh and kept-alive connections).
    @Test(arguments: [false, true]) func oneTenants429DoesNotHoldAnother(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        defer { server.stop() }
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        let session = Session(configuration: configuration)
        let limited = await TenantCall(server.baseURL + "/status?code=429&retry_after=60&key=a-limited", token: "tenant-a", session: session)
            .dataResponse()
        #expect(limited.error?.response?.head.status == 429)
        #expect(try await TenantCall(server.baseURL + "/ok?key=b", token: "tenant-b", session: session).response() == "ok")
        #expect(server.count("b") == 1)
        let held = Task { await TenantCall(server.baseURL + "/ok?key=a-held", token: "tenant-a", session: session).dataResponse() }
        await clock.waitForSleepers()
        #expect(server.count("a-held") == 0)
        clock.advance(by: .seconds(60))
        #expect(await held.value.value == "ok")
    }

    /// A call with `maxRetryCount: 0, maxRetryAfter: 1 s` answered `503 Retry-After: 60` holds its origin 1 s,
    /// with or without the attempt loop around it (an observer, or retry rules, put the loop there).
    @Test(arguments: ["plain", "observed", "retrying"]) func aRetryAfterIsCappedByOneRule(shape: String) async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        if shape == "observed" { configuration.observers = [CountingObserver()] }
        let session = Session(configuration: configuration)
        var rules = AutoRetryConfiguration(maxRetryCount: shape == "retrying" ? 1 : 0, failWhenNotReachable: true, maxRetryAfter: .seconds(1))
        rules.retryableStatuses = []
        let before = Date()
        _ = await FaultCall(server.baseURL + "/status?code=503&retry_after=60&key=capped", session: session, rules: rules).dataResponse()
        let until = try #require(session.originStatuses().first?.heldUntil)
        #expect(until > before && until <= Date().addingTimeInterval(1.001), "\(shape): held until \(until)")
    }
}

/// An observer that only counts: it puts the session's calls through the observers' stages.
struct CountingObserver: CallObserver {
    func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd { await body() }
    func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd { await body() }
}
