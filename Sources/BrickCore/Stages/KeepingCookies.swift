/// The session's cookie store (``CookieStore``), on each hop: the store's cookies for the hop's URL go after the caller's own
/// `Cookie` field (which the redirect rules keep only within its origin), and the hop's `Set-Cookie` fields
/// are kept, redirects' too.
struct KeepingCookies: AttemptStage {
    let jar: any CookieStore

    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        var request = request
        jar.attach(to: &request)
        let outcome = await next(request)
        if let head = outcome.head { jar.store(head, from: request.url) }
        return outcome
    }
}
