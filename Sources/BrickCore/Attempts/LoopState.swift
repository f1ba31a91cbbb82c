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

    init(retry: RetryState?) {
        self.retry = retry
        watch = retry?.stopwatch
    }

    mutating func noteAttemptStart() {
        waitedBefore = watch.map { max(.zero, $0.elapsed - lastEnd) } ?? .zero
    }

    /// Records `this` attempt, ended with `error`; when it is to be repeated (`repeatReason`), starts the
    /// clock of waits if none runs yet, and notes when this attempt ended.
    mutating func record(_ this: Attempt, error: BrickError?, repeatReason: String? = nil, clock: any Clock<Duration> = ContinuousClock()) {
        records.append(AttemptRecord(request: this.sent, head: this.head, error: error, repeatReason: repeatReason, waitedBefore: waitedBefore))
        guard repeatReason != nil else { return }
        if watch == nil { watch = Stopwatch(clock) }
        lastEnd = watch?.elapsed ?? .zero
    }

    func end(_ error: BrickError?) -> AttemptsOutcome { AttemptsOutcome(error: error, records: records, last: last) }
}
