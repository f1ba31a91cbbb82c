import BrickCore
import BrickTesting
import Foundation
import Testing

/// A request value sent through `Session.send(_:)`, `dataResponse(for:)` and `stream(_:)` gets the same
/// pipeline as a brick class: base URL, session headers, interceptors, reachability and retry rules.
struct ReadyRequestTests {
    let clock = ManualClock()
    let stub: StubTransport
    init() { stub = StubTransport(clock: clock) }

    func session(interceptors: [any Interceptor] = []) -> Session {
        var configuration = Session.Configuration(baseURL: "https://ready.test/v1")
        configuration.clock = clock
        configuration.headers["X-Session"] = "s"
        configuration.interceptors = interceptors
        return Session(configuration: configuration, transport: stub)
    }

    static let rules = AutoRetryConfiguration(breakTime: .seconds(1), maxRetryCount: 2, maxBreakTime: .seconds(1))
    static let lost = StubTransport.Reply.failure(TransportError(.connectionLost, message: "reset by peer"))

    @Test func aRelativeRequestGetsTheBaseURLSessionHeadersAndInterceptors() async throws {
        stub.stub(.get, "https://ready.test/v1/items", body: Data("ok".utf8))
        let request = TransportRequest(method: .get, url: "/items", headers: ["X-Session": "mine"])
        let response = try await session(interceptors: [Replayer { _ in false }]).send(request)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        let sent = try #require(stub.requests.first)
        #expect(sent.headers["X-Session"] == "mine")  // the request's own field wins over the session's
        #expect(sent.headers["X-Attempt"] == "1")  // adapted by the session's interceptor
    }

    @Test func theRetryRulesApplyAndAnyStatusIsAnAnswerUnlessValidated() async throws {
        stub.stub(.get, "https://ready.test/v1/flaky", replies: [Self.lost, RetryPipelineTests.response(404)])
        async let outcome = session().dataResponse(for: TransportRequest(method: .get, url: "/flaky"), retry: Self.rules)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        let response = await outcome
        #expect(try response.result.get().head.status == 404)
        #expect(response.attempts.count == 2)
        stub.stub(.get, "https://ready.test/v1/missing", status: 404)
        await #expect(throws: BrickError.self) {
            try await session().send(TransportRequest(method: .get, url: "/missing"), validation: .successful)
        }
    }

    @Test func aPostThatMayHaveArrivedIsNotSentTwice() async {
        stub.stub(.post, "https://ready.test/v1/orders", replies: [Self.lost, RetryPipelineTests.response(201)])
        let request = TransportRequest(method: .post, url: "/orders", body: .data(Data("{}".utf8)))
        let outcome = await session().dataResponse(for: request, retry: Self.rules)
        #expect(outcome.error?.requestMayHaveArrived == true)
        #expect(stub.requests.count == 1)
    }

    @Test func aStreamIsRetriedUntilItsHeadArrivesAndTheCallerSeesOnlyTheAttemptThatAnswered() async throws {
        stub.stub(.get, "https://ready.test/v1/feed", replies: [Self.lost, RetryPipelineTests.response(200, "events")])
        let stream = session().stream(TransportRequest(method: .get, url: "/feed"), retry: Self.rules)
        async let collected = Result { () async throws(BrickError) -> [TransportEvent] in
            var events: [TransportEvent] = []
            for try await event in stream { events.append(event) }
            return events
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        let events = try await collected.get()
        let heads = events.compactMap { if case .head(let head) = $0 { head.status } else { nil } }
        let body = events.compactMap { if case .body(let data) = $0 { data } else { nil } }.reduce(Data(), +)
        #expect(heads == [200])
        #expect(String(decoding: body, as: UTF8.self) == "events")
        #expect(stub.requests.count == 2)
    }
}

/// `ParameterEncoder`: the parameters of an `Encodable` value, as a query or a form sends them.
struct ParameterEncoderTests {
    struct Filter: Encodable {
        struct Page: Encodable { let size: Int; let after: String? }
        struct Tag: Encodable { let id: Int }
        let q: String
        let exact: Bool
        let tags: [String]
        let page: Page
        let since: Date
        let missing: Int?
        let items: [Tag]
    }

    @Test func propertiesBecomeNamedPairsInOrder() throws {
        let filter = Filter(
            q: "a b&c", exact: true, tags: ["x", "y"], page: .init(size: 20, after: nil),
            since: Date(timeIntervalSince1970: 0), missing: nil, items: [.init(id: 7)])
        let encoded = try ParameterEncoder().encode(filter).urlEncoded()
        #expect(encoded == "q=a%20b%26c&exact=true&tags=x&tags=y&page%5Bsize%5D=20&since=1970-01-01T00%3A00%3A00Z&items%5B0%5D%5Bid%5D=7")
    }

    @Test func aValueWithoutNamesIsATypedError() {
        #expect(throws: RequestEncodingError.self) { try ParameterEncoder().encode([1, 2]) }
        #expect(throws: RequestEncodingError.self) { try ParameterEncoder().encode("bare") }
    }

    @Test func dictionariesWork() throws {
        #expect(try ParameterEncoder().encode(["k": "v"]).urlEncoded() == "k=v")
    }
}
