/// The session's and the request's `Interceptor`s around the rest of the attempt: in priority order each
/// adapts the request going down (the highest first) and processes the outcome coming up (the highest last);
/// a `.replay` asks the attempt loop for the attempt again. Whether the request may go twice is decided
/// afresh from the request as adapted (an interceptor that turns a GET into a POST makes it one that may not).
struct Intercepting: AttemptStage {
    /// The session's interceptors, in running order.
    let sessionInterceptors: [any Interceptor]

    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        let interceptors = Self.interceptors(of: call, session: sessionInterceptors)
        var context = call.context(for: request)
        let adapted: TransportRequest
        do throws(BrickError) { adapted = try await Self.adapt(request, interceptors, context, call.idempotency) } catch { return .failure(error) }
        context.request = adapted
        var outcome = await next(adapted)
        for interceptor in interceptors.reversed() {
            switch await interceptor.process(outcome, context: context) {
            case .proceed(let next): outcome = next
            case .replay(let reason):
                outcome.response?.streamedBody?.cancel()
                call.repeatAttempt(reason: reason)
                return outcome
            }
        }
        return outcome
    }

    /// The session's and `call`'s interceptors, in running order.
    static func interceptors(of call: Call, session: [any Interceptor]) -> [any Interceptor] {
        call.plan.interceptors.isEmpty ? session : (session + call.plan.interceptors).inRunningOrder()
    }

    /// `request` adapted by `interceptors`, in order, and judged afresh for whether it may go twice.
    static func adapt(
        _ request: TransportRequest, _ interceptors: [any Interceptor], _ context: RequestContext, _ idempotency: Idempotency
    ) async throws(BrickError) -> TransportRequest {
        var adapted = request
        do {
            for interceptor in interceptors { try await interceptor.adapt(&adapted, context: context) }
        } catch let error as BrickError {
            throw error
        } catch {
            throw .interceptor(error)
        }
        adapted.mayBeSentTwice = idempotency.allowsRepeat(of: adapted)
        return adapted
    }
}
