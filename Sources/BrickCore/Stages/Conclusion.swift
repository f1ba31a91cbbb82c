/// What an attempt's answer becomes, around everything below it in the attempt: a collected answer is
/// validated (and, on a session with error handlers, serialized here, so that they see a failure of either);
/// a download's answer is written to its file; a streamed answer is handed on as it is (streams are not
/// validated). On a failure the session's `ErrorHandler`s decide, in order, the first that handles it.
struct Conclusion: AttemptStage {
    let errorHandlers: [any ErrorHandler]

    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        let outcome = await Self.conclude(request, call, next)
        guard case .failure(let error) = outcome, !error.isCancelled, !errorHandlers.isEmpty else { return outcome }
        return await handled(error, outcome, request, call)
    }

    /// `request` sent through `next`, and its answer concluded as `call`'s delivery asks: also what an attempt
    /// does itself when its chain leaves this stage out (``Chain/concludesInAttempt``).
    @inline(__always)
    static func conclude(_ request: TransportRequest, _ call: Call, _ next: AttemptNext) async -> ResponseOutcome {
        if call.isCollected { return concluded(await next(request), call) }
        switch call.delivery {
        case .collected: return concluded(await next(request), call)
        case .streamed: return await next(request)
        case .download(let sink): return await sink.receive(await next(sink.prepared(request)), call)
        }
    }

    /// A collected answer validated as `call` asks and, when it serializes inside each attempt, serialized.
    @inline(never)
    static func concluded(_ outcome: consuming ResponseOutcome, _ call: Call) -> ResponseOutcome {
        switch consume outcome {
        case .failure(let error): return .failure(error)
        case .success(let response):
            do { try call.validation.validate(response) } catch { return .failure(.validation(error, response: response)) }
            if call.serializesInAttempt, case .collected(let serializer?) = call.delivery {
                do throws(BrickError) { try serializer.serialize(response) } catch { return .failure(error) }
            }
            return .success(response)
        }
    }

    /// What the error handlers make of `error`: a replacement, a recovery (serialized as if it had arrived),
    /// or a retry the attempt loop carries out.
    @inline(never)
    private nonisolated(nonsending) func handled(_ error: BrickError, _ outcome: ResponseOutcome, _ request: TransportRequest, _ call: Call) async -> ResponseOutcome {
        let context = call.context(for: request)
        switch await CompositeErrorHandler(errorHandlers).handle(error, context: context) {
        case .unhandled: return outcome
        case .fail(let replacement): return .failure(replacement)
        case .recover(let response):
            guard case .collected(let serializer) = call.delivery else { return .success(response) }
            if let serializer {
                do throws(BrickError) { try serializer.serialize(response) } catch { return .failure(error) }
            }
            return .success(response)
        case .retry(let delay, let reason):
            call.repeatAttempt(reason: reason, after: delay)
            return outcome
        }
    }
}
