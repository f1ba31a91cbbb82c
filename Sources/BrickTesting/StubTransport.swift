public import BrickCore
public import FoundationEssentials
import Synchronization

/// A transport for unit tests: canned responses matched by method and URL, and a record of every request.
///
/// Stubbed responses go through the same session, serializers and call styles as real ones; only the
/// network is left out.
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
    }

    private struct Stub {
        let method: HTTPMethod?
        let url: String
        let reply: Reply
    }

    private struct State {
        var stubs: [Stub] = []
        var requests: [TransportRequest] = []
    }

    private let state = Mutex(State())

    /// An empty stub: every request fails with ``TransportError/Kind/connectionRefused`` until stubbed.
    public init() {}

    /// Answers requests to `url` with `method` (any method when `nil`) with `reply`; later stubs win over earlier ones.
    public func stub(_ method: HTTPMethod?, _ url: String, reply: Reply) {
        state.withLock { $0.stubs.append(Stub(method: method, url: url, reply: reply)) }
    }

    /// Answers with a status, headers and body.
    public func stub(
        _ method: HTTPMethod?, _ url: String, status: Int = 200, headers: HTTPHeaders = [:], body: Data = Data()
    ) {
        stub(method, url, reply: .response(TransportResponse(head: ResponseHead(status: status, headers: headers), body: body)))
    }

    /// Answers with a JSON body and `Content-Type: application/json`.
    public func stub(_ method: HTTPMethod?, _ url: String, status: Int = 200, json: String) {
        stub(method, url, status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8))
    }

    /// Every request that reached the transport, in order (requests refused by validation included).
    public var requests: [TransportRequest] { state.withLock { $0.requests } }

    public func makeTransfer(for request: TransportRequest) -> any TransportTransfer {
        StubTransfer(request: request, transport: self)
    }

    /// Records `request` and finds its reply.
    func reply(for request: TransportRequest) -> Reply {
        state.withLock { state in
            state.requests.append(request)
            let match = state.stubs.last { ($0.method == nil || $0.method == request.method) && $0.url == request.url }
            return match?.reply ?? .failure(TransportError(
                .connectionRefused, message: "StubTransport has no stub for \(request.method) \(request.url)"))
        }
    }
}
