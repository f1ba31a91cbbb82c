extension Session {
    /// Sends `request` once through the transport, with no pipeline around it: the transfer behind every
    /// attempt of a collected call.
    ///
    /// Without a cookie jar, the transport's own transfer goes first, and a redirect is followed only once a
    /// 3xx came back (the plain call makes no wrapper); with one, every hop goes through
    /// ``RedirectingTransfer``, which keeps each hop's cookies.
    nonisolated(nonsending) func transfer(_ request: TransportRequest, ownerID: ObjectIdentifier?) async throws(BrickError) -> TransportResponse {
        // One call of `awaitResponse` (it is inlined: each call would take its own room in this step's frame).
        let followsAfter = request.options.followRedirects && configuration.cookies == nil && !takesFullPath
        let first = try await awaitResponse(of: makeTransfer(for: request, following: !followsAfter), route: request.route, ownerID: ownerID)
        guard followsAfter, RedirectRule.isRedirect(first.status) else { return first }
        return try await follow(first, of: request, ownerID: ownerID)
    }

    /// The rest of a call whose first response was a redirect, in a step of its own: the frame of
    /// ``transfer(_:ownerID:)`` stays allocated while every request is on its way, this one only while a
    /// redirect is followed.
    @inline(never)
    private nonisolated(nonsending) func follow(_ first: TransportResponse, of request: TransportRequest, ownerID: ObjectIdentifier?) async throws(BrickError) -> TransportResponse {
        let next: TransportRequest?
        do { next = try RedirectRule.next(after: first.head, of: request, hops: 0) } catch { throw .transport(error) }
        guard let next else { return first }
        let following = RedirectingTransfer(transport: transport, request: next, earlier: [RedirectHop(request: request, head: first.head)])
        return try await awaitResponse(of: following, route: next.route, ownerID: ownerID)
    }

    /// Registers `transfer` (so that cancelling its owner or losing its route ends it) and collects its response.
    private nonisolated(nonsending) func awaitResponse(of transfer: any TransportTransfer, route: RequestRoute, ownerID: ObjectIdentifier?) async throws(BrickError) -> TransportResponse {
        guard let id = registry.add(transfer, owner: ownerID, abortableRoute: route) else { throw .shutDown }
        defer { registry.remove(id) }
        do { return try await transfer.response() } catch { throw .transport(error) }
    }

    /// Starts `request`'s transfer once and returns its events, with no pipeline around it: the transfer
    /// behind a download's attempt.
    func stream(_ request: TransportRequest, ownerID: ObjectIdentifier?) -> ResponseStream {
        ResponseStream { () throws(BrickError) in try self.startStream(request, ownerID: ownerID) }
    }

    /// Streams `plan`'s request through the attempt loop: interceptors adapt it, reachability and the retry
    /// rules apply until the response head arrives. The events up to the head are read ahead and handed on
    /// first, so that nothing reaches the caller from an attempt that failed; after the head, a failure ends
    /// the stream.
    package func stream(_ plan: CallPlan) -> ResponseStream {
        ResponseStream { () async throws(BrickError) in
            let base = try plan.request.get()
            let interceptors = self.interceptors(for: plan)
            var started: (TransportEventStream, Registration)?
            let outcome = await self.runAttempts(plan.repeatPolicy, base: base) { number, previous in
                let context = self.context(for: plan, request: base, attempt: number, previousAttempts: previous)
                let request: TransportRequest
                do throws(BrickError) { request = try await self.adapt(interceptors, context: context) } catch {
                    return Attempt(sent: base, outcome: .failed(error))
                }
                let events: TransportEventStream, registration: Registration
                do throws(BrickError) { (events, registration) = try self.startStream(request, ownerID: plan.owner) } catch {
                    return Attempt(sent: request, outcome: .failed(error))
                }
                do throws(TransportError) {
                    let (stream, head) = try await ReadAheadSource.open(events)
                    started = (stream, registration)
                    return Attempt(sent: request, head: head, outcome: .done)
                } catch {
                    registration.end()
                    return Attempt(sent: request, outcome: .failed(.transport(error)))
                }
            }
            guard let started else { throw outcome.error ?? .transport(.cancelled) }
            return started
        }
    }

    private func startStream(_ request: TransportRequest, ownerID: ObjectIdentifier?) throws(BrickError) -> (TransportEventStream, Registration) {
        let transfer = makeTransfer(for: request)
        guard let id = registry.add(transfer, owner: ownerID, abortableRoute: request.route) else { throw .shutDown }
        return (transfer.events(), Registration(registry: registry, id: id))
    }

    /// The transfer for `request`: one that follows redirects under ``RedirectRule`` when the request's
    /// options say to, else the transport's own (which never follows). The first one starts the session's
    /// watch on routes, before it is registered, so that no change after it is missed.
    private func makeTransfer(for request: TransportRequest, following: Bool = true) -> any TransportTransfer {
        _ = routeWatch.value
        let transport = transport
        // With a cookie jar every transfer goes through RedirectingTransfer (which follows nothing when
        // redirects are off), so that each hop's `Set-Cookie` is kept and each hop gets its own cookies.
        return (following && request.options.followRedirects) || configuration.cookies != nil
            ? RedirectingTransfer(transport: transport, request: request, cookies: configuration.cookies)
            : transport.makeTransfer(for: request)
    }
}
