public import FoundationEssentials

/// A complete response: head, whole body and metrics.
public struct TransportResponse: Sendable {
    /// The final status line and headers.
    public var head: ResponseHead
    /// The body, decompressed.
    public var body: Data
    /// Timings, reuse and sizes.
    public var metrics: TransferMetrics {
        get { metricsBox.metrics }
        set { metricsBox = MetricsBox(newValue) }
    }

    /// The call that brought it (set by a session's pipeline), so that an error about it names the call.
    public var call: CallLine?

    /// Whether the transport decoded ``body`` from the content codings the head's `Content-Encoding` names,
    /// so that that field and `Content-Length` describe the bytes that arrived, not ``body``. Default is
    /// `false`: the body is as the server sent it (no coding, one the transport does not know, more than it
    /// decodes, or ``TransportOptions/automaticDecompression`` off).
    public var contentDecoded = false

    /// The metrics behind one reference, never changed once made: a response is copied several times on
    /// its way to the caller (attempt, outcome, result), and its metrics are read far more rarely.
    private var metricsBox: MetricsBox

    /// Creates a response.
    public init(head: ResponseHead, body: Data = Data(), metrics: TransferMetrics = TransferMetrics()) {
        self.head = head
        self.body = body
        self.metricsBox = MetricsBox(metrics)
    }
}

/// ``TransferMetrics`` behind a reference; a change makes a new box.
private final class MetricsBox: Sendable {
    let metrics: TransferMetrics
    init(_ metrics: TransferMetrics) { self.metrics = metrics }
}
