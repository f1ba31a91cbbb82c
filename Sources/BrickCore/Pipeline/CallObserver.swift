/// Watches every call of a session and each of its attempts, around them: the seam that tracing and metrics
/// hang on (BrickObservability's `TracingObserver` and `MetricsObserver`). Set in
/// ``Session/Configuration/observers``.
///
/// Each method runs `body` — the call, or one attempt — and returns what it returned; an observer starts
/// its span or timer before and records the end after. `body` runs on the caller's task, inside whatever
/// task-local values the observer sets, so the attempt's interceptors (and the request they adapt) see them:
/// that is how a trace context reaches the outgoing headers. Collected calls, streams (until their head) and
/// downloads are all observed: they share one attempt loop.
public protocol CallObserver: Sendable {
    /// Runs a whole call, every attempt and wait included.
    func observeCall(_ call: ObservedCall, _ body: () async -> CallEnd) async -> CallEnd
    /// Runs one attempt of `attempt.call`.
    func observeAttempt(_ attempt: ObservedAttempt, _ body: () async -> AttemptEnd) async -> AttemptEnd
}

/// A call as observers see it.
public struct ObservedCall: Sendable {
    /// The request's name: its type (`GetUser`), or `TransportRequest` for a request value.
    public let requestName: String
    /// The method.
    public let method: HTTPMethod
    /// The URL as built, before interceptors (it may carry secrets: redact before recording it).
    public let url: String
}

/// One attempt of a call.
public struct ObservedAttempt: Sendable {
    /// The call.
    public let call: ObservedCall
    /// Its number, from 1.
    public let number: Int
}

/// How an attempt ended.
public struct AttemptEnd: Sendable {
    /// The response status, when a head arrived.
    public let status: Int?
    /// The attempt's failure, if it failed (or what the call fails with if it cannot go again).
    public let error: BrickError?
}

/// How a call ended.
public struct CallEnd: Sendable {
    /// The last response status, when a head arrived.
    public let status: Int?
    /// The call's failure, if it failed.
    public let error: BrickError?
    /// How many attempts it made.
    public let attempts: Int
}

extension Session {
    /// `body` (a call) run inside every observer from `index` on, the first outermost.
    func observingCall(_ call: ObservedCall, from index: Int = 0, _ body: () async -> CallEnd) async -> CallEnd {
        guard index < configuration.observers.count else { return await body() }
        return await configuration.observers[index].observeCall(call) { await observingCall(call, from: index + 1, body) }
    }

    /// `body` (an attempt) run inside every observer from `index` on, the first outermost.
    func observingAttempt(_ attempt: ObservedAttempt, from index: Int = 0, _ body: () async -> AttemptEnd) async -> AttemptEnd {
        guard index < configuration.observers.count else { return await body() }
        return await configuration.observers[index].observeAttempt(attempt) { await observingAttempt(attempt, from: index + 1, body) }
    }
}
