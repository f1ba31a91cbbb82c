import BrickSystem
import BrickTransport

/// A transfer whose libcurl side ended while body still waited to be decoded (its stream's consumer had no
/// room, or a pass of decoding did its share of work): out of the multi handle, decoded on the engine's
/// later turns, and ended once nothing is left (engine thread only). Its whole timeout still runs.
struct Draining {
    let transfer: CurlTransfer
    /// The final head and the metrics libcurl reported at its end.
    let head: ResponseHead
    let metrics: TransferMetrics
    /// When the request's whole timeout runs out (monotonic nanoseconds), `nil` for none.
    private let deadline: UInt64?

    init(transfer: CurlTransfer, head: ResponseHead, metrics: TransferMetrics) {
        self.transfer = transfer
        self.head = head
        self.metrics = metrics
        let timeout = UInt64(max(0, transfer.standingTimeout)) * 1_000_000
        let spent = UInt64(max(0, metrics.total.components.seconds)) * 1_000_000_000
            + UInt64(max(0, metrics.total.components.attoseconds / 1_000_000_000)) + transfer.engine.connectionWait
        deadline = timeout > 0 ? monotonicNanoseconds() + (timeout > spent ? timeout - spent : 0) : nil
    }

    /// Whether the request's whole timeout ran out.
    var isPastDeadline: Bool { deadline.map { monotonicNanoseconds() > $0 } ?? false }
}

extension CurlTransfer {
    /// Hands the end to the caller: the collected response (with `head` and `metrics`, moved into it), or a
    /// stream's end.
    func end(head: consuming ResponseHead, metrics: consuming TransferMetrics) {
        switch engine.mode {
        case .collect:
            complete(.success(TransportResponse(head: head, body: engine.body, metrics: metrics, contentDecoded: engine.decoder != nil)))
        case .stream: push(.end(metrics))
        }
    }
}
