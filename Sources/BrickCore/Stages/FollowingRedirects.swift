/// Redirects followed under `RedirectRule`: each hop goes through the stages below (cookies, origin
/// protection, transport) as a request of its own, so that each hop's origin answers for its own head. A
/// hop's streamed body is ended when it redirects. The answer that ends it carries every hop
/// (``TransportResponse/redirects``) and the metrics say how many there were.
final class FollowingRedirects: PassingStage {
    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        await sendPassing(request, call, next: next)
    }

    /// Every hop goes down as it is: the redirects act on what comes up.
    func passesDown(_ request: TransportRequest, _ call: Call) -> Bool { true }

    func passesUp(_ status: Int?, _ request: TransportRequest, _ call: Call) -> Bool {
        guard let status, request.options.followRedirects else { return true }
        return !RedirectRule.isRedirect(status)
    }

    nonisolated(nonsending) func sendInFull(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        await next(request)
    }

    /// The hops after `first`, a redirect: out of line, so that the frame of a call that is not redirected
    /// holds none of their values.
    @inline(never)
    nonisolated(nonsending) func finish(_ first: ResponseOutcome, _ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        var response: TransportResponse
        switch first {
        case .failure(let error): return .failure(error)
        case .success(let arrived): response = arrived
        }
        var current = request
        var hops: [RedirectHop] = []
        while true {
            let following: TransportRequest?
            do throws(TransportError) {
                following = try RedirectRule.next(after: response.head, of: current, hops: hops.count)
            } catch {
                response.streamedBody?.cancel()
                return .failure(BrickError.transport(error).naming(CallLine(current)))
            }
            guard let following else { break }
            response.streamedBody?.cancel()
            hops.append(RedirectHop(request: current, head: response.head))
            current = following
            switch await next(current) {
            case .failure(let error): return .failure(error)
            case .success(let answer): response = answer
            }
            guard RedirectRule.isRedirect(response.status) else { break }
        }
        if !hops.isEmpty {
            response.metrics.markRedirected(hops: hops.count, to: current.url)
            response.redirects = hops
            if let body = response.streamedBody {
                // A streamed answer's metrics come with its end event: they say so too.
                let source = RedirectedEnd(body.events, hops: hops.count, url: current.url)
                response.streamedBody = StreamedBody(events: TransportEventStream(source: source), keeper: body.keeper)
            }
        }
        return .success(response)
    }
}

extension TransferMetrics {
    /// Records that the response came after `hops` redirects, from `url`.
    mutating func markRedirected(hops: Int, to url: String) {
        redirectCount = hops
        effectiveURL = url
    }
}

/// A redirected stream's events, its end's metrics marked with the redirects followed before it.
final class RedirectedEnd: TransportEventSource {
    private let events: TransportEventStream
    private let hops: Int
    private let url: String

    init(_ events: TransportEventStream, hops: Int, url: String) {
        self.events = events
        self.hops = hops
        self.url = url
    }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        let event = try await events.nextEvent()
        guard case .end(var metrics)? = event else { return event }
        metrics.markRedirected(hops: hops, to: url)
        return .end(metrics)
    }

    func cancel(because reason: TransportError) { events.cancel(because: reason) }
}
