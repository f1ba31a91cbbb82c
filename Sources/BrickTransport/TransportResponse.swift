public import FoundationEssentials

/// A complete response: head, whole body and metrics.
public struct TransportResponse: Sendable {
    /// The final status line and headers.
    public var head: ResponseHead {
        get { storage.head }
        set { storage = storage.with { $0.head = newValue } }
    }
    /// The final status code, as ``head`` has it: read without copying the head (which the pipeline's status
    /// checks and `DataResponse.statusCode` did on every call).
    @usableFromInline package var status: Int { storage.head.status }
    /// The body, decompressed.
    public var body: Data {
        get { storage.body }
        set { storage = storage.with { $0.body = newValue } }
    }
    /// Timings, reuse and sizes.
    public var metrics: TransferMetrics {
        get { storage.metrics }
        set { storage = storage.with { $0.metrics = newValue } }
    }

    /// The call that brought it (set by a session's pipeline), so that an error about it names the call.
    public var call: CallLine?

    /// Whether the transport decoded ``body`` from the content codings the head's `Content-Encoding` names,
    /// so that that field and `Content-Length` describe the bytes that arrived, not ``body``. Default is
    /// `false`: the body is as the server sent it (no coding, one the transport does not know, more than it
    /// decodes, or ``TransportOptions/automaticDecompression`` off).
    public var contentDecoded: Bool {
        get { storage.contentDecoded }
        set { storage = storage.with { $0.contentDecoded = newValue } }
    }

    /// The redirects followed before this response, oldest first: each hop's request and the `3xx` head that
    /// answered it (a session's redirects; empty when none was followed). `TransferMetrics.redirectCount`
    /// counts them.
    public var redirects: [RedirectHop] {
        get { storage.redirects }
        set { storage = storage.with { $0.redirects = newValue } }
    }

    /// The rest of a streamed answer, when the response stands for one whose head arrived and whose body is
    /// still to be read (a stream's or a download's attempt): the events, head included, and what keeps the
    /// transfer registered until they end. `nil` for a collected response.
    package var streamedBody: StreamedBody? {
        get { storage.streamedBody }
        set { storage = storage.with { $0.streamedBody = newValue } }
    }

    /// A response whose head arrived and whose body is `body`'s events.
    package init(head: ResponseHead, streaming body: StreamedBody) {
        var values = Storage.Values(head: head, body: Data(), metrics: TransferMetrics(), contentDecoded: false)
        values.streamedBody = body
        storage = Storage(values)
    }

    /// Head, body and metrics behind one reference, never changed once made (a change makes new storage):
    /// a response is copied and returned through every step of a call, and each async step's frame, which
    /// holds a place for it, stays allocated while the request is on its way. Made once per response, as the
    /// metrics' own box was before.
    private var storage: Storage

    /// Creates a response.
    public init(head: ResponseHead, body: Data = Data(), metrics: TransferMetrics = TransferMetrics(), contentDecoded: Bool = false) {
        storage = Storage(Storage.Values(head: head, body: body, metrics: metrics, contentDecoded: contentDecoded))
    }
}

/// What a ``TransportResponse`` holds besides its call, never changed once made.
private final class Storage: Sendable {
    struct Values: Sendable {
        var head: ResponseHead
        var body: Data
        var metrics: TransferMetrics
        var contentDecoded: Bool
        var redirects: [RedirectHop] = []
        var streamedBody: StreamedBody?
    }

    let values: Values
    var head: ResponseHead { values.head }
    var body: Data { values.body }
    var metrics: TransferMetrics { values.metrics }
    var contentDecoded: Bool { values.contentDecoded }
    var redirects: [RedirectHop] { values.redirects }
    var streamedBody: StreamedBody? { values.streamedBody }

    init(_ values: Values) { self.values = values }

    /// New storage with `change` made to these values.
    func with(_ change: (inout Values) -> Void) -> Storage {
        var values = values
        change(&values)
        return Storage(values)
    }
}

/// A streamed answer's events (its head among them, read again first) and what must live as long as they are
/// read (the session's registration of the transfer): what a response of a streamed attempt carries through
/// the stages of a session's chain until the caller (or a download) reads it.
package final class StreamedBody: Sendable {
    package let events: TransportEventStream
    package let keeper: (any AnyObject & Sendable)?

    package init(events: TransportEventStream, keeper: (any AnyObject & Sendable)?) {
        self.events = events
        self.keeper = keeper
    }

    /// Ends the transfer: its body will not be read (a redirect, a replaced answer).
    package func cancel() { events.cancel() }
}
