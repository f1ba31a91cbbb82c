/// One chain of stages: the call-level ones around the whole call, then the attempt-level ones around each
/// attempt, in ``StageOrder``; the transport under the last. A session builds one for each ``ChainKind`` once,
/// from its configuration (``SessionChains``); a call runs the one its kind picks.
///
/// Every step is its own small async function, never inlined into another: an async function's frame holds
/// the values of everything inlined into it, and each frame of the chain stays allocated while the request is
/// on its way.
final class Chain: Sendable {
    let callStages: [any CallStage]
    let attemptStages: [any AttemptStage]
    /// Where each stage stands in the declared order, for tests and `Session.stageNames(for:)`.
    let order: [StageOrder]

    init(call: [(StageOrder, any CallStage)], attempt: [(StageOrder, any AttemptStage)]) {
        callStages = call.map(\.1)
        attemptStages = attempt.map(\.1)
        order = call.map(\.0) + attempt.map(\.0) + [.transport]
    }

    /// Runs `call` from call-level stage `index` on; below the last, one attempt (the attempt loop, when in
    /// the chain, runs its own).
    @inline(never)
    func runCall(_ call: Call, from index: Int) async -> ResponseOutcome {
        if index < callStages.count { return await callStages[index].run(call, next: CallNext(call: call, index: index + 1)) }
        return await attempt(call, number: 1).outcome
    }

    /// Runs attempt number `number` of `call` through the attempt-level stages.
    @inline(never)
    func attempt(_ call: Call, number: Int) async -> AttemptResult {
        call.beginAttempt(number)
        let outcome = await send(call.request, call, from: 0)
        let (sent, repeatAsked) = call.takeAttemptEnd()
        return AttemptResult(sent: sent, outcome: outcome, repeatAsked: repeatAsked)
    }

    /// Sends `request` through the attempt-level stages from `index` on, then the transport.
    @inline(never)
    func send(_ request: TransportRequest, _ call: Call, from index: Int) async -> ResponseOutcome {
        if index < attemptStages.count {
            return await attemptStages[index].send(request, call, next: AttemptNext(call: call, index: index + 1))
        }
        return await call.session.exchange(request, call)
    }
}

/// How one attempt ended, as the attempt loop sees it: the request it sent first, its outcome, and a repeat a
/// stage asked for (an interceptor's replay, an error handler's retry, a download's restart).
struct AttemptResult: Sendable {
    let sent: TransportRequest
    let outcome: ResponseOutcome
    let repeatAsked: (reason: String, delay: Duration)?

    /// The response head, when one arrived (also one a failure keeps).
    var head: ResponseHead? { outcome.head }
}

/// The chains of a session, one for each ``ChainKind``, built once from its configuration.
final class SessionChains: Sendable {
    private let chains: [Chain]

    init(_ build: (ChainKind) -> Chain) {
        chains = (0..<ChainKind.count).map { build(ChainKind(rawValue: $0)) }
    }

    func chain(for kind: ChainKind) -> Chain { chains[kind.rawValue] }
}
