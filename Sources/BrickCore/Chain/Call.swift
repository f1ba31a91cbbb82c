import BrickSystem
import FoundationEssentials

/// One call of a session, from its request as built to its last attempt: what the stages of the session's
/// chain ([`Chain`](Docs/Architecture.md)) read and record. Made by the session for each call (a
/// `Component`'s, a request value's, a download's, a stream's); a stage never makes one.
///
/// What the call is (its request, retry rules, idempotency, cache mode, validation, origin policy, hedging)
/// never changes. What happens to it is kept here as the attempts go: each attempt's record
/// (``attempts``), the request each attempt sent, what the cache did, a repeat a stage asked for, and the
/// call's phase (``Phase``), an explicit state machine that the attempt loop moves and anyone may read.
public final class Call: @unchecked Sendable {
    /// The request as built from the bricks (the session's headers, the parameters, the options), before any
    /// stage adapted it.
    public var request: TransportRequest { source.built }
    /// The session the call runs on.
    public let session: Session
    /// How the answer is taken: collected, streamed, or into a file.
    let delivery: Delivery
    /// Whether ``delivery`` collects the answer, and whether it serializes it inside each attempt: read on
    /// every call, kept apart so that no step copies the whole delivery to learn it.
    let isCollected: Bool, serializesInAttempt: Bool
    /// The chain the call runs through (the session's, for this call's kind).
    let chain: Chain
    /// The plan the call was made from, kept whole: what the call is, besides its request, is read from it
    /// (one value moved in, rather than each of its parts copied into a field of its own).
    private let source: CallPlan

    /// The retry rules.
    public var rules: AutoRetryConfiguration { source.autoRetryConfiguration }
    /// Whether the request may be sent again once it may have reached the server.
    public var idempotency: Idempotency { source.idempotency }
    /// How a GET uses the session's response cache.
    public var cacheMode: CacheMode { source.cacheMode }
    /// Which responses count as successful.
    public var validation: ResponseValidation { source.validation }
    /// How the call takes part in its origin's protection.
    public var originPolicy: OriginPolicy { source.originPolicy }
    /// Whether and how the call is hedged.
    public var hedging: Hedging? { source.hedging }
    /// The request's modifiers and interceptors of its own, and its logging options.
    var plan: CallParts { source.parts }

    /// The session's row of mutexes: ``state`` is guarded by the one this object's address picks (``lock``).
    private let locks: LockStripes
    /// What happens to the call; read and written under ``lock`` only.
    @exclusivity(unchecked) private nonisolated(unsafe) var state = CallState()

    /// The call of `plan`, whose request was built.
    init(plan: consuming CallPlan, delivery: consuming Delivery, session: Session) {
        (isCollected, serializesInAttempt) = delivery.ways
        self.session = session
        chain = session.chains.chain(for: plan.parts.kind(session: session, rules: plan.autoRetryConfiguration, hedging: plan.hedging, collected: isCollected))
        self.delivery = consume delivery
        source = consume plan
        locks = session.callLocks
        startedAt = session.timeline.now()
    }

    /// When the call began, on its session's timeline.
    let startedAt: Duration

    /// Time since the call began, on its session's clock.
    public var elapsed: Duration { session.timeline.now() - startedAt }

    /// The mutex that guards ``state``.
    private var lock: StripeLock { locks.lock(for: self) }

    /// The request's type name (`GetUser`), or `TransportRequest` for a request value.
    public var requestName: String { TypeNames.name(of: plan.requestType) }

    /// The attempts made so far, oldest first (each with why it was repeated).
    public var attempts: [AttemptRecord] { lock.withLock { state.records } }

    /// The number of the attempt running now, from 1 (0 before the first).
    public var attemptNumber: Int { lock.withLock { state.attempt } }

    /// Where the call stands.
    public var phase: Phase { lock.withLock { state.phase } }

    /// What the session's response cache did for the call.
    public var cacheStatus: CacheStatus { lock.withLock { state.cacheStatus } }

    /// Asks for the attempt running now to be repeated after `delay` (a replay at once, a retry later), for
    /// `reason`: what an interceptor's `.replay` and an error handler's `.retry` do. The attempt loop carries
    /// it out under the call's caps (``Session/Configuration/maxAttempts``, a body that can be sent again);
    /// a call without a loop (no retry rules, no interceptor, no error handler) cannot repeat.
    public func repeatAttempt(reason: String, after delay: Duration = .zero) {
        lock.withLock { state.repeatAsked = (reason, delay) }
    }

    /// Where a call stands: the attempt loop's state machine.
    public enum Phase: Sendable, Equatable {
        /// Made, not yet started.
        case ready
        /// Waiting for the route to its host (a wait for the network), or for its origin (a hold, a place).
        case waiting
        /// Attempt `n` is running.
        case attempting(Int)
        /// Attempt `n` ended and the call waits before the next one (a retry's delay, a replay).
        case repeating(after: Int)
        /// Over: answered, failed or cancelled.
        case finished
    }
}

/// What a call does not share with other threads but its own stages: the records, the phase, the request an
/// attempt sent first, a repeat asked for, what the cache did.
struct CallState {
    var phase = Call.Phase.ready
    var attempt = 0
    var records: [AttemptRecord] = []
    /// The request the running attempt sent on its first hop (after every stage that adapts it).
    var sent: TransportRequest?
    var repeatAsked: (reason: String, delay: Duration)?
    var cacheStatus = CacheStatus.notUsed
    /// The cache's part in the call, once its lookup decided to send the request.
    var cacheStep: CacheStep?
    /// The host's reachability as the origin protection asked it after the last attempt's network failure,
    /// for the retry rules' verdict on the same failure (one question, one answer).
    var routeAnswer: ReachabilityStatus?
    /// The origin the last hop of the last attempt was counted for, the budget the call's retries draw on
    /// there, and whether that hop's failure was charged to it.
    var lastCharge: (origin: String, budget: RetryBudget, charged: Bool)?
}

extension Call {
    /// Starts attempt number `number`: a new sent request and no repeat asked yet.
    func beginAttempt(_ number: Int) {
        lock.withLock {
            state.attempt = number
            state.phase = .attempting(number)
            if number > 1 { state.sent = nil }
            state.repeatAsked = nil
        }
    }

    /// Notes `request` as the running attempt's, unless a hop (a redirect, a hedge) noted one already.
    func noteSent(_ request: TransportRequest) {
        lock.withLock { if state.sent == nil { state.sent = request } }
    }

    /// The request the running attempt sent first (the request as built when it sent none), and the repeat
    /// a stage asked for, taking it.
    func takeAttemptEnd() -> (sent: TransportRequest, repeatAsked: (reason: String, delay: Duration)?) {
        lock.withLock {
            defer { state.repeatAsked = nil }
            return (state.sent ?? request, state.repeatAsked)
        }
    }

    func record(_ record: AttemptRecord) { lock.withLock { state.records.append(record) } }

    func enter(_ phase: Phase) { lock.withLock { state.phase = phase } }

    /// Ends the call (``Phase/finished``), with what its response keeps of it: the request its last attempt
    /// sent first (taken out, not copied: ``lastSent`` is the request as built afterwards), its records
    /// (``recordedAttempts``) and what the cache did.
    func finish() -> (lastSent: TransportRequest, recorded: [AttemptRecord]?, cacheStatus: CacheStatus) {
        lock.withLock {
            state.phase = .finished
            return (state.sent.take() ?? request, state.attempt == 0 ? [] : state.records.isEmpty ? nil : state.records, state.cacheStatus)
        }
    }

    func noteCache(_ status: CacheStatus) { lock.withLock { state.cacheStatus = status } }

    var cacheStep: CacheStep? {
        get { lock.withLock { state.cacheStep } }
        set { lock.withLock { state.cacheStep = newValue } }
    }

    func noteRouteAnswer(_ answer: ReachabilityStatus?) { lock.withLock { state.routeAnswer = answer } }

    /// ``CallState/routeAnswer``, once: it answers for the attempt that just ended only.
    func takeRouteAnswer() -> ReachabilityStatus? {
        lock.withLock {
            defer { state.routeAnswer = nil }
            return state.routeAnswer
        }
    }

    var lastCharge: (origin: String, budget: RetryBudget, charged: Bool)? {
        get { lock.withLock { state.lastCharge } }
        set { lock.withLock { state.lastCharge = newValue } }
    }

    /// The request the last attempt sent first, or the request as built before any attempt (or when the
    /// last sent none).
    var lastSent: TransportRequest { lock.withLock { state.sent ?? request } }

    /// The records as a response keeps them: none for a call that made no attempt (the cache answered it),
    /// `nil` for a call whose one attempt kept none (its record is made when asked).
    var recordedAttempts: [AttemptRecord]? {
        lock.withLock { state.attempt == 0 ? [] : state.records.isEmpty ? nil : state.records }
    }

    /// A call of its own that revalidates a stored response for this one, with `step` (made by the cache
    /// for the stored response): the same request, rules and parts, its answer stored and dropped.
    func revalidation(with step: CacheStep) -> Call {
        let copy = Call(plan: source, delivery: .collected(serializer: nil), session: session)
        copy.cacheStep = step
        return copy
    }

    /// The context interceptors and error handlers see for the running attempt, whose request is `request`.
    func context(for request: TransportRequest) -> RequestContext {
        RequestContext(
            requestType: plan.requestType, attempt: attemptNumber, previousAttempts: attempts,
            modifiers: plan.modifiers + session.configuration.interceptors, requestLogging: plan.requestLogging,
            autoRetryConfiguration: rules, request: request, sessionBaseURL: session.configuration.baseURL)
    }
}
