/// How the session follows a redirect: one pure function from the request just sent and the 3xx head
/// that answered it to the next request, or to none (the 3xx is the response).
///
/// The rules (RFC 9110 §15.4, and what careful clients do on top):
/// - `301`, `302`, `303`, `307` and `308` with a `Location` are followed while
///   `TransportOptions.followRedirects` is on, at most `TransportOptions.maxRedirects` times
///   (then `tooManyRedirects`).
/// - `303` turns any method but HEAD into a GET without a body; `301` and `302` turn a POST into one.
///   `307` and `308` keep the method and the body (a body that cannot be sent twice is not followed), and
///   send it on a new connection: the server that redirected may have left the first body unread.
/// - Only http and https are followed (`redirectRefused` otherwise), and never from https to http.
/// - To another origin (scheme, host or port), only a safe request (GET, HEAD, OPTIONS, TRACE) follows:
///   the session does not send an unsafe method where its caller did not address it. It carries only the
///   fields in ``crossOriginFields``: credentials, cookies, API keys and every other field stay behind.
package enum RedirectRule {
    /// The statuses that redirect.
    package static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether `status` is one of ``redirectStatuses`` (asked of every response: no hashing).
    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// Fields that go with a request to another origin; every other field is dropped there.
    package static let crossOriginFields: Set<String> = [
        "accept", "accept-encoding", "accept-language", "user-agent", "cache-control", "pragma",
    ]

    /// Fields that describe a body, dropped with it when a redirect turns the request into a GET.
    static let bodyFields: Set<String> = [
        "content-type", "content-encoding", "content-language", "content-location", "content-md5", "digest",
    ]

    /// The request that follows `head`, the answer to `request` after `hops` redirects; `nil` when `head`
    /// is the response (not a redirect, following is off, or the redirect is one the rules do not follow).
    ///
    /// - Throws: `TransportError` of kind `tooManyRedirects`, `redirectRefused` (another scheme, or
    ///   https to http) or `invalidResponse` (a `Location` that is not a URL).
    package static func next(after head: ResponseHead, of request: TransportRequest, hops: Int) throws(TransportError) -> TransportRequest? {
        guard request.options.followRedirects, isRedirect(head.status),
            let location = head.headers["Location"]
        else { return nil }
        guard hops < request.options.maxRedirects else {
            throw TransportError(
                .tooManyRedirects, message: "stopped after \(hops) redirects, the most this request follows (maxRedirects), at \(head.status)")
        }
        guard let target = RedirectLocation.resolve(location, against: request.url) else {
            throw TransportError(.invalidResponse, message: "the redirect's Location is not a URL")
        }
        let from = Origin(request.url), to = Origin(target)
        guard let to, to.scheme == "http" || to.scheme == "https" else {
            throw TransportError(.redirectRefused, message: "a redirect to a scheme other than http or https was not followed")
        }
        if from?.scheme == "https" && to.scheme == "http" {
            throw TransportError(.redirectRefused, message: "a redirect from https to http was not followed")
        }
        var next = request
        next.url = target
        let becomesGet = (head.status == 303 && request.method != .head) || ((head.status == 301 || head.status == 302) && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            next.mayBeSentTwice = true
            next.headers = HTTPHeaders(next.headers.filter { !bodyFields.contains($0.name.lowercased()) })
        } else if let body = next.body {
            guard body.isReplayable else { return nil }
            next.needsFreshConnection = true  // the redirecting server may have left the body unread and be closing
        }
        if from != to {
            guard next.method.isSafe else { return nil }
            next.body = nil
            next.headers = HTTPHeaders(next.headers.filter { crossOriginFields.contains($0.name.lowercased()) })
        }
        return next
    }
}
