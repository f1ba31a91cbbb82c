/// A collected call hedged (``Hedging``): the first request now, another after each delay without a
/// response while the origin's retry budget allows it; the first response (any status) wins and the others
/// are cancelled. When every request fails, the last failure is the attempt's.
///
/// Only a request that may go twice as it is sent (judged after the interceptors: one they turned into a
/// POST may not) and whose body can be sent again (a streamed body cannot) is hedged; any other is sent
/// once, as if unhedged.
struct HedgingRequests: AttemptStage {
    /// What a hedged attempt's tasks report.
    private enum HedgeEvent: Sendable {
        case answered(ResponseOutcome)
        case delayPassed
        /// The delay's sleep was cancelled: the attempt is over.
        case timerCancelled
    }

    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        guard let hedging = call.hedging, call.idempotency.allowsRepeat(of: request), request.body?.isReplayable ?? true else {
            return await next(request)
        }
        return await hedged(request, call, hedging, next)
    }

    @inline(never)
    private nonisolated(nonsending) func hedged(_ request: TransportRequest, _ call: Call, _ hedging: Hedging, _ next: AttemptNext) async -> ResponseOutcome {
        let clock = call.session.configuration.clock, delay = hedging.delay
        return await withTaskGroup(of: HedgeEvent.self) { group in
            group.addTask { .answered(await next(request)) }
            group.addTask { (try? await clock.sleep(for: delay)) == nil ? .timerCancelled : .delayPassed }
            var running = 1, hedges = 0
            var last: ResponseOutcome = .failure(.transport(.cancelled))
            while let event = await group.next() {
                switch event {
                case .answered(let outcome) where outcome.response != nil:
                    group.cancelAll()
                    return outcome
                case .answered(let outcome):
                    running -= 1
                    last = outcome
                    if running == 0 {
                        group.cancelAll()
                        return last
                    }
                case .timerCancelled: continue
                case .delayPassed:
                    guard hedges < hedging.maxExtraAttempts, hedgeAllowed(request, call) else { continue }
                    hedges += 1
                    running += 1
                    call.session.notify(.hedging(request: call.requestName, hedge: hedges))
                    group.addTask { .answered(await next(request)) }
                    if hedges < hedging.maxExtraAttempts {
                        group.addTask { (try? await clock.sleep(for: delay)) == nil ? .timerCancelled : .delayPassed }
                    }
                }
            }
            return last
        }
    }

    /// Whether a hedge of `request` may go: its origin's retry budget (when the call draws on one) holds more
    /// than half its tokens.
    private func hedgeAllowed(_ request: TransportRequest, _ call: Call) -> Bool {
        guard let origins = call.session.origins, let budget = origins.settings.retryBudget, call.originPolicy.usesRetryBudget else { return true }
        return origins.update(call.session.originName(of: request.url)) { origin, _ in origin.allowsRetry(budget) }
    }
}
