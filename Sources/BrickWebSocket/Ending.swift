import BrickSystem

/// A one-time event some wait for with a deadline: the reading task's end, which closing waits for.
final class Ending: Sendable {
    private struct State {
        var ended = false
        var waiters: [Int: UnsafeContinuation<Void, Never>] = [:]
        var next = 0
    }

    private let state = Locked(State())

    /// Whether the event happened.
    var happened: Bool { state.withLock { $0.ended } }

    /// Marks the event; every waiter goes on.
    func signal() {
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        waiters.values.forEach { $0.resume() }
    }

    /// Returns once the event happened, or after `limit`.
    func wait(atMost limit: Duration) async {
        var timer: Task<Void, Never>?
        await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
            let id = state.withLock { state -> Int? in
                guard !state.ended else { return nil }
                state.next += 1
                state.waiters[state.next] = waiter
                return state.next
            }
            guard let id else { return waiter.resume() }
            timer = Task { [self] in
                try? await Task.sleep(for: limit)
                state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
        timer?.cancel()
    }
}
