import BrickSystem
import BrickTransport

/// The caller's side of a transfer: it starts the transfer once, collected or streamed, waits for what the
/// engine hands over, and may cancel it from any thread.
extension CurlTransfer {
    func response() async throws(TransportError) -> TransportResponse {
        try request.validate()
        let outcome = await withTaskCancellationHandler {
            await withUnsafeContinuation { (waiter: UnsafeContinuation<Outcome, Never>) in
                let early: Outcome? = withLock { state in
                    guard state.mode == nil else {
                        return .failure(TransportError(.invalidRequest, message: "a transfer can be started once"))
                    }
                    state.mode = .collect
                    if state.cancelled { return .failure(state.failure ?? .cancelled) }
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
        seeHandOff()
        switch consume outcome {  // the response moved out, not copied
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }

    /// Takes the transfer's mutex once after a continuation resumed: the engine took the waiter under that lock
    /// after it made the outcome, so taking it again orders the caller's reads after the engine's writes in
    /// a way ThreadSanitizer sees. The runtime's own hand-off of a continuation's value (atomics inside the
    /// concurrency library, which is not instrumented) it may not see: once, under load, it reported a
    /// response head's bytes, written on the engine thread, as raced with the caller reading them.
    private func seeHandOff() { withLock { _ in } }

    func events() -> TransportEventStream {
        do { try request.validate() } catch { return TransportEventStream(failing: error) }
        let shouldPost: Bool? = withLock { state in
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
                let (ready, resumeEngine) = withLock { state -> (EventOutcome?, Bool) in
                    let (ready, resumeEngine) = state.takeReady(bufferSize: request.options.streamBufferSize)
                    if ready == nil { state.eventWaiter = waiter }
                    return (ready, resumeEngine)
                }
                if resumeEngine { transport.engine.mailbox.post(.resume(self)) }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
        seeHandOff()
        return try outcome.get()
    }

    func cancel(because reason: TransportError) {
        let (started, responseWaiter, eventWaiter) = withLock { state in
            guard !state.finished else { return (false, nil, nil) as (Bool, UnsafeContinuation<Outcome, Never>?, UnsafeContinuation<EventOutcome, Never>?) }
            state.finished = true
            state.cancelled = true
            state.failure = reason
            state.events.removeAll()
            defer { state.responseWaiter = nil; state.eventWaiter = nil }
            return (state.mode != nil, state.responseWaiter, state.eventWaiter)
        }
        responseWaiter?.resume(returning: .failure(reason))
        eventWaiter?.resume(returning: .failure(reason))
        if started { transport.engine.mailbox.post(.cancel(self)) }
    }
}
