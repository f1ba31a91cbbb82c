import BrickTransport
import FoundationEssentials
import Synchronization

/// One request on its way through the engine, as the rest of the program sees it.
///
/// The engine thread feeds it (head, chunks, the outcome); the caller waits on it; either side may end it.
/// All shared state sits in one lock-protected ``State``.
final class CurlTransfer: TransportTransfer, TransportEventSource {
    typealias Outcome = Result<TransportResponse, TransportError>
    typealias EventOutcome = Result<TransportEvent?, TransportError>

    enum Mode { case collect, stream }

    /// What the engine's write callback should do with a chunk.
    enum ChunkVerdict { case accepted, pause, abort }

    fileprivate struct State {
        var mode: Mode?
        var finished = false
        var cancelled = false
        // collect
        var responseWaiter: UnsafeContinuation<Outcome, Never>?
        // stream
        var events: [TransportEvent] = []
        var queuedBytes = 0
        var pausedByEngine = false
        var eventWaiter: UnsafeContinuation<EventOutcome, Never>?
        var failure: TransportError?
        var ended = false
    }

    let request: TransportRequest
    private let transport: CurlTransport
    private let state = Mutex(State())

    init(request: TransportRequest, transport: CurlTransport) {
        self.request = request
        self.transport = transport
    }

    /// How the transfer was started; read by the engine thread when it sets the transfer up.
    var mode: Mode { state.withLock { $0.mode ?? .collect } }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    // MARK: Caller side

    func response() async throws(TransportError) -> TransportResponse {
        try request.validate()
        let outcome = await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: UnsafeContinuation<Outcome, Never>) in
                let early: Outcome? = state.withLock { state in
                    guard state.mode == nil else {
                        return .failure(TransportError(.invalidRequest, message: "a transfer can be started once"))
                    }
                    state.mode = .collect
                    if state.cancelled { return .failure(.cancelled) }
                    state.responseWaiter = waiter
                    return nil
                }
                if let early {
                    waiter.resume(returning: early)
                } else if !transport.engine.mailbox.post(.start(self)) {
                    complete(.failure(TransportError(.cancelled, message: "the transport has shut down")))
                }
            }
        } onCancel: {
            cancel()
        }
        return try outcome.get()
    }

    func events() -> TransportEventStream {
        do { try request.validate() } catch { return TransportEventStream(failing: error) }
        let shouldPost: Bool? = state.withLock { state in
            guard state.mode == nil else { return nil }
            state.mode = .stream
            return !state.cancelled
        }
        guard let shouldPost else {
            return TransportEventStream(failing: TransportError(.invalidRequest, message: "a transfer can be started once"))
        }
        if shouldPost && !transport.engine.mailbox.post(.start(self)) {
            fail(TransportError(.cancelled, message: "the transport has shut down"))
        }
        return TransportEventStream(source: self)
    }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        let outcome = await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: UnsafeContinuation<EventOutcome, Never>) in
                var resumeEngine = false
                let ready: EventOutcome? = state.withLock { state in
                    if !state.events.isEmpty {
                        let event = state.events.removeFirst()  // a short queue: the buffer cap bounds it
                        if case .body(let chunk) = event {
                            state.queuedBytes -= chunk.count
                            if state.pausedByEngine && state.queuedBytes <= request.options.streamBufferSize / 2 {
                                state.pausedByEngine = false
                                resumeEngine = true
                            }
                        }
                        return .success(event)
                    }
                    if let failure = state.failure { return .failure(failure) }
                    if state.ended { return .success(nil) }
                    state.eventWaiter = waiter
                    return nil
                }
                if resumeEngine { transport.engine.mailbox.post(.resume(self)) }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        return try outcome.get()
    }

    func cancel() {
        let (started, responseWaiter, eventWaiter) = state.withLock { state in
            guard !state.finished else { return (false, nil, nil) as (Bool, UnsafeContinuation<Outcome, Never>?, UnsafeContinuation<EventOutcome, Never>?) }
            state.finished = true
            state.cancelled = true
            state.failure = .cancelled
            state.events.removeAll()
            defer { state.responseWaiter = nil; state.eventWaiter = nil }
            return (state.mode != nil, state.responseWaiter, state.eventWaiter)
        }
        responseWaiter?.resume(returning: .failure(.cancelled))
        eventWaiter?.resume(returning: .failure(.cancelled))
        if started { transport.engine.mailbox.post(.cancel(self)) }
    }

    // MARK: Engine side

    /// Asks the engine to resume a transfer whose upload paused for want of stream bytes (any thread).
    func wake() { transport.engine.mailbox.post(.resume(self)) }

    /// Delivers the outcome of a collected transfer (engine thread). Ignored after cancellation.
    func complete(_ outcome: Outcome) {
        let waiter = state.withLock { state -> UnsafeContinuation<Outcome, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.responseWaiter = nil }
            return state.responseWaiter
        }
        waiter?.resume(returning: outcome)
    }

    /// Queues a stream event that is not body (engine thread).
    func push(_ event: TransportEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<EventOutcome, Never>? in
            guard !state.finished else { return nil }
            if case .end = event { state.ended = true; state.finished = true }
            return state.deliver(event)
        }
        waiter?.resume(returning: .success(event))
    }

    /// Queues a progress report (engine thread), replacing an unread report of the same direction at the
    /// queue's tail, so that reports never pile up behind a slow consumer.
    func report(_ event: TransportEvent) {
        let waiter = state.withLock { state -> UnsafeContinuation<EventOutcome, Never>? in
            guard !state.finished else { return nil }
            if let last = state.events.last, last.isProgress(like: event) {
                state.events[state.events.count - 1] = event
                return nil
            }
            return state.deliver(event)
        }
        waiter?.resume(returning: .success(event))
    }

    /// Offers a body chunk (engine thread): queued, or refused so that the engine pauses the transfer.
    func offer(_ bytes: UnsafeRawBufferPointer) -> ChunkVerdict {
        var event: TransportEvent?
        let (verdict, waiter) = state.withLock { state -> (ChunkVerdict, UnsafeContinuation<EventOutcome, Never>?) in
            if state.finished { return (.abort, nil) }
            if state.queuedBytes >= request.options.streamBufferSize {
                state.pausedByEngine = true
                return (.pause, nil)
            }
            let chunk = TransportEvent.body(Data(bytes))
            state.queuedBytes += bytes.count
            event = chunk
            return (.accepted, state.deliver(chunk))
        }
        if let waiter, let event { waiter.resume(returning: .success(event)) }
        return verdict
    }

    /// Ends a streamed transfer with an error (engine thread, or a failed start).
    func fail(_ error: TransportError) {
        let waiter = state.withLock { state -> UnsafeContinuation<EventOutcome, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            state.failure = error
            defer { state.eventWaiter = nil }
            return state.eventWaiter
        }
        waiter?.resume(returning: .failure(error))
    }
}

extension CurlTransfer.State {
    /// Hands `event` to a waiting consumer, or queues it. Returns the waiter to resume outside the lock.
    fileprivate mutating func deliver(_ event: TransportEvent) -> UnsafeContinuation<CurlTransfer.EventOutcome, Never>? {
        if let waiter = eventWaiter, events.isEmpty {
            eventWaiter = nil
            if case .body(let chunk) = event { queuedBytes -= chunk.count }
            return waiter
        }
        events.append(event)
        return nil
    }
}

extension TransportEvent {
    /// Whether both are progress reports of the same direction.
    fileprivate func isProgress(like other: TransportEvent) -> Bool {
        switch (self, other) {
        case (.uploadProgress, .uploadProgress), (.downloadProgress, .downloadProgress): true
        default: false
        }
    }
}
