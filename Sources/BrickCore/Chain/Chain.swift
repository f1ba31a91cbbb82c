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
    /// Whether the attempt concludes itself (``Conclusion/conclude(_:_:_:)``) at the top of its chain, where
    /// the ``Conclusion`` stage would stand: a chain with nothing above the conclusion and no error handlers
    /// leaves the stage out and spares its step.
    let concludesInAttempt: Bool
    /// Where each stage stands in the declared order, for tests and `Session.stageNames(for:)`.
    let order: [StageOrder]
    /// The passing stages at the bottom of the attempt chain (``throughPassing(_:_:from:)``): attempt stages
    /// ``passingFrom``… are ``PassingStage``s, and these are they.
    let passing: [any PassingStage]
    let passingFrom: Int

    init(call: [(StageOrder, any CallStage)], attempt: [(StageOrder, any AttemptStage)], concludesInAttempt: Bool) {
        callStages = call.map(\.1)
        attemptStages = attempt.map(\.1)
        self.concludesInAttempt = concludesInAttempt
        order = call.map(\.0) + (concludesInAttempt ? [.conclusion] : []) + attempt.map(\.0) + [.transport]
        let tail = attempt.reversed().prefix { $0.1 is any PassingStage }
        passingFrom = attempt.count - tail.count
        passing = tail.reversed().compactMap { $0.1 as? any PassingStage }
    }

    /// Runs `call` from call-level stage `index` on; below the last, one attempt (the attempt loop, when in
    /// the chain, runs its own).
    @inline(never)
    nonisolated(nonsending) func runCall(_ call: Call, from index: Int) async -> ResponseOutcome {
        if index < callStages.count { return await callStages[index].run(call, next: CallNext(call: call, index: index + 1)) }
        return await onlyAttempt(call)
    }

    /// The one attempt of a call without the attempt loop: nothing repeats it, so nothing of its end is taken.
    /// Part of the call's last step (``runCall(_:from:)``), not a step of its own.
    @inline(__always)
    nonisolated(nonsending) func onlyAttempt(_ call: Call) async -> ResponseOutcome {
        call.beginAttempt(1)
        let top = AttemptNext(call: call, index: 0)
        return concludesInAttempt ? await Conclusion.conclude(call.request, call, top) : await top(call.request)
    }

    /// Runs attempt number `number` of `call` through the attempt-level stages.
    @inline(never)
    nonisolated(nonsending) func attempt(_ call: Call, number: Int) async -> AttemptResult {
        call.beginAttempt(number)
        let top = AttemptNext(call: call, index: 0)
        let outcome = concludesInAttempt ? await Conclusion.conclude(call.request, call, top) : await top(call.request)
        let (sent, repeatAsked) = call.takeAttemptEnd()
        return AttemptResult(sent: sent, outcome: outcome, repeatAsked: repeatAsked)
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
