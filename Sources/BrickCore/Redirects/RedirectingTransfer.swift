import BrickSystem
import BrickTransport

/// A transfer that follows redirects by ``RedirectRule``: each hop is a transfer of its own on the
/// transport, built by the rule (fields filtered by origin, method rewritten, downgrades refused), so
/// the transport itself never follows one. Collected and streamed alike; cancelling it cancels the hop
/// in flight. With a cookie jar, each hop's `Set-Cookie` fields are kept, and each hop after the first
/// carries the jar's cookies for its own URL (the first got them with the session's other adaptations).
final class RedirectingTransfer: TransportTransfer, TransportEventSource {
    private struct State {
        /// Why the transfer was cancelled, once it was.
        var cancelReason: TransportError?
        /// The hop in flight.
        var current: (any TransportTransfer)?
        /// The hop being streamed, once its head was found not to redirect.
        var events: TransportEventStream?
        /// Events of that hop read ahead while looking for its head, to hand out first.
        var pending: [TransportEvent] = []
        var hops = 0
        var url = ""
    }

    private let transport: any Transport
    private let first: TransportRequest
    private let cookies: CookieJar?
    /// The caller's own `Cookie` field, without the jar's cookies the session added after it: what a hop
    /// within the first hop's origin carries again, before the jar's cookies for that hop's URL.
    private let callerCookie: String?
    private let state = Locked(State())

    /// Redirects already followed before `request` (whose transfer the session made itself).
    private let earlier: [RedirectHop]
    private var hopsBefore: Int { earlier.count }

    /// A transfer of `request`, which comes after the redirects in `earlier`.
    init(transport: any Transport, request: TransportRequest, cookies: CookieJar? = nil, earlier: [RedirectHop] = []) {
        self.transport = transport
        self.first = request
        self.cookies = cookies
        self.earlier = earlier
        callerCookie = cookies.flatMap { jar in request.headers["Cookie"].flatMap { jar.callersPart(of: $0, for: request.url) } }
    }

    func response() async throws(TransportError) -> TransportResponse {
        var request = first
        var followed = earlier
        while true {
            var response = try await begin(request, hop: followed.count).response()
            cookies?.store(response.head, from: request.url)
            guard let next = try RedirectRule.next(after: response.head, of: request, hops: followed.count) else {
                if !followed.isEmpty {
                    response.metrics.markRedirected(hops: followed.count, to: request.url)
                    response.redirects = followed
                }
                return response
            }
            followed.append(RedirectHop(request: request, head: response.head))
            request = next
        }
    }

    func events() -> TransportEventStream { TransportEventStream(source: self) }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        if state.withLock({ $0.events == nil }) { try await followToFinalHead() }
        let (early, events) = state.withLock { state in
            state.pending.isEmpty ? (nil, state.events) : (state.pending.removeFirst(), state.events)
        }
        if let early { return early }
        guard let events else { throw state.withLock { $0.cancelReason } ?? .cancelled }
        let event = try await events.nextEvent()
        guard case .end(var metrics)? = event else { return event }
        let (hops, url) = state.withLock { ($0.hops, $0.url) }
        if hops > 0 { metrics.markRedirected(hops: hops, to: url) }
        return .end(metrics)
    }

    func cancel(because reason: TransportError) {
        let current = state.withLock { state in
            if state.cancelReason == nil { state.cancelReason = reason }
            return state.current
        }
        current?.cancel(because: reason)
    }

    /// Starts `request` as the hop in flight, unless the transfer was cancelled.
    private func begin(_ request: TransportRequest, hop: Int) throws(TransportError) -> any TransportTransfer {
        var request = request
        if hop > 0, let cookies {
            // The rule kept the caller's fields within the first hop's origin and dropped them beyond it: where
            // it kept them, the caller's own cookies go again; the jar's are this URL's own.
            request.headers["Cookie"] = request.headers["Cookie"] == nil ? nil : callerCookie
            cookies.attach(to: &request)
        }
        let transfer = transport.makeTransfer(for: request)
        let cancelReason = state.withLock { state in
            state.current = transfer
            return state.cancelReason
        }
        if let cancelReason { throw cancelReason }
        return transfer
    }

    /// Streams hops until one's head is not a redirect: that hop's events become the stream's, with the
    /// events read before its head kept to hand out first.
    private func followToFinalHead() async throws(TransportError) {
        var request = first
        var hops = hopsBefore
        while true {
            let events = try begin(request, hop: hops).events()
            var early: [TransportEvent] = []
            var head: ResponseHead?
            while head == nil {
                guard let event = try await events.nextEvent() else { break }
                early.append(event)
                if case .head(let received) = event { head = received }
            }
            if let head { cookies?.store(head, from: request.url) }
            if let head, let next = try RedirectRule.next(after: head, of: request, hops: hops) {
                events.cancel()
                request = next
                hops += 1
                continue
            }
            let url = request.url
            state.withLock { state in
                state.events = events
                state.pending = early
                state.hops = hops
                state.url = url
            }
            return
        }
    }
}

extension TransferMetrics {
    /// Records that the response came after `hops` redirects, from `url`.
    mutating func markRedirected(hops: Int, to url: String) {
        redirectCount = hops
        effectiveURL = url
    }
}
