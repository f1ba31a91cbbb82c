/// A source of transport events that a ``TransportEventStream`` pulls from.
public protocol TransportEventSource: AnyObject, Sendable {
    /// The next event, or `nil` after ``TransportEvent/end(_:)`` has been returned.
    func nextEvent() async throws(TransportError) -> TransportEvent?
    /// Stops the transfer; pending and later calls to ``nextEvent()`` throw `reason` (the first one given).
    func cancel(because reason: TransportError)
}


/// The events of one transfer as an `AsyncSequence`: iterate it once. Dropping the iterator before the end
/// cancels the transfer.
public struct TransportEventStream: AsyncSequence, Sendable {
    public typealias Element = TransportEvent

    private let source: any TransportEventSource

    /// Creates a stream over `source`.
    public init(source: any TransportEventSource) { self.source = source }

    public func makeAsyncIterator() -> Iterator { Iterator(lifetime: Lifetime(source)) }

    /// Cancels the transfer from outside the iteration.
    public func cancel() { source.cancel(because: .cancelled) }

    /// Cancels the transfer from outside the iteration; the reader sees `reason`.
    public func cancel(because reason: TransportError) { source.cancel(because: reason) }

    /// The next event, read straight from the transfer, for code that forwards a stream's events (such as
    /// a transfer that follows redirects). Unlike an iterator, nothing cancels the transfer when the reader
    /// stops early: the reader cancels it.
    public func nextEvent() async throws(TransportError) -> TransportEvent? { try await source.nextEvent() }

    /// Reads the events in order; dropping the last copy before the end cancels the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: Lifetime

        public nonisolated(nonsending) mutating func next() async throws -> TransportEvent? {
            let event = try await lifetime.source.nextEvent()
            switch event {
            case .end?, nil: lifetime.finished = true
            default: break
            }
            return event
        }
    }

    /// Cancels the transfer when the last copy of the iterator goes away before the end.
    fileprivate final class Lifetime {
        let source: any TransportEventSource
        var finished = false
        init(_ source: any TransportEventSource) { self.source = source }
        deinit { if !finished { source.cancel(because: .cancelled) } }
    }
}

extension TransportEventStream {
    /// A stream that throws `error` at once: for requests refused before anything was sent.
    public init(failing error: TransportError) { self.init(source: FailedEventSource(error: error)) }
}

/// An event source that only throws its error.
private final class FailedEventSource: TransportEventSource {
    let error: TransportError
    init(error: TransportError) { self.error = error }
    func nextEvent() async throws(TransportError) -> TransportEvent? { throw error }
    func cancel(because reason: TransportError) {}
}
