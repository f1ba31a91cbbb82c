import BrickCore
import BrickSystem
import BrickTesting
import BrickTransport
import Foundation
import Testing

/// A request written on the core alone, with per-request modifiers.
final class Piped: Component, RequestType, ResponseType {
    let method = HTTPMethod.get
    let session: Session
    let path: String
    let modifiers: [any RequestModifier]
    var responseSerializer: ResponseSerializer<String> { ResponseSerializer { String(decoding: $0.body, as: UTF8.self) } }

    init(_ path: String, session: Session, modifiers: [any RequestModifier] = []) {
        self.path = path
        self.session = session
        self.modifiers = modifiers
        super.init()
    }
}

/// Records what interceptors do, in order.
final class Journal: Sendable {
    private let entries = Locked<[String]>([])
    func write(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

struct Tagger: Interceptor {
    let name: String
    let priority: InterceptorPriority
    let journal: Journal

    func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        journal.write("adapt \(name)")
        request.headers.add(name: "X-Tag", value: name)
    }

    func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision {
        journal.write("process \(name)")
        return .proceed(outcome)
    }
}

/// Asks for a replay while `shouldReplay` says so, and stamps each attempt's number on the request.
struct Replayer: Interceptor {
    let shouldReplay: @Sendable (RequestContext) -> Bool
    func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
        request.headers["X-Attempt"] = String(context.attempt)
    }
    func process(_ outcome: ResponseOutcome, context: RequestContext) async -> InterceptorDecision {
        shouldReplay(context) ? .replay(reason: "test replay") : .proceed(outcome)
    }
}

struct Handler: ErrorHandler {
    let resolve: @Sendable (BrickError, RequestContext) -> ErrorResolution
    func handle(_ error: BrickError, context: RequestContext) async -> ErrorResolution { resolve(error, context) }
}

func session(_ stub: StubTransport, _ configure: (inout Session.Configuration) -> Void = { _ in }) -> Session {
    var configuration = Session.Configuration(baseURL: "https://pipe.test")
    configure(&configuration)
    return Session(configuration: configuration, transport: stub)
}

@Suite struct PipelineTests {
    @Test func interceptorsAdaptHighestFirstAndProcessInReverse() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/a", body: Data("ok".utf8))
        let journal = Journal()
        let normal = Tagger(name: "normal", priority: .normal, journal: journal)
        let session = session(stub) {
            $0.interceptors = [Tagger(name: "low", priority: .low, journal: journal), normal,
                               Tagger(name: "max", priority: .max, journal: journal)]
        }
        let request = Piped("/a", session: session, modifiers: [
            Tagger(name: "justBeforeNormal", priority: normal.priority.more, journal: journal),
            Tagger(name: "secondNormal", priority: .normal, journal: journal),
        ])
        #expect(try await request.response() == "ok")
        let order = ["max", "justBeforeNormal", "normal", "secondNormal", "low"]
        #expect(journal.all == order.map { "adapt \($0)" } + order.reversed().map { "process \($0)" })
        #expect(stub.requests.first?.headers.values(for: "X-Tag") == order)
    }

    @Test func aReplayRunsTheWholePipelineAgainAndIsRecorded() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/r", body: Data("done".utf8))
        let request = Piped("/r", session: session(stub), modifiers: [Replayer { $0.attempt < 3 }])
        let response = await request.dataResponse()
        #expect(response.value == "done")
        #expect(stub.requests.map { $0.headers["X-Attempt"] } == ["1", "2", "3"])
        #expect(response.attempts.map(\.repeatReason) == ["test replay", "test replay", nil])
        #expect(response.request?.headers["X-Attempt"] == "3")
    }

    @Test func endlessReplaysStopAtMaxAttempts() async {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/loop", body: Data())
        let request = Piped("/loop", session: session(stub) { $0.maxAttempts = 3 }, modifiers: [Replayer { _ in true }])
        let response = await request.dataResponse()
        guard case .gaveUp(let failure)? = response.error else { Issue.record("got \(String(describing: response.error))"); return }
        #expect(failure.reason == .attemptsExhausted(lastReason: "test replay"))
        #expect(failure.attempts.count == 3)
        #expect(stub.requests.count == 3)
    }

    @Test func aFailingAdaptSendsNothing() async {
        struct Refuse: Interceptor {
            struct NoWay: Error {}
            func adapt(_ request: inout TransportRequest, context: RequestContext) async throws { throw NoWay() }
        }
        let stub = StubTransport()
        let response = await Piped("/x", session: session(stub), modifiers: [Refuse()]).dataResponse()
        guard case .interceptor(let error)? = response.error else { Issue.record("got \(String(describing: response.error))"); return }
        #expect(error is Refuse.NoWay)
        #expect(stub.requests.isEmpty)
    }

    @Test func aNon2xxStatusFailsValidationKeepingTheResponse() async {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/missing", status: 404, body: Data("no such thing".utf8))
        let response = await Piped("/missing", session: session(stub)).dataResponse()
        guard case .validation(.unacceptableStatusCode(404), let raw)? = response.error else {
            Issue.record("got \(String(describing: response.error))")
            return
        }
        #expect(raw.body == Data("no such thing".utf8))
        #expect(response.statusCode == 404)
    }

    @Test func errorHandlersAreAskedInOrderAndTheFirstAnswerWins() async {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/e", reply: .failure(TransportError(.connectionRefused, message: "refused")))
        let journal = Journal()
        let replacement = BrickError.transport(TransportError(.other, message: "replaced"))
        let session = session(stub) {
            $0.errorHandlers = [
                Handler { _, _ in journal.write("first"); return .unhandled },
                Handler { _, _ in journal.write("second"); return .fail(replacement) },
                Handler { _, _ in journal.write("third"); return .unhandled },
            ]
        }
        let response = await Piped("/e", session: session).dataResponse()
        #expect(journal.all == ["first", "second"])
        #expect(response.error?.transportError?.message == "replaced")
    }

    @Test func anErrorHandlerCanRecoverWithAResponse() async {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/e", status: 503)
        let session = session(stub) {
            $0.errorHandlers = [Handler { _, _ in .recover(TransportResponse(head: ResponseHead(status: 200), body: Data("cached".utf8))) }]
        }
        #expect(await Piped("/e", session: session).dataResponse().value == "cached")
    }

    @Test func anErrorHandlerRetryWaitsOnTheSessionClock() async throws {
        let clock = ManualClock()
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/flaky", replies: [
            .failure(TransportError(.connectionLost, message: "reset")),
            .response(TransportResponse(head: ResponseHead(status: 200), body: Data("second time".utf8))),
        ])
        let session = session(stub) {
            $0.clock = clock
            $0.errorHandlers = [Handler { _, context in context.attempt == 1 ? .retry(after: .seconds(30), reason: "reset") : .unhandled }]
        }
        async let response = Piped("/flaky", session: session).dataResponse()
        await clock.waitForSleepers(count: 1)
        #expect(stub.requests.count == 1)
        clock.advance(by: .seconds(30))
        let outcome = await response
        #expect(outcome.value == "second time")
        #expect(outcome.attempts.map(\.repeatReason) == ["reset", nil])
        #expect(outcome.attempts.first?.error?.transportError?.kind == .connectionLost)
    }

    @Test func cancellingDuringARetryDelayEndsTheCall() async {
        let clock = ManualClock()
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/down", status: 503)
        let session = session(stub) {
            $0.clock = clock
            $0.errorHandlers = [Handler { _, _ in .retry(after: .seconds(60), reason: "down") }]
        }
        let task = Task { await Piped("/down", session: session).dataResponse() }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        let response = await task.value
        #expect(response.error?.isCancelled == true)
        #expect(stub.requests.count == 1)
    }

    @Test func aStreamIsAdaptedByTheInterceptors() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://pipe.test/s", body: Data("abc".utf8))
        let journal = Journal()
        let session = session(stub) { $0.interceptors = [Tagger(name: "t", priority: .normal, journal: journal)] }
        var body = Data()
        for try await event in Piped("/s", session: session).stream() {
            if case .body(let chunk) = event { body.append(chunk) }
        }
        #expect(body == Data("abc".utf8))
        #expect(stub.requests.first?.headers["X-Tag"] == "t")
    }
}
