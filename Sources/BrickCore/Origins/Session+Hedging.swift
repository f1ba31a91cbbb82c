extension Session {
    /// What a hedged attempt's tasks report.
    private enum HedgeEvent: Sendable {
        case answered(ResponseOutcome)
        case delayPassed
        /// The delay's sleep was cancelled: the attempt is over.
        case timerCancelled
    }

    /// Sends `request` as one hedged attempt (``Hedging``): the first transfer now, another after each
    /// delay without a response while the origin's retry budget allows it; the first response (any status)
    /// wins and the others are cancelled. When every transfer fails, the last failure is the attempt's.
    @inline(never)
    nonisolated(nonsending) func hedgedOutcome(_ request: TransportRequest, _ plan: CallPlan, _ hedging: Hedging) async -> ResponseOutcome {
        let owner = plan.owner, clock = configuration.clock, delay = hedging.delay
        return await withTaskGroup(of: HedgeEvent.self) { group in
            group.addTask { .answered(await self.sendOutcome(request, owner: owner)) }
            group.addTask { (try? await clock.sleep(for: delay)) == nil ? .timerCancelled : .delayPassed }
            var running = 1, hedges = 0
            var last: ResponseOutcome = .failure(.transport(.cancelled))
            while let event = await group.next() {
                switch event {
                case .answered(let outcome) where outcome.response != nil || outcome.error?.response != nil:
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
                    guard hedges < hedging.maxExtraAttempts, hedgeAllowed(request, plan) else { continue }
                    hedges += 1
                    running += 1
                    notify(.hedging(request: String(describing: plan.requestType), hedge: hedges))
                    group.addTask { .answered(await self.sendOutcome(request, owner: owner)) }
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
    private func hedgeAllowed(_ request: TransportRequest, _ plan: CallPlan) -> Bool {
        guard let origins, let budget = origins.settings.retryBudget, plan.originPolicy.usesRetryBudget else { return true }
        return origins.update(OriginTicket.origin(of: request.url)) { origin, _ in origin.allowsRetry(budget) }
    }
}
