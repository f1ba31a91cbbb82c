public import FoundationEssentials

/// A complete response: head, whole body and metrics.
public struct TransportResponse: Sendable {
    /// The final status line and headers.
    public var head: ResponseHead {
        get { storage.head }
        set { storage = Storage(head: newValue, body: body, metrics: metrics, contentDecoded: contentDecoded) }
    }
    /// The body, decompressed.
    public var body: Data {
        get { storage.body }
        set { storage = Storage(head: head, body: newValue, metrics: metrics, contentDecoded: contentDecoded) }
    }
    /// Timings, reuse and sizes.
    public var metrics: TransferMetrics {
        get { storage.metrics }
        set { storage = Storage(head: head, body: body, metrics: newValue, contentDecoded: contentDecoded) }
    }

    /// The call that brought it (set by a session's pipeline), so that an error about it names the call.
    public var call: CallLine?

    /// Whether the transport decoded ``body`` from the content codings the head's `Content-Encoding` names,
    /// so that that field and `Content-Length` describe the bytes that arrived, not ``body``. Default is
    /// `false`: the body is as the server sent it (no coding, one the transport does not know, more than it
    /// decodes, or ``TransportOptions/automaticDecompression`` off).
    public var contentDecoded: Bool {
        get { storage.contentDecoded }
        set { storage = Storage(head: head, body: body, metrics: metrics, contentDecoded: newValue) }
    }

    /// Head, body and metrics behind one reference, never changed once made (a change makes new storage):
    /// a response is copied and returned through every step of a call, and each async step's frame, which
    /// holds a place for it, stays allocated while the request is on its way. Made once per response, as the
    /// metrics' own box was before.
    private var storage: Storage

    /// Creates a response.
    public init(head: ResponseHead, body: Data = Data(), metrics: TransferMetrics = TransferMetrics(), contentDecoded: Bool = false) {
        storage = Storage(head: head, body: body, metrics: metrics, contentDecoded: contentDecoded)
    }
}

/// What a ``TransportResponse`` holds besides its call, never changed once made.
private final class Storage: Sendable {
    let head: ResponseHead
    let body: Data
    let metrics: TransferMetrics
    let contentDecoded: Bool

    init(head: ResponseHead, body: Data, metrics: TransferMetrics, contentDecoded: Bool) {
        self.head = head
        self.body = body
        self.metrics = metrics
        self.contentDecoded = contentDecoded
    }
}
