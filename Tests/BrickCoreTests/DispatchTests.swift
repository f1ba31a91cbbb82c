import BrickCore
import BrickTesting
import Dispatch
import Foundation
import Testing

/// A request written without any stock brick: the core alone must be enough.
final class Echo: Component, RequestType, ResponseType {
    let method: HTTPMethod
    let session: Session
    let path: String
    var headers: HTTPHeaders { ["X-Request": "yes", "User-Agent": "echo-test"] }
    var responseSerializer: ResponseSerializer<String> {
        ResponseSerializer { String(decoding: $0.body, as: UTF8.self) }
    }

    init(_ method: HTTPMethod, _ path: String, session: Session, parameters: ParameterBuilder = ParameterBuilder()) {
        self.method = method
        self.path = path
        self.session = session
        super.init(parameterBuilder: parameters)
    }
}

func stubSession(_ stub: StubTransport) -> Session {
    var configuration = Session.Configuration(baseURL: "https://api.test/v1")
    configuration.headers["X-Session"] = "s"
    return Session(configuration: configuration, transport: stub)
}

@Suite struct RequestPreparationTests {
    @Test func getParametersGoInTheQueryBeforeAnyFragment() throws {
        let request = try Echo(.get, "/items?sort=asc#top", session: stubSession(StubTransport()),
                           parameters: ParameterBuilder { TextParameter("a b", name: "q") }).makeTransportRequest()
        #expect(request.url == "https://api.test/v1/items?sort=asc&q=a%20b#top")
        #expect(request.body == nil)
    }

    @Test func urlIsURLStringAsAFoundationURLAndABaseURLMayBeOne() throws {
        let base = try #require(URL(string: "https://api.test/v1"))
        let session = Session(configuration: Session.Configuration(baseURL: base), transport: StubTransport())
        #expect(session.configuration.baseURL == "https://api.test/v1")
        let request = Echo(.get, "/items/7", session: session)
        #expect(request.URLString == "https://api.test/v1/items/7")
        #expect(request.url == URL(string: "https://api.test/v1/items/7"))
        #expect(Echo(.get, "http://[::1", session: session).url == nil)
    }

    @Test(arguments: [HTTPMethod.delete, .head])
    func deleteAndHeadAlsoUseTheQuery(method: HTTPMethod) throws {
        let request = try Echo(method, "/x", session: stubSession(StubTransport()),
                           parameters: ParameterBuilder { TextParameter(1, name: "id") }).makeTransportRequest()
        #expect(request.url == "https://api.test/v1/x?id=1")
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch])
    func otherMethodsSendAFormBody(method: HTTPMethod) throws {
        let request = try Echo(method, "/x", session: stubSession(StubTransport()),
                           parameters: ParameterBuilder { TextParameter("Ada+Lovelace", name: "name") }).makeTransportRequest()
        #expect(request.url == "https://api.test/v1/x")
        #expect(request.body?.data == Data("name=Ada%2BLovelace".utf8))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func sessionHeadersComeFirstAndTheRequestWins() throws {
        let request = try Echo(.get, "/x", session: stubSession(StubTransport())).makeTransportRequest()
        #expect(request.headers["X-Session"] == "s")
        #expect(request.headers["X-Request"] == "yes")
        #expect(request.headers["User-Agent"] == "echo-test")
        #expect(request.headers.fields.first?.name == "User-Agent")
    }

    @Test func componentsAreEqualByIdentity() {
        let session = stubSession(StubTransport())
        let first = Echo(.get, "/x", session: session)
        let second = Echo(.get, "/x", session: session)
        #expect(first == first)
        #expect(first != second)
        #expect(Set<Component>([first, second, first]).count == 2)
    }
}

@Suite struct DispatchTests {
    @Test func asyncResponseSerializesTheBody() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/hello", body: Data("hi".utf8))
        let value = try await Echo(.get, "/hello", session: stubSession(stub)).response()
        #expect(value == "hi")
        #expect(stub.requests.map(\.url) == ["https://api.test/v1/hello"])
    }

    @Test func transportErrorsArriveTyped() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/down", reply: .failure(TransportError(.networkUnreachable, curlCode: 7, osErrno: 101, message: "no route")))
        let outcome = await Echo(.get, "/down", session: stubSession(stub)).dataResponse()
        #expect(outcome.error?.transportError?.kind == .networkUnreachable)
        #expect(outcome.response == nil)
        #expect(outcome.request?.url == "https://api.test/v1/down")
    }

    @Test func callbackStyleRunsTheHandlerOnTheChosenQueue() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/cb", status: 201, body: Data("made".utf8))
        let queue = DispatchQueue(label: "handler-queue")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "handler-queue")
        let (label, status, value) = await withCheckedContinuation { continuation in
            Echo(.get, "/cb", session: stubSession(stub)).response(queue: queue) { outcome in
                continuation.resume(returning: (DispatchQueue.getSpecific(key: key), outcome.statusCode, outcome.value))
            }.resume()
        }
        #expect(label == "handler-queue")
        #expect(status == 201)
        #expect(value == "made")
    }

    @Test func cancellingBeforeResumeDeliversCancelledAndSendsNothing() async {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/x", body: Data())
        let cancelled = await withCheckedContinuation { continuation in
            let request = Echo(.get, "/x", session: stubSession(stub)).response { continuation.resume(returning: $0.error?.isCancelled) }
            request.cancel()
        }
        #expect(cancelled == true)
        #expect(stub.requests.isEmpty)
    }

    @Test func sessionCancelStopsOnlyThatComponent() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/slow", reply: .never)
        let session = stubSession(stub)
        let first = Echo(.get, "/slow", session: session)
        let second = Echo(.get, "/slow", session: session)
        let (outcomes, sink) = AsyncStream.makeStream(of: (String, Bool).self)
        first.response { sink.yield(("first", $0.error?.isCancelled == true)) }.resume()
        second.response { sink.yield(("second", $0.error?.isCancelled == true)) }.resume()
        while session.runningRequestCount < 2 { await Task.yield() }
        var delivered = outcomes.makeAsyncIterator()

        session.cancel(first)
        let firstOutcome = try #require(await delivered.next())
        #expect(firstOutcome.0 == "first" && firstOutcome.1)
        #expect(session.runningRequestCount == 1)

        session.cancelAll()
        let secondOutcome = try #require(await delivered.next())
        #expect(secondOutcome.0 == "second" && secondOutcome.1)
        #expect(session.runningRequestCount == 0)
    }

    @Test func taskCancellationCancelsTheRequest() async {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/slow", reply: .never)
        let session = stubSession(stub)
        let task = Task { await Echo(.get, "/slow", session: session).dataResponse() }
        while session.runningRequestCount < 1 { await Task.yield() }
        task.cancel()
        #expect(await task.value.error?.isCancelled == true)
    }

    @Test func aSerializerErrorKeepsTheRawResponse() async {
        final class Strict: Component, RequestType, ResponseType {
            let method = HTTPMethod.get
            let session: Session
            var URLString: String { "https://api.test/strict" }
            var responseSerializer: ResponseSerializer<Int> {
                ResponseSerializer { response in
                    guard let number = Int(String(decoding: response.body, as: UTF8.self)) else {
                        throw ResponseSerializationError.undecodableText(charset: "ascii")
                    }
                    return number
                }
            }
            init(session: Session) {
                self.session = session
                super.init()
            }
        }
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/strict", status: 200, body: Data("not a number".utf8))
        let outcome = await Strict(session: Session(transport: stub)).dataResponse()
        guard case .failure(.serialization(let error, let response)) = outcome.result else {
            Issue.record("expected a serialization failure, got \(outcome.result)")
            return
        }
        #expect(error as? ResponseSerializationError == .undecodableText(charset: "ascii"))
        #expect(response.body == Data("not a number".utf8))
        #expect(outcome.statusCode == 200)
    }

    @Test func aStreamedStubDeliversHeadBodyEnd() async throws {
        let stub = StubTransport()
        stub.stub(.get, "https://api.test/v1/s", body: Data("abc".utf8))
        var kinds: [String] = []
        for try await event in Echo(.get, "/s", session: stubSession(stub)).stream() {
            switch event {
            case .head(let head): kinds.append("head \(head.status)")
            case .body(let chunk): kinds.append("body \(chunk.count)")
            case .downloadProgress(let progress): kinds.append("download \(progress)")
            case .uploadProgress(let progress): kinds.append("upload \(progress)")
            case .end: kinds.append("end")
            }
        }
        #expect(kinds == ["head 200", "body 3", "download 3 B of 3 B (100%)", "end"])
    }
}
