import BrickOpenAPI
import BrickRequest
import BrickTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import TestServers
import Testing

/// The client swift-openapi-generator made from openapi.yaml, running its operations over BrickRequest:
/// against real httpbin and nginx, and against stubs where a retry must be provoked.
@Suite struct GeneratedClientTests {
    func client(_ session: Session, retry: AutoRetryConfiguration = .none, middlewares: [any ClientMiddleware] = []) throws -> Client {
        let base = try #require(URL(string: try Httpbin.shared.get().url("")))
        return Client(serverURL: base, transport: BrickClientTransport(session: session, retry: retry), middlewares: middlewares)
    }

    /// A middleware of swift-openapi-runtime's kind: it stamps a header on every request.
    struct Stamp: ClientMiddleware {
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[HTTPField.Name("X-Middleware")!] = operationID
            return try await next(request, body, baseURL)
        }
    }

    /// A session interceptor: it stamps another.
    struct SessionStamp: Interceptor {
        func adapt(_ request: inout TransportRequest, context: RequestContext) async throws {
            request.headers["X-Interceptor"] = "attempt \(context.attempt)"
        }
    }

    func session() -> Session {
        var configuration = Session.Configuration()
        configuration.headers["X-Session"] = "openapi"
        configuration.interceptors = [SessionStamp()]
        return Session(configuration: configuration)
    }

    @Test func operationsWithPathQueryHeaderAndJSONBodiesRunAgainstHttpbin() async throws {
        let client = try client(session(), middlewares: [Stamp()])
        let got = try await client.getAnything(.init(
            path: .init(id: "42"), query: .init(tag: ["a", "b c"], limit: 5), headers: .init(X_hyphen_Trace: "t-1")))
        let echo = try got.ok.body.json
        #expect(echo.method == "GET")
        #expect(echo.url.hasSuffix("/anything/42?tag=a&tag=b%20c&limit=5"))
        let headers = echo.headers.additionalProperties
        #expect(headers["X-Trace"] == "t-1")
        #expect(headers["X-Middleware"] == "getAnything")  // the generated client's middleware ran
        #expect(headers["X-Interceptor"] == "attempt 1")  // and the session's pipeline
        #expect(headers["X-Session"] == "openapi")

        let big = Int64.max - 1
        let posted = try await client.postAnything(.init(path: .init(id: "7"), body: .json(.init(name: "Ada", count: big))))
        let postEcho = try posted.ok.body.json
        #expect(postEcho.method == "POST")
        let sent = try #require(postEcho.json?.value as? [String: (any Sendable)?])
        #expect(sent["name"] as? String == "Ada")
        #expect(postEcho.headers.additionalProperties["Content-Type"] == "application/json; charset=utf-8")
    }

    @Test func aLargeRequestBodyIsStreamedAndStatusesAreAnswers() async throws {
        let client = try client(session())
        let size = 3 << 20  // over the transport's replayable limit: streamed, never held whole
        let chunks = (0..<(size >> 16)).map { _ in ArraySlice(repeating: UInt8(ascii: "z"), count: 1 << 16) }
        let (stream, continuation) = AsyncStream<ArraySlice<UInt8>>.makeStream()
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
        let body = HTTPBody(stream, length: .known(Int64(size)), iterationBehavior: .single)
        let put = try await client.putRaw(.init(path: .init(id: "raw"), body: .binary(body)))
        #expect(try put.ok.body.json.data?.count == size)

        #expect(try await client.getStatus(.init(path: .init(code: 418))) == .code418(.init()))
        guard case .default(let status, _) = try await client.getStatus(.init(path: .init(code: 503))) else {
            Issue.record("a 503 is not the default answer")
            return
        }
        #expect(status == 503)
    }

    @Test func aGigabyteResponseBodyStreamsThroughInBoundedMemory() async throws {
        let nginx = try Nginx.shared.get()
        let client = Client(
            serverURL: try #require(URL(string: nginx.url(""))), transport: BrickClientTransport(session: session()))
        let before = Memory.residentBytes()
        var peak = before
        var total = 0
        var chunks = 0
        let response = try await client.getFile(.init(path: .init(file: "huge.bin")))
        let body = try response.ok.body.binary
        #expect(body.length == .known(Int64(Nginx.hugeFileSize)))
        for try await chunk in body {
            total += chunk.count
            chunks += 1
            if chunks % 256 == 0 { peak = max(peak, Memory.residentBytes()) }
        }
        #expect(total == Nginx.hugeFileSize)
        let growth = max(0, peak - before)
        print("1 GiB through a generated client: \(chunks) chunks, resident memory grew by at most \(growth >> 20) MiB")
        // A quarter of the body, with the rest of the test process running beside it. Under a sanitizer the
        // resident size measures the sanitizer's own bookkeeping (shadow memory, ASan's quarantine), so there
        // the body is only streamed and counted; the plain run keeps the bound.
        let environment = ProcessInfo.processInfo.environment
        if environment["TSAN_OPTIONS"] == nil && environment["ASAN_OPTIONS"] == nil { #expect(growth < 256 << 20) }
    }

    @Test func cancellingTheCallerCancelsTheTransfer() async throws {
        let nginx = try Nginx.shared.get()
        let session = session()
        let client = Client(serverURL: try #require(URL(string: nginx.url(""))), transport: BrickClientTransport(session: session))
        let firstChunk = AsyncStream<Void>.makeStream()
        let reading = Task {
            let body = try await client.getFile(.init(path: .init(file: "huge.bin"))).ok.body.binary
            var total = 0
            for try await chunk in body {
                total += chunk.count
                firstChunk.continuation.yield()
            }
            return total
        }
        for await _ in firstChunk.stream { break }
        reading.cancel()
        let outcome = await reading.result
        if case .success(let total) = outcome { Issue.record("the whole body arrived after cancellation (\(total) bytes)") }
        #expect(session.runningRequestCount == 0)
    }

    @Test func theSessionsRetryRulesRetryAnOperationWhoseConnectionFailedBeforeItsHead() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        let url = "https://api.test/anything/1"
        stub.stub(.get, url, replies: [
            .failure(TransportError(.connectionRefused, message: "refused")),
            .response(TransportResponse(
                head: ResponseHead(status: 200, headers: ["Content-Type": "application/json"]),
                body: Data(#"{"method":"GET","url":"\#(url)","headers":{}}"#.utf8))),
        ])
        var configuration = Session.Configuration()
        configuration.clock = clock
        configuration.interceptors = [SessionStamp()]
        let session = Session(configuration: configuration, transport: stub)
        let rules = AutoRetryConfiguration(breakTime: .seconds(1), maxRetryCount: 2, maxBreakTime: .seconds(1))
        let client = Client(
            serverURL: try #require(URL(string: "https://api.test")), transport: BrickClientTransport(session: session, retry: rules))
        async let output = client.getAnything(.init(path: .init(id: "1")))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(try await output.ok.body.json.method == "GET")
        #expect(stub.requests.map { $0.headers["X-Interceptor"] } == ["attempt 1", "attempt 2"])
    }
}

/// The process's resident memory, from /proc/self/statm.
enum Memory {
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
