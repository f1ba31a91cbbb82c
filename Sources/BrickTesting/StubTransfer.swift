import BrickCore
import BrickSystem
import BrickTransport

/// One request sent to a ``StubTransport``: validated like a real one, answered from the stubs.
final class StubTransfer: TransportTransfer, TransportEventSource {
    private struct State {
        var started = false
        /// Why the transfer was cancelled, once it was.
        var cancelReason: TransportError?
        var waiter: UnsafeContinuation<Void, Never>?
        var pending: [TransportEvent] = []
        var sleeper: Task<Void, any Error>?
    }

    private let request: TransportRequest
    private let transport: StubTransport
    private let state = Locked(State())

    init(request: TransportRequest, transport: StubTransport) {
        self.request = request
        self.transport = transport
    }

    func response() async throws(TransportError) -> TransportResponse {
        let alreadyStarted = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        guard !alreadyStarted else { throw TransportError(.invalidRequest, message: "a transfer can be started once") }
        if Task.isCancelled { throw .cancelled }
        if let reason = state.withLock({ $0.cancelReason }) { throw reason }
        try request.validate()
        return try await resolve(transport.reply(for: request))
    }

    private func resolve(_ reply: StubTransport.Reply) async throws(TransportError) -> TransportResponse {
        switch reply {
        case .response(let response):
            if let reason = state.withLock({ $0.cancelReason }) { throw reason }
            return response
        case .failure(let error):
            throw error
        case .computed(let answer):
            return try await resolve(answer(request))
        case .delayed(let delay, let reply):
            let clock = transport.clock
            let sleeper = Task { try await clock.sleep(for: delay) }
            if state.withLock({ state in state.sleeper = sleeper; return state.cancelReason != nil }) { sleeper.cancel() }
            do {
                try await withTaskCancellationHandler { try await sleeper.value } onCancel: { sleeper.cancel() }
            } catch { throw state.withLock { $0.cancelReason } ?? .cancelled }
            if let reason = state.withLock({ $0.cancelReason }) { throw reason }
            return try await resolve(reply)
        case .never:
            await withTaskCancellationHandler {
                await withUnsafeContinuation { waiter in
                    let cancelled = state.withLock { state in
                        if state.cancelReason == nil { state.waiter = waiter }
                        return state.cancelReason != nil
                    }
                    if cancelled { waiter.resume() }
                }
            } onCancel: {
                cancel()
            }
            throw state.withLock { $0.cancelReason } ?? .cancelled
        }
    }

    func events() -> TransportEventStream { TransportEventStream(source: self) }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        if state.withLock({ !$0.started }) {
            let response = try await self.response()
            state.withLock { $0.pending = Self.events(of: response, sent: request) }
        }
        if let reason = state.withLock({ $0.cancelReason }) { throw reason }
        return state.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    }

    /// The events a real transfer would stream: the upload's final progress (memory bodies), the head, the
    /// body and its final progress (when there is one), the end.
    private static func events(of response: TransportResponse, sent request: TransportRequest) -> [TransportEvent] {
        var events: [TransportEvent] = []
        if let body = request.body?.data, !body.isEmpty {
            events.append(.uploadProgress(TransferProgress(completed: Int64(body.count), expected: Int64(body.count))))
        }
        events.append(.head(response.head))
        if !response.body.isEmpty {
            let length = Int64(response.body.count)
            events += [.body(response.body), .downloadProgress(TransferProgress(completed: length, expected: length))]
        }
        events.append(.end(response.metrics))
        return events
    }

    func cancel(because reason: TransportError) {
        let (waiter, sleeper) = state.withLock { state in
            if state.cancelReason == nil { state.cancelReason = reason }
            defer { state.waiter = nil }
            return (state.waiter, state.sleeper)
        }
        waiter?.resume()
        sleeper?.cancel()
    }
}
