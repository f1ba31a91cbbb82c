import BrickSystem
import Synchronization

/// A session's ``OriginState``s, one per origin, behind one lock; at most ``OriginProtection/maxOrigins`` of
/// them (the least recently used forgotten first, after any idle longer than ``OriginProtection/idleExpiry``).
///
/// ``holdsAny`` and ``owesAny`` are read without the lock: a call asks them before its hop, so that it asks
/// the table nothing when no origin could change what the hop does (none holds calls back) or what its answer
/// would change (every budget is full, so a success has no token to give back).
final class OriginTable: Sendable {
    let settings: OriginProtection
    private let timeline: any Timeline
    private let states = Locked<[String: OriginState]>([:])
    /// How many origins may hold calls back: counted up when one starts to (a hold, a breaker that opens),
    /// down when a look finds it has stopped (``OriginState/countedAsHolding``), or when it is forgotten.
    private let holding = Atomic<Int>(0)
    /// How many origins have a retry budget below its full count of tokens (``OriginState/countedAsOwing``).
    private let owing = Atomic<Int>(0)

    init(_ settings: OriginProtection, timeline: any Timeline) {
        self.settings = settings
        self.timeline = timeline
    }

    /// A table on its own timeline of `clock` (tests).
    convenience init(_ settings: OriginProtection, clock: any Clock<Duration>) { self.init(settings, timeline: Session.timeline(of: clock)) }

    /// The time on the session's clock (since the session was made).
    var now: Duration { timeline.now() }

    /// Whether any origin may hold calls back now (it may have stopped since: the next look at it says).
    var holdsAny: Bool { holding.load(ordering: .relaxed) > 0 }

    /// Whether any origin's retry budget may be short of tokens, so that a success there gives one back. A
    /// call that reads `false` while another's failure is being counted skips its refill: the budget comes
    /// back a tenth of a token later, never sooner than it should.
    var owesAny: Bool { owing.load(ordering: .relaxed) > 0 }

    /// Runs `change` on `origin`'s state (made now when there is none), keeping ``holding`` true to it.
    func update<Result: Sendable>(_ origin: String, _ change: (inout OriginState, Duration) -> Result) -> Result {
        let now = now
        return states.withLock { states in
            // One hash of the name where the origin is known (the usual call): its state changed in place.
            if let index = states.index(forKey: origin) { return apply(change, to: &states.values[index], now) }
            makeRoom(in: &states, now: now)
            var state = OriginState(tokens: settings.retryBudget?.maxTokens ?? 0, now: now)
            let result = apply(change, to: &state, now)
            states[origin] = state
            return result
        }
    }

    /// Runs `change` on one origin's state, keeping ``holding`` true to it.
    private func apply<Result>(_ change: (inout OriginState, Duration) -> Result, to state: inout OriginState, _ now: Duration) -> Result {
        state.lastUsed = now
        let result = change(&state, now)
        let holds = state.holds(now)
        if holds != state.countedAsHolding { holding.add(holds ? 1 : -1, ordering: .relaxed) }
        state.countedAsHolding = holds
        let owes = state.tokens < settings.retryBudget?.maxTokens ?? 0
        if owes != state.countedAsOwing { owing.add(owes ? 1 : -1, ordering: .relaxed) }
        state.countedAsOwing = owes
        return result
    }

    /// Forgets idle origins, then the least recently used, until one more fits: down to seven eighths of the
    /// table at once, so that a stream of new origins (a crawler, a fleet of hosts) sorts the table once per
    /// eighth of it rather than scanning it for every origin.
    private func makeRoom(in states: inout [String: OriginState], now: Duration) {
        guard states.count >= settings.maxOrigins else { return }
        let idle = states.filter { now - $0.value.lastUsed > settings.idleExpiry }.map(\.key)
        for origin in idle { forget(origin, in: &states) }
        let keep = settings.maxOrigins - max(1, settings.maxOrigins / 8)
        guard states.count > keep else { return }
        let oldest = states.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(states.count - keep).map(\.key)
        for origin in oldest { forget(origin, in: &states) }
    }

    private func forget(_ origin: String, in states: inout [String: OriginState]) {
        guard let state = states.removeValue(forKey: origin) else { return }
        if state.countedAsHolding { holding.add(-1, ordering: .relaxed) }
        if state.countedAsOwing { owing.add(-1, ordering: .relaxed) }
    }

    /// Every origin's state now, for ``Session/originStatuses()``.
    func snapshot() -> [(origin: String, state: OriginState, now: Duration)] {
        let now = now
        return states.withLock { states in states.map { ($0.key, $0.value, now) } }
    }
}
