/// Watches every call of a session and each of its attempts, around them: the seam that tracing and metrics
/// hang on (BrickObservability's `TracingObserver` and `MetricsObserver`). Set in
/// ``Session/Configuration/observers``.
///
/// Each method runs `body` — the call, or one attempt — and returns what it returned; an observer starts
/// its span or timer before and records the end after. `body` runs on the caller's task, inside whatever
/// task-local values the observer sets, so the attempt's interceptors (and the request they adapt) see them:
/// that is how a trace context reaches the outgoing headers. Collected calls, streams (until their head) and
/// downloads are all observed, and so is a call the session's cache answers (with no attempt): the
/// observers are the outermost stage of the chain (``StageOrder/observers``).
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
    /// How many attempts it made: 0 when the session's cache answered it.
    public let attempts: Int
    /// The last response, when one arrived (or the cache gave one).
    public let response: TransportResponse?
    /// What the session's response cache did: ``CacheStatus/hit`` for a call it answered.
    public let cacheStatus: CacheStatus

    /// Creates an end, for tests of observers.
    public init(status: Int?, error: BrickError?, attempts: Int, response: TransportResponse? = nil, cacheStatus: CacheStatus = .notUsed) {
        self.status = status
        self.error = error
        self.attempts = attempts
        self.response = response
        self.cacheStatus = cacheStatus
    }
}
