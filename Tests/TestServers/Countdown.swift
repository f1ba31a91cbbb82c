import BrickSystem
import BrickTransport

/// Counts events and lets a task wait until the count reaches a target — no polling, no sleeping.
public final class Countdown: Sendable {
    private let state = Locked((count: 0, waiters: [(Int, CheckedContinuation<Void, Never>)]()))

    public init() {}

    /// Counts one more event and wakes the tasks whose target it reaches.
    public func increment() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.0 <= count }.map(\.1)
            state.waiters.removeAll { $0.0 <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// The events counted so far.
    public var count: Int { state.withLock { $0.count } }

    /// Returns once `target` events have been counted.
    public func wait(for target: Int) async {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                if state.count >= target { return true }
                state.waiters.append((target, waiter))
                return false
            }
            if ready { waiter.resume() }
        }
    }
}
