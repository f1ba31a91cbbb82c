import BrickSystem
import BrickTransport

/// Raised once by the engine thread when its loop has ended and libcurl's multi handle (with every
/// connection) is cleaned up; ``wait()`` returns after that.
final class EngineStopped: Sendable {
    private struct State {
        var stopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Called by the engine thread, last.
    func signal() {
        let waiters = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once the engine has stopped.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiters.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }
}
