extension RequestType {
    /// Sends the request and yields its `text/event-stream` body as parsed events, reconnecting as its
    /// retry rules allow (``ServerSentEvents``): a request whose rules allow no retry (`NonAutoRetryType`,
    /// the default) or that must not be sent twice (a POST without an idempotency key) is never reopened.
    ///
    /// - Parameter maxEventSize: The longest line or event data accepted, in bytes. Default is 1 MiB.
    public func serverSentEvents(maxEventSize: Int = 1 << 20) -> ServerSentEvents {
        ServerSentEvents(plan: makePlan(), session: session, maxEventSize: maxEventSize)
    }
}

extension Session {
    /// Sends `request` through the session's pipeline (as `Session.stream(_:retry:idempotency:owner:)`) and yields
    /// its `text/event-stream` body as parsed events, reconnecting under `retry` (``ServerSentEvents``).
    ///
    /// - Parameters:
    ///   - request: The request; `Accept: text/event-stream` is added unless it names another type.
    ///   - retry: The retry rules, for opening each connection and for reconnecting. Default is
    ///     `AutoRetryConfiguration.soft`.
    ///   - maxEventSize: The longest line or event data accepted, in bytes. Default is 1 MiB.
    public func serverSentEvents(
        _ request: TransportRequest, retry: AutoRetryConfiguration = .soft, maxEventSize: Int = 1 << 20
    ) -> ServerSentEvents {
        ServerSentEvents(plan: plan(for: request, retry: retry, idempotency: .byMethod, validation: .none, owner: nil),
                         session: self, maxEventSize: maxEventSize)
    }
}

extension ResponseStream {
    /// This stream's body as server-sent events, on its one connection (nothing reopens it).
    public func serverSentEvents(maxEventSize: Int = 1 << 20) -> ServerSentEvents {
        let stream = self
        return ServerSentEvents(connect: { _ in stream }, reconnection: nil, maxEventSize: maxEventSize)
    }
}

extension ServerSentEvents {
    /// Events of `plan`'s request, sent with `Accept: text/event-stream` (unless it names another), each
    /// reconnection with `Last-Event-ID`; reconnecting only when the request may be sent twice.
    init(plan: CallPlan, session: Session, maxEventSize: Int) {
        let accepting = plan.withHeaders { if $0["Accept"] == nil { $0["Accept"] = "text/event-stream" } }
        let repeatable = (try? plan.request.get())?.mayBeSentTwice ?? false
        self.init(
            connect: { lastEventID in
                session.stream(lastEventID.map { id in accepting.withHeaders { $0["Last-Event-ID"] = id } } ?? accepting)
            },
            reconnection: repeatable ? Reconnection(rules: plan.autoRetryConfiguration, clock: session.configuration.clock) : nil,
            maxEventSize: maxEventSize)
    }
}
