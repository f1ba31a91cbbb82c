public import BrickTransport

/// Where a session keeps the cookies servers set and finds those each request sends back: the session's
/// ``Session/Configuration/cookies``, asked on every hop of a call, redirects' too (``StageOrder/cookies``).
/// The library's store is `CookieJar` (the BrickCookies module, which `import BrickRequest` brings): the
/// core itself knows only this seam, so that a program that keeps no cookies links no cookie code and no
/// public suffix list.
public protocol CookieStore: Sendable {
    /// Adds the store's cookies for the request's URL to its `Cookie` field, after the caller's own.
    func attach(to request: inout TransportRequest)
    /// Keeps the cookies `head` sets, for the request to `url` that got it.
    func store(_ head: ResponseHead, from url: String)
}
