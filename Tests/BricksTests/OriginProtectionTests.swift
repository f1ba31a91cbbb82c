import BrickRequest
import BrickTesting
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing
import TestServers

/// A call through its origin's circuit breaker, on a session of the test's choosing.
final class BreakerCall: Component, GETRequestType, CircuitBreakerType, StringResponseType {
    let session: Session
    let URLString: String
    init(_ url: String, session: Session) {
        self.session = session
        self.URLString = url
        super.init()
    }
}

/// Counts breaker changes and holds as the session tells them.
final class OriginEvents: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func record(_ event: RetryEvent) {
        let name = switch event {
        case .circuitOpened: "opened"
        case .circuitClosed: "closed"
        case .heldBack: "held"
        case .retryNotTaken: "notTaken"
        default: "other"
        }
        counts.withLock { $0[name, default: 0] += 1 }
    }
    subscript(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
}

/// The origin protections against real servers on loopback: the fault server answers, refuses and stalls;
/// libcurl carries every request. Each figure the retry-safety report prints is measured here
/// (`RETRY-FIGURE name=value` lines, gathered by `make retry-safety`).
@Suite struct OriginProtectionTests {
    /// 200 calls at once, each allowed 3 retries, against an origin that answers 503 to everything: the
    /// budget keeps what the server receives near one request per call; without it, four per call.
    @Test(arguments: [false, true]) func aRetryStormIsCappedByTheBudget(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        defer { server.stop() }
        let calls = 200
        let budgeted = Session()
        let failures = await Self.storm(calls, server.baseURL + "/status?code=503&key=budgeted", on: budgeted)
        let amplification = Double(server.count("budgeted")) / Double(calls)
        var configuration = Session.Configuration()
        configuration.originProtection.retryBudget = nil
        let unbudgeted = await Self.storm(calls, server.baseURL + "/status?code=503&key=unbudgeted", on: Session(configuration: configuration))
        let without = Double(server.count("unbudgeted")) / Double(calls)
        print("RETRY-FIGURE amplification=\(amplification.rounded(to: 3)) amplification_without_budget=\(without.rounded(to: 3))")
        #expect(amplification <= 1.2)
        #expect(without == 4)  // the first attempt and three retries, each
        #expect(failures.count == calls && unbudgeted.count == calls)
        let refused = failures.filter { if case .gaveUp(let failure) = $0, case .retryBudgetSpent = failure.reason { true } else { false } }
        #expect(refused.count >= calls - 20)
        #expect(refused.allSatisfy { $0.rootCause.response?.head.status == 503 })  // the last failure is kept
        let spent = budgeted.originStatuses().first?.retryTokens ?? 30
        #expect(spent <= 15)

        // The origin recovers: every new call is answered at once, and each answer refills the budget.
        let recovered = await Self.storm(50, server.baseURL + "/ok?key=after", on: budgeted)
        #expect(recovered.isEmpty)
        let refilled = budgeted.originStatuses().first?.retryTokens ?? 0
        #expect(abs(refilled - (spent + 5)) < 0.001)
        print("RETRY-FIGURE budget_tokens_after_storm=\(spent.rounded(to: 1)) budget_tokens_after_50_answers=\(refilled.rounded(to: 1))")
    }

    /// `count` soft-retrying calls to `url` at once; the errors of those that failed.
    static func storm(_ count: Int, _ url: String, on session: Session) async -> [BrickError] {
        await withTaskGroup(of: BrickError?.self) { group in
            for _ in 0..<count { group.addTask { await FaultCall(url, session: session).dataResponse().error } }
            var errors: [BrickError] = []
            for await error in group { if let error { errors.append(error) } }
            return errors
        }
    }

    @Test func aRefusedRetrySaysSoInTheTimelineAndTheLog() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let (handler, logger) = InMemoryLogHandler.makeLogger(label: "retries")
        var configuration = Session.Configuration()
        configuration.retryObserver = RetryEventLogger(logger: logger).observe
        configuration.originProtection.retryBudget = try RetryBudget(maxTokens: 2)
        let session = Session(configuration: configuration)
        let response = await FaultCall(server.baseURL + "/status?code=503&key=one", session: session).dataResponse()
        #expect(response.timeline.hasSuffix("#1 503 → retry not taken: budget"), "\(response.timeline)")  // a busy machine may show a wait first
        #expect(server.count("one") == 1)
        #expect(!response.timeline.isEmpty && "\(response.error.map(String.init(describing:)) ?? "")".contains("retry budget of http://127.0.0.1:\(server.port) is spent"))
        let refusal = handler.entries.first { $0.message.description.contains("retry not taken") }
        #expect(refusal?.level == .notice)
        #expect(refusal?.metadata["server.origin"] == "http://127.0.0.1:\(server.port)")
    }

    /// The breaker opens after its window's failures; while open a call fails at once with no request
    /// sent; half open, exactly its probe goes; the probe's answer closes it.
    @Test(arguments: [false, true]) func theBreakerOpensFailsFastProbesAndCloses(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        defer { server.stop() }
        let clock = ManualClock()
        let events = OriginEvents()
        var configuration = Session.Configuration()
        configuration.clock = clock
        configuration.retryObserver = { events.record($0) }
        configuration.originProtection.circuitBreaker = try CircuitBreaker(window: 4, minimumCalls: 4, failureRate: 0.5, openDuration: .seconds(30))
        let session = Session(configuration: configuration)
        for _ in 0..<4 { _ = await BreakerCall(server.baseURL + "/status?code=500&key=failing", session: session).dataResponse() }
        #expect(events["opened"] == 1)

        var fastest: [Double] = []
        for _ in 0..<100 {
            let start = ContinuousClock.now
            let error = await BreakerCall(server.baseURL + "/ok?key=open", session: session).dataResponse().error
            let took = (ContinuousClock.now - start).components
            fastest.append(Double(took.seconds) * 1000 + Double(took.attoseconds) / 1e15)
            guard case .heldBack(let held)? = error else { Issue.record("not held back: \(String(describing: error))"); return }
            #expect(held.reason == .circuitOpen && held.until != nil && held.origin == "http://127.0.0.1:\(server.port)")
            #expect(error?.requestMayHaveArrived == false)
        }
        #expect(server.count("open") == 0)  // no request reached the server
        let p99 = fastest.sorted()[98]
        print("RETRY-FIGURE breaker_fail_fast_p99_ms=\(p99.rounded(to: 3))")

        clock.advance(by: .seconds(30))
        let probe = Task { await BreakerCall(server.baseURL + "/gated?key=probe", session: session).dataResponse() }
        await server.waitForArrivals("probe")
        let second = await BreakerCall(server.baseURL + "/ok?key=second", session: session).dataResponse().error
        guard case .heldBack(let held)? = second else { Issue.record("a second call went while the probe was out"); return }
        #expect(held.reason == .circuitOpen && held.until == nil)
        #expect(server.count("second") == 0)
        server.openGate("probe")
        #expect(await probe.value.result.isSuccess)
        #expect(events["closed"] == 1)
        #expect(await BreakerCall(server.baseURL + "/ok?key=after", session: session).dataResponse().value == "ok")
    }

    /// A server asking for a year is held to the session's cap (2 minutes), on fresh and kept-alive connections.
    @Test(arguments: [false, true]) func aRetryAfterCannotHoldAnOriginPastTheCap(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        defer { server.stop() }
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        let session = Session(configuration: configuration)
        _ = await FaultCall(server.baseURL + "/status?code=503&retry_after=31536000&key=year", session: session, rules: .none).dataResponse()
        // The session's clock stands still: the hold ends 120 s after the instant the status is read.
        let before = Date()
        let until = try #require(session.originStatuses().first?.heldUntil)
        let after = Date()
        #expect(until >= before.addingTimeInterval(119.999) && until <= after.addingTimeInterval(120.001), "\(until)")
        let held = Task { await FaultCall(server.baseURL + "/ok?key=after", session: session, rules: .none).dataResponse() }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(120))
        #expect(await held.value.value == "ok")
    }

    /// A 503 with `Retry-After: 2` to one call holds back every call to that origin on the session for two
    /// seconds of the session's clock; another origin is not held; a call that may not wait fails at once.
    @Test(arguments: [false, true]) func aRetryAfterHoldsTheWholeOriginBack(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        let other = try FaultServer(keepAlive: keepAlive)
        defer { server.stop(); other.stop() }
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        let session = Session(configuration: configuration)
        let first = await FaultCall(server.baseURL + "/status?code=503&retry_after=2&key=first", session: session, rules: .none).dataResponse()
        #expect(first.error?.response?.head.status == 503)
        #expect(session.originStatuses().first { $0.origin.hasSuffix(":\(server.port)") }?.heldUntil != nil)

        let held = Task { await FaultCall(server.baseURL + "/ok?key=held", session: session, rules: .none).dataResponse() }
        await clock.waitForSleepers()
        #expect(server.count("held") == 0)
        #expect(await FaultCall(other.baseURL + "/ok?key=free", session: session, rules: .none).dataResponse().value == "ok")
        let impatient = AutoRetryConfiguration(maxRetryCount: 0, failWhenNotReachable: true)
        let fast = await FaultCall(server.baseURL + "/ok?key=fast", session: session, rules: impatient).dataResponse().error
        guard case .heldBack(let refusal)? = fast else { Issue.record("not held back: \(String(describing: fast))"); return }
        #expect(refusal.reason == .retryAfter)
        #expect(server.count("fast") == 0)
        print("RETRY-FIGURE retry_after_leaked=\(server.count("held") + server.count("fast"))")

        clock.advance(by: .seconds(2))
        #expect(await held.value.value == "ok")
        #expect(server.count("held") == 1)
    }
}

extension OriginProtectionTests {
    /// Two attempts in flight to an origin at most, one waiting: a third call waits for its place until its
    /// deadline, a fourth finds the line full, and a place that frees goes to the next in line.
    @Test(arguments: [false, true]) func theLimitOfCallsPerOriginQueuesAndBoundsItsLine(keepAlive: Bool) async throws {
        let server = try FaultServer(keepAlive: keepAlive)
        defer { server.stop() }
        let clock = ManualClock()
        var configuration = Session.Configuration()
        configuration.clock = clock
        configuration.originProtection = try OriginProtection(maxConcurrentCalls: 2, maxQueuedCalls: 1)
        let session = Session(configuration: configuration)
        let patient = AutoRetryConfiguration(maxRetryCount: 0, deadline: .seconds(10))
        let first = Task { await FaultCall(server.baseURL + "/gated?key=a", session: session, rules: .none).dataResponse() }
        let second = Task { await FaultCall(server.baseURL + "/gated?key=b", session: session, rules: .none).dataResponse() }
        await server.waitForArrivals("a")
        await server.waitForArrivals("b")

        let late = Task { await FaultCall(server.baseURL + "/ok?key=c", session: session, rules: patient).dataResponse() }
        await clock.waitForSleepers()  // its wait for a place runs until its deadline
        #expect(session.originStatuses().first?.calls.map { [$0.inFlight, $0.waiting] } == [2, 1])
        let full = await FaultCall(server.baseURL + "/ok?key=d", session: session, rules: patient).dataResponse().error
        guard case .heldBack(let refusal)? = full else { Issue.record("not refused: \(String(describing: full))"); return }
        #expect(refusal.reason == .queueFull)
        clock.advance(by: .seconds(10))
        guard case .heldBack(let expired)? = await late.value.error else { Issue.record("the late call did not expire"); return }
        #expect(expired.reason == .queueWaitExpired)
        #expect(server.count("c") == 0 && server.count("d") == 0)

        let next = Task { await FaultCall(server.baseURL + "/ok?key=e", session: session, rules: patient).dataResponse() }
        await clock.waitForSleepers()
        #expect(server.count("e") == 0)
        server.openGate("a")
        #expect(await first.value.value != nil)
        #expect(await next.value.value == "ok")
        server.openGate("b")
        #expect(await second.value.value != nil)
        #expect(session.originStatuses().first?.calls.map { [$0.inFlight, $0.waiting] } == [0, 0])
    }
}

extension Double {
    func rounded(to places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
