/// A built-in attempt stage whose usual hop is a look going down and a look coming up, with nothing done
/// (the redirects, when the answer is not one; origin protection, when nothing holds the origin and its
/// answer counts for nothing). The chain runs the passing stages at its bottom side by side instead of one
/// inside the other (``Chain/throughPassing(_:_:from:)``): one step for all of them and the transport, where
/// nested they would each be an async frame that stays allocated while the request is on its way.
///
/// Its `send` must be what the three parts make of it (``sendPassing(_:_:next:)``, which its conformers'
/// `send` calls), so that a chain that nests it and one that runs it side by side do the same. It is a class,
/// so that the chain holds it as one reference rather than copying a boxed value at every look.
protocol PassingStage: AttemptStage, AnyObject {
    /// Whether the stage has nothing to do before the hop: the request goes down as it is, and nothing is
    /// waited for.
    func passesDown(_ request: TransportRequest, _ call: Call) -> Bool
    /// Whether the outcome of a hop that passed down, whose arrived status is `status` (`nil` for a failure,
    /// ``Swift/Result/arrivedStatus``), leaves the stage nothing to do. The chain reads the status once for
    /// all the passing stages, not once each.
    func passesUp(_ status: Int?, _ request: TransportRequest, _ call: Call) -> Bool
    /// What the stage does with an `outcome` that does not pass up; `next` sends a request through the
    /// stages below it again (a redirect's next hop).
    nonisolated(nonsending) func finish(_ outcome: ResponseOutcome, _ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome
    /// The hop when it does not pass down: the stage's own way through it.
    nonisolated(nonsending) func sendInFull(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome
}

extension PassingStage {
    /// The hop as the parts make it: in full when it does not pass down; else sent on, then finished unless
    /// its outcome passes up.
    @inline(__always)
    nonisolated(nonsending) func sendPassing(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        guard passesDown(request, call) else { return await sendInFull(request, call, next: next) }
        let outcome = await next(request)
        return passesUp(outcome.arrivedStatus, request, call) ? outcome : await finish(outcome, request, call, next: next)
    }
}

extension Chain {
    /// Sends `request` through attempt stages `index…`, all passing ones, and the transport, in one step:
    /// down through those that pass down, to the first that does not (it takes the hop in full, with the
    /// stages below it nested as usual) or to the transport; then up through the same stages, each
    /// finishing an outcome that does not pass it. Part of the step that goes on to it (the attempt's top, the
    /// stage above), not a step of its own: its values are a few words.
    @inline(__always)
    nonisolated(nonsending) func throughPassing(_ request: TransportRequest, _ call: Call, from index: Int) async -> ResponseOutcome {
        let passing = passing, first = index - passingFrom
        var below = first
        while below < passing.count, passing[below].passesDown(request, call) { below += 1 }
        var outcome = below < passing.count
            ? await passing[below].sendInFull(request, call, next: AttemptNext(call: call, index: passingFrom + below + 1))
            : await call.session.exchange(request, call)
        var stage = below - 1, status = outcome.arrivedStatus
        while stage >= first {
            if !passing[stage].passesUp(status, request, call) {
                outcome = await passing[stage].finish(outcome, request, call, next: AttemptNext(call: call, index: passingFrom + stage + 1))
                status = outcome.arrivedStatus
            }
            stage -= 1
        }
        return outcome
    }
}
