/// The seam under the core: something that sends a ``TransportRequest`` and hands back its response.
///
/// The libcurl transport (`CurlTransport`) is the real one; `BrickTesting` has a stub for unit tests. A
/// transport validates each request (``TransportRequest/validate()``) before anything is sent.
public protocol Transport: Sendable {
    /// Makes a transfer for `request`. Nothing is sent until the transfer is started by
    /// ``TransportTransfer/response()`` or ``TransportTransfer/events()``.
    func makeTransfer(for request: TransportRequest) -> any TransportTransfer

    /// Stops the transport: transfers still running fail with ``TransportError/Kind/cancelled``, later ones
    /// at once, and its threads and connections are released before this returns. The default does nothing
    /// (for transports that hold nothing).
    func shutdown() async
}

extension Transport {
    public func shutdown() async {}
}

/// One request on its way: started once, either collected or streamed, and cancellable from any thread.
public protocol TransportTransfer: AnyObject, Sendable {
    /// Starts the transfer and returns the whole response once it has arrived.
    ///
    /// Task cancellation cancels the transfer.
    /// - Throws: ``TransportError``; `responseTooLarge` when the body passes ``TransportOptions/maxBodySize``.
    func response() async throws(TransportError) -> TransportResponse

    /// Starts the transfer and returns its events as they arrive. The transfer pauses while the consumer is
    /// behind by more than ``TransportOptions/streamBufferSize``; ending the iteration early cancels it.
    func events() -> TransportEventStream

    /// Ends the transfer with `reason`: it stops, its resources are freed, and whoever waits gets `reason`
    /// (``cancel()`` gives ``TransportError/Kind/cancelled``; a session ending a transfer whose route went
    /// away gives `connectionLost`). Safe to call at any time, more than once, from any thread: the first
    /// call's reason wins, and a transfer that already ended keeps its outcome.
    func cancel(because reason: TransportError)
}

extension TransportTransfer {
    /// Cancels the transfer: whoever waits gets ``TransportError/Kind/cancelled``.
    public func cancel() { cancel(because: .cancelled) }
}
