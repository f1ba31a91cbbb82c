import BrickCore
import BrickTesting
import Foundation
import Testing

/// One attempt loop serves every call: an interceptor's replay, an error handler's retry and the retry
/// rules take turns in it, under one cap, in one list of attempts; downloads go through the same loop.
struct AttemptLoopTests {
    static let url = "https://api.test/r"
    static let rules = AutoRetryConfiguration(breakTime: .seconds(1), maxRetryCount: 3, maxBreakTime: .seconds(8))

    let clock = ManualClock()
    let stub: StubTransport
    let reachability = ManualReachability()
    let events = RetryEvents()

    init() { stub = StubTransport(clock: clock) }

    func session(maxAttempts: Int = 16, handler: Handler? = nil) -> Session {
        var configuration = Session.Configuration(baseURL: "https://api.test")
        configuration.clock = clock
        configuration.reachability = reachability
        configuration.retryObserver = { [events] in events.record($0) }
        configuration.maxAttempts = maxAttempts
        configuration.errorHandlers = handler.map { [$0] } ?? []
        return Session(configuration: configuration, transport: stub)
    }

    /// An interceptor that replays the first attempt, and an error handler that retries a 500.
    static let replayFirst = Replayer { $0.attempt == 1 }
    static let retry500 = Handler { error, _ in
        error.response?.head.status == 500 ? .retry(after: .zero, reason: "handler retry") : .unhandled
    }

    @Test func replaysHandlerRetriesAndRuleRetriesShareOneListOfAttempts() async throws {
        stub.stub(.get, Self.url, replies: [
            RetryPipelineTests.response(200, "replayed"), RetryPipelineTests.response(503), RetryPipelineTests.response(500),
            RetryPipelineTests.response(200, "ok"),
        ])
        let session = session(handler: Self.retry500)
        async let outcome = Retried("/r", session: session, rules: Self.rules, modifiers: [Self.replayFirst]).dataResponse()
        await clock.waitForSleepers()  // the rules' backoff after the 503
        clock.advance(by: Self.rules.maxBreakTime)
        let response = await outcome
        #expect(try response.result.get() == "ok")
        #expect(response.attempts.map(\.repeatReason) == ["test replay", "retry after status 503", "handler retry", nil])
        #expect(stub.requests.map { $0.headers["X-Attempt"] } == ["1", "2", "3", "4"])
    }

    @Test func maxAttemptsCapsEveryChannelTogether() async {
        stub.stub(.get, Self.url, replies: [
            RetryPipelineTests.response(200, "replayed"), RetryPipelineTests.response(503), RetryPipelineTests.response(500),
            RetryPipelineTests.response(200, "ok"),
        ])
        let session = session(maxAttempts: 3, handler: Self.retry500)
        async let outcome = Retried("/r", session: session, rules: Self.rules, modifiers: [Self.replayFirst]).dataResponse()
        await clock.waitForSleepers()
        clock.advance(by: Self.rules.maxBreakTime)
        let response = await outcome
        #expect(stub.requests.count == 3)
        #expect(response.error?.response?.head.status == 500)  // the handler's retry was refused: the 500 stands
        #expect(response.attempts.map(\.repeatReason) == ["test replay", "retry after status 503", nil])
    }

    @Test func aDownloadThatGivesUpTellsTheObserverLikeAnyCall() async throws {
        stub.stub(.get, Self.url, reply: RetryPipelineTests.response(503))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("attempt-loop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = AutoRetryConfiguration(breakTime: .seconds(1), maxRetryCount: 1, maxBreakTime: .seconds(1))
        async let download = Result(catching: { () async throws(BrickError) in
            try await Retried("/r", session: session(), rules: rules).download(to: directory.appendingPathComponent("file"))
        })
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        guard case .failure(.gaveUp(let failure)) = await download else { Issue.record("the download did not give up"); return }
        #expect(failure.reason == .retriesExhausted(retries: 1))
        let told = await events.next { if case .gaveUp = $0 { true } else { false } }
        guard case .gaveUp(_, let toldFailure)? = told else { Issue.record("no gaveUp event"); return }
        #expect(toldFailure.reason == .retriesExhausted(retries: 1))
    }

    /// Reachability is asked once before each attempt and once after a failure a lost network could explain.
    @Test func reachabilityIsAskedOncePerQuestion() async throws {
        stub.stub(.get, Self.url, replies: [.failure(TransportError(.connectionLost, message: "reset")), RetryPipelineTests.response(200, "ok")])
        async let outcome = Retried("/r", session: session(), rules: Self.rules).dataResponse()
        await clock.waitForSleepers()
        clock.advance(by: Self.rules.maxBreakTime)
        #expect(try await outcome.result.get() == "ok")
        #expect(reachability.statusQueries == 3)  // before #1, after its failure, before #2
    }

    @Test func theTimelineShowsEachAttemptAndTheWaitsBetween() async throws {
        stub.stub(.get, Self.url, replies: [RetryPipelineTests.response(500), RetryPipelineTests.response(200, "ok")])
        let handler = Handler { error, _ in
            error.response?.head.status == 500 ? .retry(after: .seconds(2), reason: "handler retry") : .unhandled
        }
        async let outcome = Retried("/r", session: session(handler: handler), rules: .none).dataResponse()
        await clock.waitForSleepers()
        clock.advance(by: .seconds(2))
        let response = await outcome
        #expect(response.timeline == "#1 500 → waited 2.0 s → #2 200")
        #expect(response.attempts.map(\.waitedBefore) == [.zero, .seconds(2)])
    }
}

extension Result where Failure == BrickError {
    /// The outcome of a throwing call, as a value.
    init(catching body: () async throws(BrickError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }

}

/// What people would rather see than read: the waterfall of a transfer's phases, progress with its rate.
struct RenderingTests {
    @Test func theWaterfallNamesEachPhaseOfANewConnection() {
        var metrics = TransferMetrics()
        metrics.nameLookupEnd = .microseconds(300)
        metrics.connectEnd = .microseconds(400)
        metrics.tlsEnd = .microseconds(4_600)
        metrics.requestStart = .microseconds(4_700)
        metrics.firstByte = .microseconds(16_700)
        metrics.total = .microseconds(17_100)
        #expect(metrics.waterfall == "DNS 300 µs │ connect 100 µs │ TLS 4.2 ms │ server 12.0 ms │ transfer 400 µs")
        metrics.reusedConnection = true
        metrics.redirectCount = 1
        #expect(metrics.waterfall == "reused connection │ server 12.0 ms │ transfer 400 µs │ 1 redirect")
    }

    @Test func progressSaysHowFarHowFastAndHowLong() {
        let progress = TransferProgress(completed: 12_300_000, expected: 100_000_000, bytesPerSecond: 4_500_000)
        #expect(progress.estimatedTimeRemaining == .milliseconds(19_489))
        #expect(progress.description == "12.3 MB of 100.0 MB (12%), 4.5 MB/s, 19.5 s left")
        #expect(TransferProgress(completed: 512, expected: nil).description == "512 B")
        #expect(TransferProgress(completed: 1, expected: 2, bytesPerSecond: .nan).bytesPerSecond == nil)
        #expect(TransferProgress(completed: 1, expected: 2, bytesPerSecond: 0).estimatedTimeRemaining == nil)
    }
}
