public import FoundationEssentials

/// A complete response: head, whole body and metrics.
public struct TransportResponse: Sendable {
    /// The final status line and headers.
    public var head: ResponseHead
    /// The body, decompressed.
    public var body: Data
    /// Timings, reuse and sizes.
    public var metrics: TransferMetrics

    /// Creates a response.
    public init(head: ResponseHead, body: Data = Data(), metrics: TransferMetrics = TransferMetrics()) {
        self.head = head
        self.body = body
        self.metrics = metrics
    }
}
