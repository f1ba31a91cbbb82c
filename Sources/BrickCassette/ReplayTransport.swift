import BrickSystem
import BrickTransport
import FoundationEssentials

/// A transport that answers from a cassette and never touches the network: each request gets its recorded
/// answer (or recorded error), or fails with `notRecorded`, naming the nearest entry and what differed.
final class ReplayTransport: Transport {
    let player: Player
    /// What a replayed timing waits on.
    let clock: any Clock<Duration>

    init(player: Player, clock: any Clock<Duration>) {
        self.player = player
        self.clock = clock
    }

    func makeTransfer(for request: TransportRequest) -> any TransportTransfer { ReplayTransfer(request: request, transport: self) }
}

/// One replayed request: collected, or streamed as its head, its body and its end.
final class ReplayTransfer: TransportTransfer, TransportEventSource {
    private struct State {
        var started = false
        var cancelReason: TransportError?
        var sleeper: Task<Void, any Error>?
        var pending: [TransportEvent]?
    }

    private let request: TransportRequest
    private let transport: ReplayTransport
    private let state = Locked(State())

    init(request: TransportRequest, transport: ReplayTransport) {
        self.request = request
        self.transport = transport
    }

    func response() async throws(TransportError) -> TransportResponse {
        let again = state.withLock { state in
            defer { state.started = true }
            return state.started
        }
        guard !again else { throw TransportError(.invalidRequest, message: "a transfer can be started once") }
        try checkCancelled()
        try request.validate()
        let entry: HAR.Entry
        switch transport.player.answer(for: request) {
        case .success(let found): entry = found
        case .failure(let mismatch): throw TransportError(.notRecorded, message: mismatch.description)
        }
        let outcome = entry.outcome()
        if transport.player.replaysTimings, case .success(let response) = outcome { try await wait(response.metrics.total) }
        try checkCancelled()
        return try outcome.get()
    }

    private func checkCancelled() throws(TransportError) {
        if Task.isCancelled { throw .cancelled }
        if let reason = state.withLock({ $0.cancelReason }) { throw reason }
    }

    /// Waits `duration` on the transport's clock, or until cancelled.
    private func wait(_ duration: Duration) async throws(TransportError) {
        let clock = transport.clock
        let sleeper = Task { try await clock.sleep(for: duration) }
        if state.withLock({ state in state.sleeper = sleeper; return state.cancelReason != nil }) { sleeper.cancel() }
        do {
            try await withTaskCancellationHandler { try await sleeper.value } onCancel: { sleeper.cancel() }
        } catch {
            throw state.withLock { $0.cancelReason } ?? .cancelled
        }
    }

    func events() -> TransportEventStream { TransportEventStream(source: self) }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        if state.withLock({ $0.pending == nil }) {
            let response = try await self.response()
            state.withLock { $0.pending = [.head(response.head)] + (response.body.isEmpty ? [] : [.body(response.body)]) + [.end(response.metrics)] }
        }
        try checkCancelled()
        return state.withLock { state in state.pending?.isEmpty == false ? state.pending?.removeFirst() : nil }
    }

    func cancel(because reason: TransportError) {
        let sleeper = state.withLock { state -> Task<Void, any Error>? in
            if state.cancelReason == nil { state.cancelReason = reason }
            return state.sleeper
        }
        sleeper?.cancel()
    }
}
