public import BrickCore
import BrickSystem
import BrickTransport
public import FoundationEssentials

/// A transport for unit tests: canned responses matched by method and URL (or any ``StubMatch``), delays on a ``ManualClock``,
/// scripted sequences of errors and responses, and a record of every request.
///
/// Stubbed responses go through the same session pipeline (interceptors, validation, error handlers),
/// serializers and call styles as real ones; only the network is left out.
/// ```swift
/// let stub = StubTransport()
/// stub.stub(.get, "https://api.test/users/1", json: #"{"id":1}"#)
/// let session = Session(transport: stub)
/// ```
public final class StubTransport: Transport {
    /// What a matched request gets.
    public enum Reply: Sendable {
        /// This response.
        case response(TransportResponse)
        /// This error.
        case failure(TransportError)
        /// Nothing, until the request is cancelled: for testing cancellation.
        case never
        /// `reply`, after `delay` on the transport's clock.
        indirect case delayed(Duration, Reply)
        /// Whatever the function answers for the request (for replies that depend on headers or body).
        case computed(@Sendable (TransportRequest) -> Reply)
    }

    private struct Stub {
        let match: StubMatch
        let replies: [Reply]
        var used = 0
    }

    private struct State {
        var stubs: [Stub] = []
        var requests: [TransportRequest] = []
    }

    private let state = Locked(State())
    /// The clock that ``Reply/delayed(_:_:)`` waits on.
    public let clock: any Clock<Duration>

    /// An empty stub: every request fails with `TransportError.Kind.connectionRefused` until stubbed.
    /// - Parameter clock: What delayed replies wait on. Default is a ``ManualClock`` that never moves
    ///   unless the test advances it, so delays never cost real time.
    public init(clock: any Clock<Duration> = ManualClock()) { self.clock = clock }

    /// Answers the requests `match` selects with `reply`; later stubs win over earlier ones.
    public func stub(_ match: StubMatch, reply: Reply) { stub(match, replies: [reply]) }

    /// Answers successive requests `match` selects with successive `replies`; the last one repeats once the
    /// others are used. For scripts like "refused twice, then 200".
    public func stub(_ match: StubMatch, replies: [Reply]) {
        guard !replies.isEmpty else { return }
        state.withLock { $0.stubs.append(Stub(match: match, replies: replies)) }
    }

    /// Answers the requests `match` selects with a status, headers and body.
    public func stub(_ match: StubMatch, status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data()) {
        stub(match, reply: .response(TransportResponse(head: ResponseHead(status: status, headers: headers), body: body)))
    }

    /// Answers the requests `match` selects with a JSON body and `Content-Type: application/json`.
    public func stub(_ match: StubMatch, status: Int = 200, json: String) {
        stub(match, status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    /// Answers requests to `url` (exactly as written) with `method` (any method when `nil`) with `reply`.
    public func stub(_ method: HTTPMethod?, _ url: String, reply: Reply) { stub(.request(method, url), reply: reply) }

    /// Answers successive requests to `url` with `method` with successive `replies`.
    public func stub(_ method: HTTPMethod?, _ url: String, replies: [Reply]) { stub(.request(method, url), replies: replies) }

    /// Answers requests to `url` with `method` with a status, headers and body.
    public func stub(
        _ method: HTTPMethod?, _ url: String, status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data()
    ) {
        stub(.request(method, url), status: status, headers: headers, body: body)
    }

    /// Answers requests to `url` with `method` with a JSON body and `Content-Type: application/json`.
    public func stub(_ method: HTTPMethod?, _ url: String, status: Int = 200, json: String) {
        stub(.request(method, url), status: status, json: json)
    }

    /// Every request that reached the transport, in order (requests refused by validation included).
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    public func makeTransfer(for request: TransportRequest) -> any TransportTransfer {
        StubTransfer(request: request, transport: self)
    }

    /// Records `request` and finds its reply.
    func reply(for request: TransportRequest) -> Reply {
        let reply = state.withLock { state -> Reply? in
            state.requests.append(request)
            guard let index = state.stubs.lastIndex(where: { $0.match.answers(request) }) else { return nil }
            let stub = state.stubs[index]
            state.stubs[index].used += 1
            return stub.replies[min(stub.used, stub.replies.count - 1)]
        }
        return reply ?? .failure(TransportError(
            .connectionRefused, message: "StubTransport has no stub for \(request.method) \(request.url)"))
    }
}
