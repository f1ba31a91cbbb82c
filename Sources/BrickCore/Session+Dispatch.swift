extension Session {
    /// Sends `request` and collects its whole response.
    ///
    /// - Parameters:
    ///   - request: The request, ready to send.
    ///   - owner: The component the request belongs to, so that ``cancel(_:)`` finds it.
    /// - Throws: ``BrickError/transport(_:)``.
    public func send(_ request: TransportRequest, owner: Component? = nil) async throws(BrickError) -> TransportResponse {
        try await send(request, ownerID: owner.map(ObjectIdentifier.init))
    }

    func send(_ request: TransportRequest, ownerID: ObjectIdentifier?) async throws(BrickError) -> TransportResponse {
        let transfer = makeTransfer(for: request)
        let id = registry.add(transfer, owner: ownerID, abortableURL: request.url)
        defer { registry.remove(id) }
        do { return try await transfer.response() } catch { throw .transport(error) }
    }

    /// Sends `request` and returns its events as they arrive (head, body chunks, end), with back-pressure.
    public func stream(_ request: TransportRequest, owner: Component? = nil) -> ResponseStream {
        stream(request, ownerID: owner.map(ObjectIdentifier.init))
    }

    func stream(_ request: TransportRequest, ownerID: ObjectIdentifier?) -> ResponseStream {
        let (events, registration) = startStream(request, ownerID: ownerID)
        return ResponseStream(events: events, registration: registration)
    }

    /// Streams `plan`'s request once the interceptors have adapted it: one attempt of the attempt loop,
    /// without the retry rules (the caller sees events as they arrive).
    func stream<Value>(_ plan: DispatchPlan<Value>) -> ResponseStream {
        ResponseStream { () async throws(BrickError) in
            let base = try plan.request.get()
            let interceptors = self.interceptors(for: plan)
            var started: (TransportEventStream, Registration)?
            let outcome = await self.runAttempts(plan.repeatPolicy, base: base, retryRules: false) { number, previous in
                let context = self.context(for: plan, request: base, attempt: number, previousAttempts: previous)
                do throws(BrickError) {
                    let request = try await self.adapt(interceptors, context: context)
                    started = self.startStream(request, ownerID: plan.owner)
                    return Attempt(sent: request, outcome: .done)
                } catch {
                    return Attempt(sent: base, outcome: .failed(error))
                }
            }
            guard let started else { throw outcome.error ?? .transport(.cancelled) }
            return started
        }
    }

    private func startStream(_ request: TransportRequest, ownerID: ObjectIdentifier?) -> (TransportEventStream, Registration) {
        let transfer = makeTransfer(for: request)
        let id = registry.add(transfer, owner: ownerID, abortableURL: request.url)
        return (transfer.events(), Registration(registry: registry, id: id))
    }

    /// The transfer for `request`: one that follows redirects under ``RedirectRule`` when the request's
    /// options say to, else the transport's own (which never follows). The first one starts the session's
    /// watch on routes, before it is registered, so that no change after it is missed.
    private func makeTransfer(for request: TransportRequest) -> any TransportTransfer {
        _ = routeWatch.value
        let transport = transport
        return request.options.followRedirects
            ? RedirectingTransfer(transport: transport, request: request) : transport.makeTransfer(for: request)
    }
}
