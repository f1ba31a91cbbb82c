import BrickCore
import BrickRequest
import TestServers
import BrickObservability
import BrickTesting
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// Spans, trace-context headers and metrics of calls through a session, with swift-distributed-tracing's
/// and swift-metrics' in-memory test backends, on a stub transport: one call that fails once and is retried.
struct ObservabilityTests {
    let clock = ManualClock()
    let stub: StubTransport
    let tracer = InMemoryTracer()
    let metrics = TestMetrics()
    let session: Session
    static let url = "https://obs.test/orders?access_token=s3cr3t"
    static let rules = AutoRetryConfiguration(breakTime: .seconds(1), maxRetryCount: 2, maxBreakTime: .seconds(1))

    init() {
        stub = StubTransport(clock: clock)
        stub.stub(.get, Self.url, replies: [
            .failure(TransportError(.connectionRefused, message: "refused")),
            .response(TransportResponse(head: ResponseHead(status: 200), body: Data("[]".utf8))),
        ])
        stub.stub(.get, "https://obs.test/missing", status: 404)
        var configuration = Session.Configuration()
        configuration.clock = clock
        configuration.addTracing(tracer)
        configuration.addMetrics(factory: metrics)
        session = Session(configuration: configuration, transport: stub)
    }

    func retriedCall() async throws {
        async let response = session.send(TransportRequest(url: Self.url), retry: Self.rules)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(try await response.head.status == 200)
    }

    @Test func aCallHasOneSpanAndEachAttemptAChildSpanWithTheConventionsAttributes() async throws {
        try await retriedCall()
        let spans = tracer.finishedSpans
        let call = try #require(spans.first { $0.kind == .internal })
        let attempts = spans.filter { $0.kind == .client }
        #expect(call.operationName == "GET TransportRequest")
        #expect(attempts.count == 2)
        #expect(attempts.allSatisfy { $0.parentSpanID == call.spanID && $0.traceID == call.traceID })
        #expect(call.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(call.attributes["url.full"]?.toSpanAttribute() == "https://obs.test/orders?access_token=<redacted>")
        #expect(call.attributes["server.address"]?.toSpanAttribute() == "obs.test")
        #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(call.attributes["brick.attempts"]?.toSpanAttribute() == 2)
        #expect(call.status == nil)
        let first = try #require(attempts.first { $0.attributes["http.request.resend_count"] == nil })
        let second = try #require(attempts.first { $0.attributes["http.request.resend_count"] != nil })
        #expect(first.attributes["error.type"]?.toSpanAttribute() == "connectionRefused")
        #expect(first.status?.code == .error)
        #expect(second.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
        #expect(second.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
    }

    @Test func eachAttemptCarriesItsOwnTraceContextInItsHeaders() async throws {
        try await retriedCall()
        let attempts = tracer.finishedSpans.filter { $0.kind == .client }
        let sentSpanIDs = stub.requests.map { $0.headers[InMemoryTracer.spanIDKey] }
        #expect(Set(sentSpanIDs.compactMap { $0 }) == Set(attempts.map(\.spanID)))
        #expect(stub.requests.allSatisfy { $0.headers[InMemoryTracer.traceIDKey] == attempts.first?.traceID })
    }

    @Test func durationActiveRequestsAndRetriesAreRecorded() async throws {
        try await retriedCall()
        let duration = try metrics.expectTimer(
            "http.client.request.duration",
            [("http.request.method", "GET"), ("server.address", "obs.test"), ("http.response.status_code", "200")])
        #expect(duration.values.count == 1)
        let active = try metrics.expectMeter("http.client.active_requests", [("http.request.method", "GET"), ("server.address", "obs.test")])
        #expect(active.values == [1, 0])
        #expect(metrics.counterTotal(label: "http.client.retries") == 1)
    }

    @Test func aFailedCallIsAnErrorSpanAndAnErrorTypedDuration() async throws {
        await #expect(throws: BrickError.self) {
            try await session.send(TransportRequest(url: "https://obs.test/missing"), validation: .successful)
        }
        let call = try #require(tracer.finishedSpans.first { $0.kind == .internal })
        #expect(call.status?.code == .error)
        #expect(call.attributes["error.type"]?.toSpanAttribute() == "404")
        let duration = try metrics.expectTimer(
            "http.client.request.duration",
            [("http.request.method", "GET"), ("server.address", "obs.test"), ("http.response.status_code", "404"), ("error.type", "404")])
        #expect(duration.values.count == 1)
    }
}

/// A method the conventions do not list is labelled `_OTHER`, so that callers' methods cannot grow the
/// number of metric series; the span keeps the original. Against a real server of ours.
@Suite struct MethodLabelTests {
    @Test func anUnlistedMethodIsOtherInMetricsAndSpansAndAListedOneIsItself() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let tracer = InMemoryTracer()
        let metrics = TestMetrics()
        var configuration = Session.Configuration()
        configuration.addTracing(tracer)
        configuration.addMetrics(factory: metrics)
        let session = Session(configuration: configuration)
        for method in ["PURGE", "get", "PATCH"] {
            _ = try await session.send(TransportRequest(method: HTTPMethod(method), url: server.baseURL + "/ok?key=" + method))
        }
        #expect(server.count("PURGE") == 1 && server.count("get") == 1)
        let labels = Set(metrics.timers.map { timer in timer.dimensions.first { $0.0 == "http.request.method" }?.1 ?? "" })
        #expect(labels == ["_OTHER", "PATCH"])
        let calls = tracer.finishedSpans.filter { $0.kind == .internal }
        #expect(calls.compactMap { $0.attributes["http.request.method_original"]?.toSpanAttribute() } == ["PURGE", "get"])
        #expect(calls.map(\.operationName).filter { $0.hasPrefix("HTTP ") }.count == 2)
    }

    /// One 503 with `Retry-After` on a session whose budget has two tokens and whose breaker opens on one
    /// failure: the answer starts a hold, opens the breaker and leaves no budget for the retry.
    @Test func theOriginProtectionsAreCounted() async throws {
        let metrics = TestMetrics()
        let stub = StubTransport()
        stub.stub(.get, "https://busy.test/a", replies: [
            .response(TransportResponse(head: ResponseHead(status: 503, headers: ["Retry-After": "1"]))),
        ])
        var configuration = Session.Configuration()
        configuration.originProtection = try OriginProtection(
            retryBudget: RetryBudget(maxTokens: 2), circuitBreaker: CircuitBreaker(window: 1, minimumCalls: 1, failureRate: 1),
            breaksEveryCall: true)
        configuration.addMetrics(factory: metrics)
        let session = Session(configuration: configuration, transport: stub)
        let error = await #expect(throws: BrickError.self) { 
            try await session.send(TransportRequest(url: "https://busy.test/a"), retry: ObservabilityTests.rules, validation: .successful)
        }
        guard case .gaveUp(let failure)? = error, case .retryBudgetSpent = failure.reason else { Issue.record("\(String(describing: error))"); return }
        let origin = [("server.origin", "https://busy.test:443")]
        #expect(try metrics.expectCounter("brick.retries.refused", origin).totalValue == 1)
        #expect(try metrics.expectCounter("brick.circuit.transitions", origin + [("state", "open")]).totalValue == 1)
        #expect(try metrics.expectCounter("brick.origin.holds", origin).totalValue == 1)
    }
}
