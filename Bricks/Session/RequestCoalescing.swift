import BrickSystem

/// A call stage that lets identical `GET`s share one transfer: while a `GET` without a body is on its way, a
/// second call with the same URL and the same header fields (so the same credentials) waits for it instead
/// of sending its own, and gets the same answer as a value of its own. Off unless a session adds it:
///
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.callStages = [RequestCoalescing()]
/// ```
///
/// The shared call runs in a task of its own, so a waiter that is cancelled leaves alone (with a cancellation
/// error) and the others still get their answer; no method but `GET` is ever shared. Written against the
/// public stage API alone (`CallStage`, `Call`, `CallNext`), as any user's stage would be.
public final class RequestCoalescing: CallStage {
    /// The calls in flight, by identity, each with the callers waiting for it.
    private let inFlight = Locked<[Identity: Shared]>([:])

    /// A stage with no call in flight.
    public init() {}

    /// How many calls take part in shared transfers now: the one that sends each and those waiting for it.
    public var waiting: Int { inFlight.withLock { calls in calls.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Runs `call`: a `GET` without a body joins the identical call in flight, or starts it; any other call
    /// goes on alone.
    public nonisolated(nonsending) func run(_ call: Call, next: CallNext) async -> ResponseOutcome {
        let request = call.request
        guard request.method == .get, request.body == nil else { return await next() }
        let identity = Identity(url: request.url, fields: request.headers.map { [$0.name.lowercased(), $0.value] })
        let waiter = Waiter()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.park(continuation)
                join(identity, waiter, next)
            }
        } onCancel: {
            waiter.resume(.failure(.transport(.cancelled)))
        }
    }

    /// Adds `waiter` to the call in flight for `identity`, or starts that call with `next` when there is none.
    private func join(_ identity: Identity, _ waiter: Waiter, _ next: CallNext) {
        let starts = inFlight.withLock { calls in
            if calls[identity] != nil {
                calls[identity]?.waiters.append(waiter)
                return false
            }
            calls[identity] = Shared(waiters: [waiter])
            return true
        }
        guard starts else { return }
        Task {
            let outcome = await next()
            let waiters = inFlight.withLock { calls in calls.removeValue(forKey: identity)?.waiters ?? [] }
            for waiter in waiters { waiter.resume(outcome) }
        }
    }

    /// What makes two calls the same call: the URL and every header field, in order.
    private struct Identity: Hashable, Sendable {
        let url: String
        let fields: [[String]]
    }

    /// A call in flight and who waits for it.
    private struct Shared: Sendable {
        var waiters: [Waiter]
    }

    /// One caller waiting: resumed once, by the shared call's end or by its own cancellation, whichever
    /// comes first.
    private final class Waiter: Sendable {
        private let state = Locked<(continuation: CheckedContinuation<ResponseOutcome, Never>?, early: ResponseOutcome?)>((nil, nil))

        func park(_ continuation: CheckedContinuation<ResponseOutcome, Never>) {
            let early: ResponseOutcome? = state.withLock { state in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func resume(_ outcome: ResponseOutcome) {
            let continuation: CheckedContinuation<ResponseOutcome, Never>? = state.withLock { state in
                guard let continuation = state.continuation else {
                    if state.early == nil { state.early = outcome }
                    return nil
                }
                state.continuation = nil
                return continuation
            }
            continuation?.resume(returning: outcome)
        }
    }
}
