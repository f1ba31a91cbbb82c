import BrickSystem
import BrickTransport
import FoundationEssentials

/// What the engine hands the caller, under the transfer's mutex: the outcome of a collected transfer, and a
/// stream's head, chunks, progress reports, end or failure, with back-pressure (a stream whose queue is
/// full pauses until its consumer drained half).
extension CurlTransfer {
    /// What the engine's write callback should do with a chunk.
    enum ChunkVerdict { case accepted, pause, abort }

    /// Asks the engine to resume a transfer whose upload paused for want of stream bytes (any thread).
    func wake() { transport.engine.mailbox.post(.resume(self)) }

    /// Delivers the outcome of a collected transfer (engine thread). Ignored after cancellation.
    func complete(_ outcome: consuming Outcome) {
        let waiter = withLock { state -> UnsafeContinuation<Outcome, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.responseWaiter = nil }
            return state.responseWaiter
        }
        waiter?.resume(returning: outcome)
    }

    /// Queues a stream event that is not body and wakes a waiting consumer (engine thread).
    func push(_ event: TransportEvent) {
        update { state in
            guard !state.finished else { return }
            if case .end = event { state.ended = true; state.finished = true }
            state.events.append(event)
        }
    }

    /// Queues a progress report (engine thread), replacing an unread report of the same direction at the
    /// queue's tail, so that reports never pile up behind a slow consumer. Like a chunk, it waits for the
    /// engine's ``flush()`` to wake the consumer.
    func report(_ event: TransportEvent) {
        withLock { state in
            guard !state.finished else { return }
            if let last = state.events.last, last.isProgress(like: event) {
                state.events[state.events.count - 1] = event
            } else {
                state.events.append(event)
            }
        }
    }

    /// Offers a body chunk (engine thread): queued, or refused so that the engine pauses the transfer.
    ///
    /// An accepted chunk does not wake the consumer: the engine calls ``flush()`` once its pass over the
    /// sockets is done, so that a fast consumer is woken once per pass rather than once per 16 KiB.
    func offer(_ bytes: UnsafeRawBufferPointer) -> ChunkVerdict {
        withLock { state in
            if state.finished { return .abort }
            if state.queuedBytes >= request.options.streamBufferSize {
                state.pausedByEngine = true
                return .pause
            }
            state.queuedBytes += bytes.count
            state.appendBody(bytes)
            return .accepted
        }
    }

    /// Whether decoded body may be queued now (engine thread): `.full` (and the engine then counts as
    /// having paused the transfer, so that the consumer's reads ask to resume it) or `.finished`.
    func roomForBody() -> BodyRoom {
        withLock { state in
            if state.finished { return .finished }
            guard state.queuedBytes < request.options.streamBufferSize else {
                state.pausedByEngine = true
                return .full
            }
            return .room
        }
    }

    /// Room for decoded body in a stream's queue.
    enum BodyRoom { case room, full, finished }

    /// Queues decoded body (engine thread) once ``roomForBody()`` said there is room; `false` when the
    /// transfer is over.
    func acceptBody(_ chunk: Data) -> Bool {
        chunk.withUnsafeBytes { bytes in
            withLock { state in
                guard !state.finished else { return false }
                state.queuedBytes += bytes.count
                state.appendBody(bytes)
                return true
            }
        }
    }

    /// Wakes a waiting consumer if events were queued for it (engine thread, after a pass).
    func flush() { update { _ in } }

    /// Ends a streamed transfer with an error (engine thread, or a failed start). Events queued before it
    /// are still read first.
    func fail(_ error: TransportError) {
        update { state in
            guard !state.finished else { return }
            state.finished = true
            state.failure = error
        }
    }

    /// Applies `change`, then hands the next event (or the end, or the failure) to a waiting consumer.
    private func update(_ change: (inout SharedState) -> Void) {
        let (waiter, ready, resumeEngine) = withLock { state -> (UnsafeContinuation<EventOutcome, Never>?, EventOutcome?, Bool) in
            change(&state)
            guard let waiter = state.eventWaiter else { return (nil, nil, false) }
            let (ready, resumeEngine) = state.takeReady(bufferSize: request.options.streamBufferSize)
            guard ready != nil else { return (nil, nil, resumeEngine) }
            state.eventWaiter = nil
            return (waiter, ready, resumeEngine)
        }
        if resumeEngine { transport.engine.mailbox.post(.resume(self)) }
        if let waiter, let ready { waiter.resume(returning: ready) }
    }
}
