import BrickSystem
import FoundationEssentials

extension Session {
    /// Runs `plan` as a collected call through its chain, and makes its value with `serializer`. Never
    /// throws: the outcome is in the result.
    ///
    /// On a session without error handlers the value is made once the call is over (a serializer's failure
    /// is not one the retry rules repeat, so nothing in the chain needs to see it): no value of the
    /// serializer's waits across an await, and the chain is compiled once, not for each `Value`. With error
    /// handlers it is made inside each attempt (``Conclusion``), where they can replace, recover or retry it.
    @_specialize(where Value == Data)
    @_specialize(where Value == String)
    package nonisolated(nonsending) func run<Value>(_ plan: consuming CallPlan, serializer: ResponseSerializer<Value>) async -> DataResponse<Value> {
        guard configuration.errorHandlers.isEmpty else { return await runSerializingInAttempts(plan, serializer: serializer) }
        let call: Call
        do { call = try plan.call(on: self, delivery: .collected(serializer: nil)) } catch { return Self.unmade(error) }
        let outcome = await call.chain.runCall(call, from: 0)
        return Self.response(outcome, of: call, serializer)
    }

    /// The response of a call whose request could not be built: its failure, and nothing sent. Out of line,
    /// so that the async step above holds no value of `Value`'s.
    @inline(never)
    private static func unmade<Value>(_ error: BrickError) -> DataResponse<Value> {
        DataResponse(request: nil, response: nil, result: .failure(error))
    }

    /// A call's response with its body serialized: the call's own failure, or what `serializer` made of it.
    @inline(never)
    private static func response<Value>(_ outcome: consuming ResponseOutcome, of call: Call, _ serializer: ResponseSerializer<Value>) -> DataResponse<Value> {
        let (request, recorded, cacheStatus) = call.finish()
        switch consume outcome {
        case .failure(let error):
            return DataResponse(request: request, response: error.response, result: .failure(error), recorded: recorded, cacheStatus: cacheStatus)
        case .success(let response):
            let result = Result { () throws(BrickError) in try serializer.serialize(response) }
            return DataResponse(request: request, response: response, result: result, recorded: recorded, cacheStatus: cacheStatus)
        }
    }

    /// ``run(_:serializer:)`` on a session with error handlers: the value made inside each attempt.
    @inline(never)
    private nonisolated(nonsending) func runSerializingInAttempts<Value>(_ plan: CallPlan, serializer: ResponseSerializer<Value>) async -> DataResponse<Value> {
        let slot = SerializedValue(serializer)
        let call: Call
        do { call = try plan.call(on: self, delivery: .collected(serializer: slot)) } catch {
            return DataResponse(request: nil, response: nil, result: .failure(error))
        }
        let outcome = await call.chain.runCall(call, from: 0)
        call.enter(.finished)
        let result: Result<Value, BrickError> = switch outcome {
        case .failure(let error): .failure(error)
        case .success: slot.value.map { .success($0) } ?? .failure(.transport(.cancelled))  // not reached: an answer was serialized
        }
        return DataResponse(
            request: call.lastSent, response: outcome.response, result: result, recorded: call.recordedAttempts, cacheStatus: call.cacheStatus)
    }

    /// Streams `plan`'s request through its chain: the attempts go on (under the retry rules) until one's
    /// head arrives; its events, head first, are then the stream's. Nothing reaches the caller from an
    /// attempt that failed; after the head, a failure ends the stream.
    package func stream(_ plan: CallPlan) -> ResponseStream {
        ResponseStream { () async throws(BrickError) in
            let call = try plan.call(on: self, delivery: .streamed)
            let outcome = await call.chain.runCall(call, from: 0)
            call.enter(.finished)
            return try Self.events(of: outcome.get())
        }
    }

    /// The events of a streamed call's answer: the ones its transfer holds, or, for an answer a stage made
    /// itself (an interceptor's, a stored one), its head, body and end.
    static func events(of response: TransportResponse) -> (TransportEventStream, Registration?) {
        if let body = response.streamedBody { return (body.events, body.keeper as? Registration) }
        return (TransportEventStream(source: CollectedEvents(response)), nil)
    }

    /// `plan`'s request as its first attempt would send it: built, then adapted by the session's and the
    /// request's interceptors (for ``RequestType/adaptedRequest()`` and inspection). Nothing is sent.
    nonisolated(nonsending) func firstAttemptRequest(_ plan: CallPlan) async throws(BrickError) -> TransportRequest {
        let call = try plan.call(on: self, delivery: .collected(serializer: nil))
        call.beginAttempt(1)
        let interceptors = Intercepting.interceptors(of: call, session: configuration.interceptors.inRunningOrder())
        var adapted = try await Intercepting.adapt(call.request, interceptors, call.context(for: call.request), call.idempotency)
        configuration.cookies?.attach(to: &adapted)
        return adapted
    }
}

/// A collected call's value, made inside each attempt on a session with error handlers, and kept until the
/// call is over.
final class SerializedValue<Value: Sendable>: AttemptSerializer {
    private let serializer: ResponseSerializer<Value>
    private let made = Locked<Value?>(nil)

    init(_ serializer: ResponseSerializer<Value>) { self.serializer = serializer }

    func serialize(_ response: TransportResponse) throws(BrickError) {
        let value = try serializer.serialize(response)
        made.withLock { $0 = value }
    }

    var value: Value? { made.withLock { $0 } }
}

/// The events of an answer that is already whole: its head, its body, its end.
final class CollectedEvents: TransportEventSource {
    private let remaining: Locked<[TransportEvent]>

    init(_ response: TransportResponse) {
        var events: [TransportEvent] = [.head(response.head)]
        if !response.body.isEmpty { events.append(.body(response.body)) }
        events.append(.end(response.metrics))
        remaining = Locked(events)
    }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    func cancel(because reason: TransportError) { remaining.withLock { $0.removeAll() } }
}
