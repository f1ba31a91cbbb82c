import BrickCore
import BrickTesting
import Foundation
import Synchronization
import Testing

/// A request with its retry rules, method and idempotency given at creation.
final class Retried: Component, RequestType, ResponseType {
    let method: HTTPMethod
    let session: Session
    let path: String
    let autoRetryConfiguration: AutoRetryConfiguration
    let idempotency: Idempotency
    let modifiers: [any RequestModifier]
    var responseSerializer: ResponseSerializer<String> { ResponseSerializer { String(decoding: $0.body, as: UTF8.self) } }

    init(_ path: String, method: HTTPMethod = .get, session: Session, rules: AutoRetryConfiguration = RetryPipelineTests.rules,
         idempotency: Idempotency = .byMethod, modifiers: [any RequestModifier] = []) {
        self.method = method
        self.path = path
        self.session = session
        self.autoRetryConfiguration = rules
        self.idempotency = idempotency
        self.modifiers = modifiers
        super.init()
    }
}

/// Retry events as an async sequence, so that a test can wait for "the request is waiting" without sleeping.
final class RetryEvents: Sendable {
    let stream: AsyncStream<RetryEvent>
    private let continuation: AsyncStream<RetryEvent>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream() }
    func record(_ event: RetryEvent) { continuation.yield(event) }

    /// The next event that `matches`.
    func next(where matches: (RetryEvent) -> Bool) async -> RetryEvent? {
        for await event in stream where matches(event) { return event }
        return nil
    }
}

/// A signal a stub reply raises when the request reaches the transport.
final class Arrivals: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream() }
    func arrive() { continuation.yield() }
    func next() async { for await _ in stream { return } }
}

struct StampAttempt: Interceptor {
    func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        request.headers["X-Attempt"] = String(context.attempt)
    }
}

extension RetryEvent {
    var isWaiting: Bool { if case .waitingForNetwork = self { true } else { false } }
    var isRetrying: Bool { if case .retrying = self { true } else { false } }
}

/// The retry rules inside the pipeline: stub transport, manual clock, manual reachability — no real waits.
struct RetryPipelineTests {
    static let rules = AutoRetryConfiguration(
        breakTime: .seconds(1), maxRetryCount: 3, maxBreakTime: .seconds(8), maxNetworkWait: .seconds(60))
    static let url = "https://api.test/r"

    let clock = ManualClock()
    let stub: StubTransport
    let reachability = ManualReachability()
    let events = RetryEvents()
    let session: Session

    init() {
        stub = StubTransport(clock: clock)
        var configuration = Session.Configuration(baseURL: "https://api.test")
        configuration.clock = clock
        configuration.reachability = reachability
        configuration.retryObserver = { [events] in events.record($0) }
        session = Session(configuration: configuration, transport: stub)
    }

    static func response(_ status: Int, _ body: String = "", headers: HTTPHeaders = [:]) -> StubTransport.Reply {
        .response(TransportResponse(head: ResponseHead(status: status, headers: headers), body: Data(body.utf8)))
    }

    /// Moves the clock past every backoff delay, one retry at a time, while the call runs.
    func driveBackoff(times: Int) async {
        for _ in 0..<times {
            await clock.waitForSleepers()
            clock.advance(by: Self.rules.maxBreakTime)
        }
    }

    @Test func aFailingRequestIsRetriedExactlyMaxRetryCountTimes() async {
        stub.stub(.get, Self.url, reply: Self.response(503))
        async let outcome = Retried("/r", session: session).dataResponse()
        await driveBackoff(times: 3)
        let response = await outcome
        #expect(stub.requests.count == 4)
        #expect(response.attempts.count == 4)
        #expect(response.attempts.dropLast().allSatisfy { $0.repeatReason == "retry after status 503" })
        guard case .gaveUp(let failure) = response.error else { Issue.record("expected gaveUp, got \(String(describing: response.error))"); return }
        #expect(failure.reason == .retriesExhausted(retries: 3))
        #expect(failure.lastError?.response?.head.status == 503)
        #expect(response.error?.rootCause.response?.head.status == 503)
    }

    @Test func aRequestThatRecoversSucceedsAndReportsItsAttempts() async throws {
        stub.stub(.get, Self.url, replies: [.failure(TransportError(.connectionRefused, message: "refused")), Self.response(502),
                                          Self.response(200, "ok")])
        async let outcome = Retried("/r", session: session, modifiers: [StampAttempt()]).dataResponse()
        await driveBackoff(times: 2)
        let response = await outcome
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.map(\.repeatReason) == ["retry after connection refused", "retry after status 502", nil])
        #expect(stub.requests.map { $0.headers["X-Attempt"] } == ["1", "2", "3"])
    }

    @Test func retryAfterIsWaitedForExactly() async throws {
        stub.stub(.get, Self.url, replies: [Self.response(429, headers: ["Retry-After": "5"]), Self.response(200, "ok")])
        async let outcome = Retried("/r", session: session).dataResponse()
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(4999))
        #expect(clock.sleeperCount == 1)
        #expect(stub.requests.count == 1)
        clock.advance(by: .milliseconds(1))
        #expect(try await outcome.result.get() == "ok")
        #expect(stub.requests.count == 2)
    }

    @Test func aPostThatMayHaveArrivedIsNotRepeated() async {
        stub.stub(.post, Self.url, replies: [.failure(TransportError(.connectionLost, message: "reset")), Self.response(200)])
        let response = await Retried("/r", method: .post, session: session).dataResponse()
        #expect(stub.requests.count == 1)
        #expect(response.error?.transportError?.kind == .connectionLost)
    }

    /// The error says whether the request may have arrived, the same way whether the failure ended the first
    /// attempt or the rules gave up after retries.
    @Test func theErrorSaysWhetherTheRequestMayHaveArrivedTheSameWayEachTime() async {
        stub.stub(.post, Self.url, replies: [.failure(TransportError(.connectionLost, message: "reset"))])
        let first = await Retried("/r", method: .post, session: session).dataResponse()
        #expect(first.error?.transportError?.kind == .connectionLost)
        #expect(first.error?.requestMayHaveArrived == true)
        #expect(first.error?.description.hasSuffix("(the request may have arrived)") == true)

        stub.stub(.post, "https://api.test/later", replies: [
            .failure(TransportError(.connectionRefused, message: "refused")), .failure(TransportError(.connectionLost, message: "reset")),
        ])
        async let later = Retried("/later", method: .post, session: session).dataResponse()
        await driveBackoff(times: 1)
        let gaveUp = await later
        guard case .gaveUp(let failure)? = gaveUp.error else { Issue.record("got \(String(describing: gaveUp.error))"); return }
        #expect(failure.reason == .notIdempotent)
        #expect(gaveUp.error?.requestMayHaveArrived == true)
        // Said once: the last error's own words say it, and giving up does not say it again.
        #expect(gaveUp.error?.description.components(separatedBy: "(the request may have arrived)").count == 2)

        stub.stub(.get, "https://api.test/refused", reply: .failure(TransportError(.connectionRefused, message: "refused")))
        let refused = await Retried("/refused", session: session, rules: .none).dataResponse()
        #expect(refused.error?.requestMayHaveArrived == false)
        #expect(refused.error?.description.hasSuffix("(the request was not sent)") == true)
        #expect(BrickError.requestEncoding(.unsupportedParameters("files")).requestMayHaveArrived == false)
        #expect(BrickError.gaveUp(RetryFailure(reason: .notReachable(host: "h"), attempts: [])).requestMayHaveArrived == false)
    }

    @Test func aPostThatNeverLeftIsRetried() async throws {
        stub.stub(.post, Self.url, replies: [.failure(TransportError(.connectionRefused, message: "refused")), Self.response(200, "ok")])
        async let outcome = Retried("/r", method: .post, session: session).dataResponse()
        await driveBackoff(times: 1)
        #expect(try await outcome.result.get() == "ok")
        #expect(stub.requests.count == 2)
    }

    @Test func anIdempotencyKeyMakesAPostRetryableAndStaysTheSameAcrossAttempts() async throws {
        stub.stub(.post, Self.url, replies: [Self.response(503), Self.response(200, "ok")])
        async let outcome = Retried("/r", method: .post, session: session, idempotency: .key(header: "Idempotency-Key")).dataResponse()
        await driveBackoff(times: 1)
        #expect(try await outcome.result.get() == "ok")
        let keys = stub.requests.compactMap { $0.headers["Idempotency-Key"] }
        #expect(keys.count == 2 && keys[0] == keys[1] && keys[0].count == 36)
    }

    @Test func aRequestStartedOfflineWaitsUnsentAndGoesOutWhenTheHostReturns() async throws {
        reachability.goOffline("api.test")
        stub.stub(.get, Self.url, reply: Self.response(200, "ok"))
        async let outcome = Retried("/r", session: session).dataResponse()
        _ = await events.next { $0.isWaiting }
        #expect(stub.requests.isEmpty)
        clock.advance(by: .seconds(2))
        reachability.goOnline("api.test")
        let response = await outcome
        #expect(try response.result.get() == "ok")
        #expect(stub.requests.count == 1)
        #expect(response.attempts.count == 1)
        #expect(response.timeline == "waited 2.0 s → #1 200", "the wait for the route shows before the first attempt")
    }

    @Test func aTimelineStartsWithTheFirstAttemptWhenNothingWasWaitedFor() async throws {
        stub.stub(.get, Self.url, replies: [Self.response(503), Self.response(200, "ok")])
        async let outcome = Retried("/r", session: session).dataResponse()
        await driveBackoff(times: 1)
        let response = await outcome
        #expect(response.timeline.hasPrefix("#1 503 → waited "), "\(response.timeline)")
    }

    /// A POST the rules would have repeated but for its method: the timeline and the error say so, and name
    /// the brick that allows a repeat.
    @Test func aPostAnswered503SaysWhyItWasNotRepeated() async {
        stub.stub(.post, Self.url, replies: [Self.response(503)])
        let response = await Retried("/r", method: .post, session: session).dataResponse()
        #expect(stub.requests.count == 1)
        guard case .gaveUp(let failure)? = response.error else { Issue.record("got \(String(describing: response.error))"); return }
        #expect(failure.reason == .notIdempotent && failure.attempts.count == 1)
        #expect(response.timeline == "#1 503 → retry not taken: POST is not idempotent (IdempotencyKeyType allows a repeat)")
        #expect(response.error?.description.contains("IdempotencyKeyType allows a repeat") == true)
        #expect(response.error?.response?.head.status == 503)
    }

    @Test func failWhenNotReachableFailsAtOnceWithoutSending() async {
        reachability.goOffline()
        var rules = Self.rules
        rules.failWhenNotReachable = true
        let response = await Retried("/r", session: session, rules: rules).dataResponse()
        #expect(stub.requests.isEmpty)
        guard case .gaveUp(let failure) = response.error else { Issue.record("expected gaveUp"); return }
        #expect(failure.reason == .notReachable(host: "api.test"))
        #expect(failure.lastError == nil)
    }

    @Test func theWaitForTheNetworkIsBoundedByMaxNetworkWait() async {
        reachability.goOffline()
        async let outcome = Retried("/r", session: session).dataResponse()
        await clock.waitForSleepers()
        clock.advance(by: .seconds(60))
        let response = await outcome
        guard case .gaveUp(let failure) = response.error else { Issue.record("expected gaveUp"); return }
        #expect(failure.reason == .networkWaitExpired(host: "api.test", waited: .seconds(60)))
        #expect(stub.requests.isEmpty)
    }

    @Test func aFailureWhileTheHostIsUnreachableWaitsForItAndCountsAsARetry() async throws {
        let reachability = self.reachability
        stub.stub(.get, Self.url, replies: [
            .computed { _ in
                reachability.goOffline("api.test")
                return .failure(TransportError(.networkUnreachable, message: "no route"))
            },
            Self.response(200, "ok"),
        ])
        async let outcome = Retried("/r", session: session).dataResponse()
        _ = await events.next { $0.isWaiting }
        #expect(stub.requests.count == 1)
        reachability.goOnline("api.test")
        let response = await outcome
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.map(\.repeatReason) == ["retry after network unreachable", nil])
    }

    @Test func aTransferWhoseHostBecomesUnreachableIsEndedAndRetriedWhenItReturns() async throws {
        let arrivals = Arrivals()
        stub.stub(.get, Self.url, replies: [.computed { _ in arrivals.arrive(); return .never }, Self.response(200, "ok")])
        async let outcome = Retried("/r", session: session).dataResponse()
        await arrivals.next()
        reachability.goOffline("api.test")
        _ = await events.next { $0.isWaiting }
        reachability.goOnline("api.test")
        let response = await outcome
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.first?.error?.transportError?.kind == .connectionLost)
    }

    @Test(.timeLimit(.minutes(1))) func aStreamWhoseHostBecomesUnreachableEndsWithConnectionLost() async {
        let arrivals = Arrivals()
        stub.stub(.get, Self.url, replies: [.computed { _ in arrivals.arrive(); return .never }])
        let stream = Retried("/r", session: session, rules: .none).stream()
        let reading = Task { () -> (any Error)? in
            do {
                for try await _ in stream {}
                return nil
            } catch {
                return error
            }
        }
        await arrivals.next()
        reachability.goOffline("api.test")
        #expect((await reading.value as? BrickError)?.transportError?.kind == .connectionLost)
    }

    @Test(.timeLimit(.minutes(1))) func aStreamCutBeforeItsHeadWaitsForTheNetworkAndResumesUnderItsRetryRules() async throws {
        let arrivals = Arrivals()
        stub.stub(.get, Self.url, replies: [.computed { _ in arrivals.arrive(); return .never }, Self.response(200, "resumed")])
        let stream = Retried("/r", session: session).stream()
        let reading = Task { () async throws(BrickError) -> String in
            var body = Data()
            for try await event in stream { if case .body(let chunk) = event { body.append(chunk) } }
            return String(decoding: body, as: UTF8.self)
        }
        await arrivals.next()
        reachability.goOffline("api.test")
        _ = await events.next { $0.isWaiting }
        reachability.goOnline("api.test")
        #expect(try await reading.value == "resumed")
        #expect(stub.requests.count == 2)
    }

    @Test func aPostCutByAnOutageIsNotRepeated() async {
        let arrivals = Arrivals()
        stub.stub(.post, Self.url, replies: [.computed { _ in arrivals.arrive(); return .never }, Self.response(200, "ok")])
        async let outcome = Retried("/r", method: .post, session: session).dataResponse()
        await arrivals.next()
        reachability.goOffline("api.test")
        let response = await outcome
        #expect(response.error?.transportError?.kind == .connectionLost)
        #expect(stub.requests.count == 1)
    }

    @Test func cancellingDuringTheWaitForTheNetworkEndsWithCancelled() async {
        reachability.goOffline()
        let task = Task { await Retried("/r", session: session).dataResponse() }
        _ = await events.next { $0.isWaiting }
        task.cancel()
        #expect(await task.value.error?.isCancelled == true)
        #expect(stub.requests.isEmpty)
    }

    @Test func noRetryStartsPastTheDeadline() async {
        var rules = Self.rules
        rules.deadline = .seconds(10)
        rules.maxRetryAfter = .seconds(60)
        stub.stub(.get, Self.url, reply: Self.response(503, headers: ["Retry-After": "30"]))
        let response = await Retried("/r", session: session, rules: rules).dataResponse()
        guard case .gaveUp(let failure) = response.error else { Issue.record("expected gaveUp"); return }
        #expect(failure.reason == .deadlineExceeded)
        #expect(stub.requests.count == 1)
    }

    @Test func aNonRetryableFailureOnTheFirstAttemptKeepsItsPlainError() async {
        stub.stub(.get, Self.url, reply: Self.response(404))
        let response = await Retried("/r", session: session).dataResponse()
        guard case .validation = response.error else { Issue.record("expected the validation error"); return }
        #expect(stub.requests.count == 1)
    }

    @Test func noneNeverRetriesAndNeverWaits() async {
        reachability.goOffline()
        stub.stub(.get, Self.url, reply: .failure(TransportError(.networkUnreachable, message: "no route")))
        let response = await Retried("/r", session: session, rules: .none).dataResponse()
        #expect(response.error?.transportError?.kind == .networkUnreachable)
        #expect(stub.requests.count == 1)
    }

    @Test func eachRetryIsAnnouncedWithItsDelayAndFailure() async {
        stub.stub(.get, Self.url, replies: [Self.response(503, headers: ["Retry-After": "2"]), Self.response(200)])
        async let outcome = Retried("/r", session: session).dataResponse()
        let event = await events.next { $0.isRetrying }
        guard case .retrying(let name, let attempt, let delay, let failure) = event else { Issue.record("no event"); return }
        #expect(name == "Retried" && attempt == 1 && delay == .seconds(2) && failure.response?.head.status == 503)
        await driveBackoff(times: 1)
        _ = await outcome
    }
}
