import BrickTransport

extension Session {
    /// The chain's last step: `request` sent once through the transport, registered with the session (so
    /// that cancelling its owner, shutting the session down or losing the route ends it), and the call named
    /// in what comes back. A collected call's transfer collects the body; a streamed one's is read up to its
    /// head, and the rest rides in the response (``TransportResponse/streamedBody``) until someone reads it.
    ///
    /// Whether the request may reach the server twice (the transport never sends it again by itself when it
    /// may not) is decided here, from the request as it is sent.
    @inline(never)
    nonisolated(nonsending) func exchange(_ request: TransportRequest, _ call: Call) async -> ResponseOutcome {
        let mayBeSentTwice = call.idempotency.allowsRepeat(of: request)
        if request.mayBeSentTwice != mayBeSentTwice { return await exchange(Self.marked(request, mayBeSentTwice), call) }
        call.noteSent(request)
        _ = routeWatch.value  // the watch that ends transfers whose route goes runs from before the first
        let transfer = transport.makeTransfer(for: request)
        guard let id = registry.add(transfer, owner: call.plan.owner, abortableRoute: request.route) else { return .failure(.shutDown) }
        if call.isCollected {
            defer { registry.remove(id) }
            do { return Self.named(try await transfer.response(), request) } catch { return Self.named(.transport(error), request) }
        }
        return await streamToHead(transfer, Registration(registry: registry, id: id), request)
    }

    /// `request`, marked as one that may or may not reach the server twice (out of line: most requests are
    /// already marked as their idempotency has it, and go on without a copy).
    @inline(never)
    static func marked(_ request: TransportRequest, _ mayBeSentTwice: Bool) -> TransportRequest {
        var request = request
        request.mayBeSentTwice = mayBeSentTwice
        return request
    }

    /// A streamed transfer read up to its head: a response holding the head and the rest of the events.
    @inline(never)
    private nonisolated(nonsending) func streamToHead(
        _ transfer: any TransportTransfer, _ registration: Registration, _ request: TransportRequest
    ) async -> ResponseOutcome {
        do throws(TransportError) {
            let (events, head) = try await ReadAheadSource.open(transfer.events())
            guard let head else {
                registration.end()
                return Self.named(.transport(TransportError(.invalidResponse, message: "the transfer ended without a response head")), request)
            }
            var response = TransportResponse(head: head, streaming: StreamedBody(events: events, keeper: registration))
            response.call = CallLine(request)
            return .success(response)
        } catch {
            registration.end()
            return Self.named(.transport(error), request)
        }
    }

    /// `response` with the call that answered it: out of line, so that its values take no room in the frames
    /// of the async steps (which stay allocated while a request is on its way).
    @inline(never)
    static func named(_ response: consuming TransportResponse, _ request: TransportRequest) -> ResponseOutcome {
        response.call = CallLine(request)
        return .success(response)
    }

    /// `error`, named by the call that failed (out of line, as the response is above).
    @inline(never)
    static func named(_ error: BrickError, _ request: TransportRequest) -> ResponseOutcome {
        .failure(error.naming(CallLine(request)))
    }
}
