import BrickSystem
import BrickTransport

/// The events of a streamed request: `.head`, then `.body` chunks as they arrive, then `.end` with the
/// metrics. Iterate it once; stopping early cancels the transfer.
///
/// The request goes out when iteration starts, after the session's interceptors have adapted it. The
/// transfer pauses while you are more than `TransportOptions.streamBufferSize` bytes behind, so a slow
/// consumer keeps memory bounded whatever the body's size. Streams are not validated or replayed; the
/// request's retry rules apply until the head arrives (the caller never sees a failed attempt's events),
/// after it a failure ends the stream, and a stream whose host becomes unreachable ends at once with
/// `connectionLost`. It throws ``BrickError``, as
/// every other call does (a transport failure is ``BrickError/transport(_:)``).
public struct ResponseStream: AsyncSequence, Sendable {
    /// What it yields: the transfer's events.
    public typealias Element = TransportEvent
    /// What it throws.
    public typealias Failure = BrickError

    let starter: StreamStarter

    init(start: @escaping @Sendable () async throws(BrickError) -> (TransportEventStream, Registration?)) {
        starter = StreamStarter(start: start)
    }

    init(events: TransportEventStream, registration: Registration?) {
        starter = StreamStarter { () throws(BrickError) in (events, registration) }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(starter: starter) }

    /// Cancels the transfer (or, before iteration, keeps it from starting).
    public func cancel() { starter.cancel() }

    /// Reads the events in order; the first call to `next()` starts the transfer.
    public struct Iterator: AsyncIteratorProtocol {
        /// What it yields: the transfer's events.
        public typealias Element = TransportEvent
        /// What it throws.
        public typealias Failure = BrickError

        let starter: StreamStarter
        var inner: TransportEventStream.Iterator?
        var registration: Registration?

        /// The next event, in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(BrickError) -> TransportEvent? {
            try await next()
        }

        /// The next event; `nil` after the end.
        public nonisolated(nonsending) mutating func next() async throws(BrickError) -> TransportEvent? {
            if inner == nil {
                let (events, registration) = try await starter.begin()
                inner = events.makeAsyncIterator()
                self.registration = registration
            }
            do {
                let event = try await inner?.next()
                switch event {
                case .end?, nil: registration?.end()
                default: break
                }
                return event
            } catch let error as TransportError {
                registration?.end()
                throw .transport(error)
            } catch {
                registration?.end()
                throw .transport(TransportError(.other, message: "\(error)"))
            }
        }
    }
}

/// Starts a stream's transfer once, on first iteration, unless it was cancelled first.
final class StreamStarter: Sendable {
    private enum State {
        case idle(@Sendable () async throws(BrickError) -> (TransportEventStream, Registration?))
        case starting
        case started(TransportEventStream)
        case cancelled
    }

    private let state: Locked<State>

    init(start: @escaping @Sendable () async throws(BrickError) -> (TransportEventStream, Registration?)) {
        state = Locked(.idle(start))
    }

    func begin() async throws(BrickError) -> (TransportEventStream, Registration?) {
        let start = state.withLock { state -> (@Sendable () async throws(BrickError) -> (TransportEventStream, Registration?))? in
            guard case .idle(let start) = state else { return nil }
            state = .starting
            return start
        }
        guard let start else { throw .transport(.cancelled) }
        let (events, registration) = try await start()
        let cancelled = state.withLock { state in
            if case .cancelled = state { return true }
            state = .started(events)
            return false
        }
        if cancelled { events.cancel() }
        return (events, registration)
    }

    func cancel() {
        let events = state.withLock { state -> TransportEventStream? in
            defer { state = .cancelled }
            if case .started(let events) = state { return events }
            return nil
        }
        events?.cancel()
    }
}

/// Removes a streamed request from its session's running list when the stream ends or is dropped.
final class Registration: Sendable {
    private let registry: RunningRegistry
    private let id: UInt64

    init(registry: RunningRegistry, id: UInt64) {
        self.registry = registry
        self.id = id
    }

    /// Forgets the transfer.
    func end() { registry.remove(id) }
    deinit { registry.remove(id) }
}
