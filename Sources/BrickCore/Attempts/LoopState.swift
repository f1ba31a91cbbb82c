/// What the attempt loop keeps between its awaits: the retry rules' state, the attempts so far, the last one,
/// what the last verdict asks for before the next attempt, and the clock that measures what each attempt
/// waited before it went.
struct LoopState {
    var retry: RetryState?
    var records: [AttemptRecord] = []
    var last: Attempt?
    /// What the last attempt's verdict asks for before the next one.
    var pending: RetryDecision.Verdict?
    /// The session's clock since the call began (the retry rules' own), or since the first repeat was asked
    /// for: what each attempt waited before it went.
    var watch: Stopwatch?
    var lastEnd: Duration = .zero
    var waitedBefore: Duration = .zero
    /// The call's origin in the session's ``OriginTable``, once it draws on it or is held back by it.
    var origin: OriginTicket?
    /// The host's reachability as the last attempt's count for its origin asked it, for the retry rules'
    /// verdict on the same failure (one question, one answer).
    var routeAnswer: ReachabilityStatus?

    /// ``routeAnswer``, once: it answers for the attempt that just ended only.
    mutating func takeRouteAnswer() -> ReachabilityStatus? {
        defer { routeAnswer = nil }
        return routeAnswer
    }

    init(retry: RetryState?, origin: OriginTicket? = nil) {
        self.retry = retry
        self.origin = origin
        watch = retry?.stopwatch
    }

    mutating func noteAttemptStart() {
        waitedBefore = watch.map { max(.zero, $0.elapsed - lastEnd) } ?? .zero
    }

    /// Records `this` attempt, ended with `error`; when it is to be repeated (`repeatReason`), starts the
    /// clock of waits if none runs yet, and notes when this attempt ended.
    mutating func record(
        _ this: Attempt, error: BrickError?, repeatReason: String? = nil, retryNotTaken: String? = nil, clock: any Clock<Duration> = ContinuousClock()
    ) {
        records.append(AttemptRecord(
            request: this.sent, head: this.head, error: error, repeatReason: repeatReason, waitedBefore: waitedBefore,
            retryNotTaken: retryNotTaken))
        guard repeatReason != nil else { return }
        if watch == nil { watch = Stopwatch(clock) }
        lastEnd = watch?.elapsed ?? .zero
    }

    func end(_ error: BrickError?) -> AttemptsOutcome { AttemptsOutcome(error: error, records: records, last: last) }
}
