import BrickSystem
import BrickTransport

/// A clock that moves only when a test says so: sleepers wake when ``advance(by:)`` passes their deadline.
///
/// Give it to a session (`configuration.clock`) or a `StubTransport` so that delays and retries are tested
/// without waiting. ``waitForSleepers(count:)`` lets a test know a sleeper is in place before it advances.
public final class ManualClock: Clock, Sendable {
    /// A point in the manual clock's time.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock was made.
        public let offset: Duration
        /// The instant `offset` after the clock was made.
        public init(offset: Duration) { self.offset = offset }
        /// This instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    fileprivate struct Sleeper {
        let deadline: Instant
        let waiter: CheckedContinuation<Void, any Error>
    }

    fileprivate struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var watchers: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
        var cancelledEarly: Set<Int> = []
    }

    private let state = Locked(State())

    /// A clock at offset zero.
    public init() {}

    /// Where the clock is: moved only by ``advance(by:)``.
    public var now: Instant { state.withLock { $0.now } }
    /// Zero: the clock moves by exactly what a test says.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Returns once ``advance(by:)`` reaches `deadline` (at once if it is past); throws `CancellationError`
    /// if the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, waiter: waiter)
                    return (nil, state.takeSatisfiedWatchers())
                }
                watchers.forEach { $0.resume() }
                if let outcome { waiter.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil as Sleeper?
                }
                return sleeper
            }
            sleeper?.waiter.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            due.keys.forEach { state.sleepers[$0] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        woken.forEach { $0.waiter.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on the clock.
    public func waitForSleepers(count: Int = 1) async {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, waiter))
                return false
            }
            if ready { waiter.resume() }
        }
    }
}

extension ManualClock.State {
    fileprivate mutating func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
        let count = sleepers.count
        let ready = watchers.filter { $0.count <= count }.map(\.waiter)
        watchers.removeAll { $0.count <= count }
        return ready
    }
}
