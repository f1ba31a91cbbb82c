public import Dispatch

extension RequestType where Self: ResponseType {
    /// Sends the request and returns its serialized value.
    ///
    /// Runs in the caller's isolation; Task cancellation cancels the transfer.
    /// - Throws: ``BrickError``: the transport failed, or the response could not be serialized.
    public nonisolated(nonsending) func response() async throws(BrickError) -> SerializedObject {
        let session = self.session  // as ``dataResponse()`` does, without its step in between
        return try await session.run(makePlan(on: session), serializer: responseSerializer).result.get()
    }

    /// Sends the request and returns everything about it: the request sent, the raw response with its
    /// metrics, and the serialized result. Never throws: failures are in ``DataResponse/result``.
    public nonisolated(nonsending) func dataResponse() async -> DataResponse<SerializedObject> {
        let session = self.session
        return await session.run(makePlan(on: session), serializer: responseSerializer)
    }
}

extension RequestType {
    /// Sends the request and streams its events (head, body chunks, end) as they arrive.
    ///
    /// The request goes out when iteration starts, adapted by the session's interceptors; the stream is not
    /// validated or replayed, and the request's retry rules apply until the response head arrives.
    public func stream() -> ResponseStream {
        session.stream(makePlan())
    }
}

extension ResponseType where Self: Component & RequestType {
    /// Prepares the request and the handler that receives its outcome; ``Component/resume()`` sends it.
    ///
    /// - Parameters:
    ///   - queue: Where `handler` runs. Default is the session's ``Session/Configuration/callbackQueue``.
    ///   - handler: Receives the outcome once, also when the request fails or is cancelled.
    /// - Returns: The component, so that `.resume()` can follow.
    @discardableResult
    public func response(
        queue: DispatchQueue? = nil, _ handler: @escaping @Sendable (DataResponse<SerializedObject>) -> Void
    ) -> Self {
        let session = self.session
        let plan = makePlan(on: session)
        let serializer = responseSerializer
        let queue = queue ?? session.configuration.callbackQueue
        pending = PendingDispatch {
            let outcome = await session.run(plan, serializer: serializer)
            queue.async { handler(outcome) }
        }
        return self
    }
}

extension Component {
    /// Sends the request prepared by `response(queue:_:)`. Does nothing if there is none.
    public func resume() {
        guard let pending else { return }
        self.pending = nil
        running = Task { await pending.start() }
    }

    /// Cancels the request: a running one stops at once, a prepared one is never sent; either way the
    /// handler receives a `cancelled` error.
    public func cancel() {
        resume()
        running?.cancel()
    }
}
