import BenchSupport
import BrickRequest
import Dispatch
import FoundationEssentials
import Synchronization

// S1's layers: the same sequential GET measured with parts of the path left out, for the account of where a
// request's CPU goes (Docs/Performance.md, "After step 7: S1 layer by layer").
//   S1transport  S1's request, with the session's headers and options, straight to the libcurl transport:
//                no session, no bricks (client=brick-transport).
//   S1handoff    S1's brick and session on a transport that answers from a thread of its own, as the engine
//                does, without a network: the pipeline and one suspension, no libcurl (client=brick-handoff).
//   S1inline     the same, answered at once on the caller's thread: the pipeline alone (client=brick-inline).
// URL is only the request's text in the last two: nothing is sent.

/// The head nginx answers `/small` with, built once: the layers without a network hand it over as it is.
let layerHead = ResponseHead(status: 200, version: "1.1", reason: "OK", headers: [
    "Server": "nginx/1.22.1", "Date": "Mon, 23 Nov 2026 20:00:00 GMT", "Content-Type": "text/plain",
    "Content-Length": "100", "Connection": "keep-alive",
])
let layerBody = Data(repeating: 0x78, count: 100)

/// A transport without a network: every transfer answers `/small`'s response, at once or from `answerer`.
struct AnsweringTransport: Transport {
    let answerer: Answerer?
    func makeTransfer(for request: TransportRequest) -> any TransportTransfer { AnsweredTransfer(answerer: answerer) }
}

final class AnsweredTransfer: TransportTransfer {
    let answerer: Answerer?
    init(answerer: Answerer?) { self.answerer = answerer }

    func response() async throws(TransportError) -> TransportResponse {
        guard let answerer else { return TransportResponse(head: layerHead, body: layerBody) }
        return await withUnsafeContinuation { answerer.answer($0) }
    }
    func events() -> TransportEventStream { TransportEventStream(failing: TransportError(.other, message: "not streamed")) }
    func cancel(because reason: TransportError) {}
}

/// A thread that resumes each waiting transfer with `/small`'s response, as the engine thread resumes the
/// caller when a transfer ends.
final class Answerer: Sendable {
    private let waiting = Mutex<[UnsafeContinuation<TransportResponse, Never>]>([])
    private let posted = DispatchSemaphore(value: 0)

    init() {
        // A queue of its own, and so a thread of its own, that it never gives back.
        DispatchQueue(label: "brick-bench.answerer").async { [self] in
            var batch: [UnsafeContinuation<TransportResponse, Never>] = []
            while true {
                posted.wait()
                waiting.withLock { swap(&$0, &batch) }
                for continuation in batch { continuation.resume(returning: TransportResponse(head: layerHead, body: layerBody)) }
                batch.removeAll(keepingCapacity: true)
            }
        }
    }

    func answer(_ continuation: UnsafeContinuation<TransportResponse, Never>) {
        waiting.withLock { $0.append(continuation) }
        posted.signal()
    }
}

/// The bench's session settings on a transport without a network, answering from a thread of its own in
/// S1handoff and at once in S1inline; made when first used.
let layerSession: Session = {
    let fromAnotherThread = CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "S1handoff"
    return Session(configuration: benchSession.configuration, transport: AnsweringTransport(answerer: fromAnotherThread ? Answerer() : nil))
}()

/// S1handoff, S1inline: BenchGet's brick signature on `layerSession`.
final class LayerGet: Component, GETRequestType, CustomSessionRequestType, NonAutoRetryType, DataResponseType {
    static var customSession: Session { layerSession }
    let URLString: String
    init(url: String) {
        URLString = url
        super.init()
    }
}

/// S1transport: `n` GETs straight to `transport`, with the bench session's headers and options.
func transportOnly(_ n: Int, url: String, transport: CurlTransport) async -> Tally {
    let request = TransportRequest(url: url, headers: benchSession.configuration.headers, options: benchSession.configuration.transportOptions)
    var tally = Tally()
    for _ in 0..<n {
        do {
            let response = try await transport.makeTransfer(for: request).response()
            if response.head.status == 200 { tally.bytes += response.body.count } else { tally.errors += 1 }
        } catch {
            warn("brick-bench: \(error)")
            tally.errors += 1
        }
    }
    return tally
}

/// S1handoff, S1inline: `n` LayerGets one after the other.
func layered(_ n: Int, url: String) async -> Tally {
    var tally = Tally()
    for _ in 0..<n { tally = tally + collect(await LayerGet(url: url).dataResponse()) }
    return tally
}
