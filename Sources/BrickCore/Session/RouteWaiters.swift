import BrickSystem
import BrickTransport

/// Requests waiting for the route to their host, parked per host: the session's watch of routes (its one
/// subscription to the reachability's changes) asks each parked host's status once per change and resumes
/// every request parked on it at once; one timer of the session's clock ends the waits that ran out. A
/// waiting request holds a continuation here and nothing else: no subscription, task group or timer of its own.
///
/// Waking is linear: the waiters are indexed by host (a change costs one look per parked host and one step
/// per waiter it wakes) and their deadlines kept in a heap (an expiry costs a step per waiter it ends).
final class RouteWaiters: Sendable {
    /// How a wait ended.
    enum Outcome: Sendable { case reachable, expired, cancelled }

    fileprivate struct Waiter {
        let host: String
        /// When the wait runs out, on ``timeline``.
        let deadline: Duration
        let continuation: UnsafeContinuation<Outcome?, Never>
    }

    fileprivate struct State {
        var waiters: [UInt64: Waiter] = [:]
        /// The ids of the waiters parked on each host.
        var byHost: [String: Set<UInt64>] = [:]
        /// Every parked waiter's deadline (and some of waiters gone since, skipped when met).
        var deadlines = DeadlineHeap()
        var lastID: UInt64 = 0
        /// How many changes the watch has begun to look at: a request that read the status before a change
        /// it then missed looks again.
        var changes: UInt64 = 0
        /// The timer (one sleep of the session's clock), and the deadline it sleeps until.
        var timer: (task: Task<Void, Never>, deadline: Duration)?
        /// Whether the changes ended (the monitor stopped): nothing more can be known, so nobody waits.
        var ended = false
    }

    private let state = Locked(State())
    private let timeline: any Timeline

    /// Waiters whose deadlines are measured on `timeline` (the session's clock).
    init(timeline: any Timeline) { self.timeline = timeline }

    /// Waiters whose deadlines are measured on `clock`.
    convenience init(clock: any Clock<Duration>) { self.init(timeline: Session.timeline(of: clock)) }

    /// Waits until `host` is no longer unreachable (as `reachability` says), `limit` passes on the clock, or
    /// the task is cancelled. The session's watch of routes must be running (it calls ``routesChanged(_:)``).
    func wait(for host: String, upTo limit: Duration, _ reachability: any Reachability) async -> Outcome {
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            return state.lastID
        }
        let deadline = timeline.now() + limit
        while true {
            let seen = state.withLock { $0.changes }
            guard await reachability.status(of: host) == .unreachable else { return .reachable }
            let outcome = await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Outcome?, Never>) in
                    park(Waiter(host: host, deadline: deadline, continuation: continuation), id: id, unless: seen)
                }
            } onCancel: {
                resume(id, with: .cancelled)
            }
            if let outcome { return outcome }  // else a change came while the status was read: read it again
        }
    }

    /// How many requests are parked now.
    var parkedCount: Int { state.withLock { $0.waiters.count } }

    /// Parks `waiter`, unless the routes changed since `seen` (it is resumed with `nil` then, to look again),
    /// its task was cancelled, or its deadline passed.
    private func park(_ waiter: Waiter, id: UInt64, unless seen: UInt64) {
        let now = timeline.now()
        let refusal: Outcome?? = state.withLock { state in
            guard !state.ended else { return .reachable }
            guard state.changes == seen else { return .some(nil) }
            guard waiter.deadline > now else { return .expired }
            state.add(waiter, id: id)
            armTimer(&state, for: waiter.deadline)
            return .none
        }
        if let refusal { waiter.continuation.resume(returning: refusal) }
        if Task.isCancelled { resume(id, with: .cancelled) }
    }

    /// Resumes waiter `id` with `outcome`, if it is still parked (whoever removes it resumes it).
    private func resume(_ id: UInt64, with outcome: Outcome) {
        state.withLock { $0.remove(id) }?.continuation.resume(returning: outcome)
    }

    /// After a change of routes: every parked host's status, asked once, and its waiters resumed at once when
    /// it is no longer unreachable.
    func routesChanged(_ reachability: any Reachability) async {
        let hosts = state.withLock { state -> [String] in
            state.changes += 1
            return Array(state.byHost.keys)
        }
        for host in hosts where await reachability.status(of: host) != .unreachable {
            let woken = state.withLock { state -> [Waiter] in
                guard let ids = state.byHost.removeValue(forKey: host) else { return [] }
                return ids.compactMap { state.waiters.removeValue(forKey: $0) }
            }
            for waiter in woken { waiter.continuation.resume(returning: .reachable) }
        }
    }

    /// After the last change (the reachability's changes ended): every waiter goes and tries, and so does
    /// every later one.
    func changesEnded() {
        let waiting = state.withLock { state -> [Waiter] in
            state.ended = true
            defer {
                state.waiters = [:]
                state.byHost = [:]
                state.deadlines = DeadlineHeap()
            }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.continuation.resume(returning: .reachable) }
    }

    /// Makes the timer sleep until `deadline` if nothing sleeps until an earlier one.
    private func armTimer(_ state: inout State, for deadline: Duration) {
        if let timer = state.timer, timer.deadline <= deadline { return }
        state.timer?.task.cancel()
        let timeline = timeline
        state.timer = (Task { [weak self] in
            do { try await timeline.sleep(until: deadline) } catch { return }  // a timer for an earlier deadline replaced it
            self?.expire()
        }, deadline)
    }

    /// Ends the waits that ran out, and sleeps until the next deadline.
    private func expire() {
        let now = timeline.now()
        let expired = state.withLock { state -> [Waiter] in
            state.timer = nil
            var expired: [Waiter] = []
            // The heap is taken out while it is read, so that reading the waiters beside it copies neither.
            var deadlines = state.deadlines
            state.deadlines = DeadlineHeap()
            var later: Duration?
            while let next = deadlines.earliest({ state.waiters[$0] != nil }) {
                guard next.deadline <= now else {
                    later = next.deadline
                    break
                }
                deadlines.popFirst()
                if let waiter = state.remove(next.id) { expired.append(waiter) }
            }
            state.deadlines = deadlines
            if let later { armTimer(&state, for: later) }
            return expired
        }
        for waiter in expired { waiter.continuation.resume(returning: .expired) }
    }

    deinit { state.withLock { $0.timer?.task.cancel() } }
}

extension RouteWaiters.State {
    /// Parks `waiter` as `id`: by its host, and its deadline in the heap (which is compacted when the entries
    /// of waiters gone since outnumber the parked ones).
    fileprivate mutating func add(_ waiter: RouteWaiters.Waiter, id: UInt64) {
        waiters[id] = waiter
        byHost[waiter.host, default: []].insert(id)
        deadlines.push(waiter.deadline, id)
        if deadlines.count > 2 * waiters.count + 64 { deadlines.compact { [waiters] in waiters[$0] != nil } }
    }

    /// Takes waiter `id` out, if it is parked (its deadline's entry stays, skipped when met).
    fileprivate mutating func remove(_ id: UInt64) -> RouteWaiters.Waiter? {
        guard let waiter = waiters.removeValue(forKey: id) else { return nil }
        if byHost[waiter.host]?.remove(id) != nil, byHost[waiter.host]?.isEmpty == true { byHost[waiter.host] = nil }
        return waiter
    }
}
