/// How one attempt of a call ended, as the attempt loop sees it. (What a successful attempt produced —
/// a value, a stream, a file — stays with the caller: the loop is not generic, so that it is compiled once.)
struct Attempt: Sendable {
    enum Outcome: Sendable {
        /// The call is over: it succeeded.
        case done
        /// The attempt failed; the request's retry rules decide what follows.
        case failed(BrickError)
        /// An interceptor (`.replay`), an error handler (`.retry`) or a download (a range that no longer fits)
        /// asks for the request to go again after `delay`; `error` is what the call fails with if it cannot.
        case again(reason: String, delay: Duration, error: BrickError?)
    }

    /// The request as this attempt sent it (adapted by the interceptors).
    var sent: TransportRequest
    /// The response head, when one arrived.
    var head: ResponseHead?
    /// The whole response, for a collected call.
    var response: TransportResponse?
    var outcome: Outcome
}

extension Attempt {
    /// The attempt as observers see its end.
    var end: AttemptEnd {
        let error: BrickError? = switch outcome {
        case .done: nil
        case .failed(let error): error
        case .again(_, _, let error): error
        }
        return AttemptEnd(status: (head ?? response?.head)?.status, error: error)
    }
}

/// What the attempt loop ends a call with.
struct AttemptsOutcome: Sendable {
    /// Why the call failed; `nil` when its last attempt was ``Attempt/Outcome/done``.
    var error: BrickError?
    /// Every attempt, oldest first.
    var records: [AttemptRecord]
    /// The last attempt, if one was made.
    var last: Attempt?

    /// The call as observers see its end.
    var end: CallEnd { CallEnd(status: (last?.head ?? last?.response?.head)?.status, error: error, attempts: records.count) }
}

/// What the attempt loop needs to know of a call: its retry rules and idempotency, and its name for retry
/// events.
struct RepeatPolicy: Sendable {
    let rules: AutoRetryConfiguration
    let idempotency: Idempotency
    let requestType: any Any.Type
    /// How the call takes part in its origin's protection.
    let origin: OriginPolicy
    /// The request's name in retry events: its type.
    var requestName: String { String(describing: requestType) }
}
