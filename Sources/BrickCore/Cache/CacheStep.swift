import FoundationEssentials

import BrickSystem

/// One GET's use of the session's cache, from the lookup before anything is sent to the store (or the
/// `304` swap) after each attempt: the cache stage makes it (``CachingResponses``), the cache validators'
/// stage uses it on each attempt (``ValidatingCachedResponses``). What changes is behind one lock.
final class CacheStep: Sendable {
    /// What the lookup found.
    enum Lookup {
        /// A stored response answers; nothing is sent.
        case answer(CachedResponse)
        /// A part of a stored response answers a `Range` request (a `206` made from it); nothing is sent.
        case answerPart(TransportResponse)
        /// A stale stored response answers now, and is revalidated in the background.
        case answerAndRevalidate(CachedResponse)
        /// A stale stored response answers now because the route to its host is down; it is revalidated once
        /// the route returns.
        case answerOffline(CachedResponse)
        /// ``CacheMode/cacheOnly`` and nothing stored.
        case notCached
        /// Send the request: each attempt gets the conditional fields of the stored response it revalidates,
        /// if any (``prepare(_:)``).
        case send
    }

    private let cache: any ResponseCache
    private let mode: CacheMode
    private let key: String
    /// Who the answers are for: the request's connection identity and Unix socket (``TransportOptions/identityOfAnswers``).
    private let identity: [String]?
    private struct State {
        var entry: CachedResponse?
        var sentAt = Date()
        var status = CacheStatus.miss
        /// Whether the last attempt's `304` matched no stored response, so that the request must go again
        /// without conditional fields (``takeRequestToAskAgain()``).
        var asksAgain = false
    }

    private let state: Locked<State>
    private var entry: CachedResponse? {
        get { state.withLock { $0.entry } }
        set { state.withLock { $0.entry = newValue } }
    }
    private var sentAt: Date {
        get { state.withLock { $0.sentAt } }
        set { state.withLock { $0.sentAt = newValue } }
    }
    /// What the cache did, so far.
    private(set) var status: CacheStatus {
        get { state.withLock { $0.status } }
        set { state.withLock { $0.status = newValue } }
    }
    private var asksAgain: Bool {
        get { state.withLock { $0.asksAgain } }
        set { state.withLock { $0.asksAgain = newValue } }
    }

    /// A step for `request`, or `nil` when the cache has no part in it (no cache, not a GET, or
    /// ``CacheMode/withoutCache``).
    init?(request: TransportRequest, mode: CacheMode, cache: (any ResponseCache)?) {
        guard let cache, request.method == .get, mode.contains(.cacheResponse) || mode.contains(.returnCachedResponse)
        else { return nil }
        self.cache = cache
        self.mode = mode
        self.key = Self.key(for: request.url, options: request.options)
        self.identity = request.options.identityOfAnswers
        state = Locked(State())
    }

    /// A step that revalidates `entry` in the background (after it answered stale): its `304` or new answer
    /// is stored.
    init(revalidating entry: CachedResponse, of request: TransportRequest, cache: any ResponseCache) {
        self.cache = cache
        self.mode = [.cacheResponse, .invokeRequest]
        self.key = Self.key(for: request.url, options: request.options)
        self.identity = request.options.identityOfAnswers
        state = Locked(State(entry: entry))
    }

    /// The key a GET of `url` with `options` is stored under: `GET` and the URL, and, when the options name
    /// a connection identity or a Unix socket (``TransportOptions/identityOfAnswers``: a client certificate,
    /// pins, a CA of its own, an explicit proxy), a SHA-256 digest of it. A server may answer each identity
    /// differently (an account behind a client certificate), so an answer made under one is never served to
    /// a request under another, nor to one under none; and the digest keeps the identity's secrets (a key's
    /// passphrase, a proxy's password) out of a key that a disk cache writes down.
    static func key(for url: String, options: TransportOptions) -> String {
        guard let identity = options.identityOfAnswers else { return "GET " + url }
        return "GET " + url + " identity:" + SHA256.hex(identity.joined(separator: "\u{0}").utf8).prefix(32)
    }

    /// Looks for a stored answer to `request` before anything is sent. A stale one answers at once when the
    /// server allowed it (`stale-while-revalidate`), or when `routeIsDown()` says the host cannot be reached
    /// and the server (`stale-if-error`) or the mode (``CacheMode/staleWhenOffline``) allows it.
    ///
    /// A request with preconditions of its own (`If-Match`, `If-None-Match`, `If-Modified-Since`,
    /// `If-Unmodified-Since`) is the caller's revalidation, not the cache's: it goes to the server as it is.
    func lookup(_ request: TransportRequest, routeIsDown: () async -> Bool) async -> Lookup {
        guard mode.contains(.returnCachedResponse) else { return .send }
        guard !CachePolicy.hasPreconditions(request) else { return mode.contains(.invokeRequest) ? .send : .notCached }
        entry = await cache.cachedResponse(for: key).flatMap { CachePolicy.matches($0, request) ? $0 : nil }
        if request.headers["Range"] != nil || entry?.status == 206 { return lookupPart(request) }
        guard mode.contains(.invokeRequest) else {
            guard let entry else { return .notCached }
            status = CachePolicy.isFresh(entry, for: request, now: Date()) ? .hit : .stale
            return .answer(entry)
        }
        guard let entry else { return .send }
        let now = Date()
        if CachePolicy.isFresh(entry, for: request, now: now) {
            status = .hit
            return .answer(entry)
        }
        if CachePolicy.allowsStaleWhileRevalidate(entry, for: request, now: now) {
            status = .stale
            return .answerAndRevalidate(entry)
        }
        if mode.contains(.staleWhenOffline) || CachePolicy.allowsStaleIfError(entry, for: request, now: now), await routeIsDown() {
            status = .stale
            return .answerOffline(entry)
        }
        return .send
    }

    /// The lookup of a `Range` request, or of any request while a part is stored: a fresh stored response
    /// that holds the whole range answers with a `206` cut from it. Anything else is sent as it is, without
    /// conditional fields (a `304` would say nothing of a range), and a stored part never answers a request
    /// for the whole. A range asked `If-Range` a validator is cut only from a stored response with that
    /// strong `ETag` (RFC 9110 §13.1.5); otherwise the server decides (it sends the whole, or the range of
    /// what it holds now).
    private func lookupPart(_ request: TransportRequest) -> Lookup {
        let now = Date()
        if let entry, CachePolicy.isFresh(entry, for: request, now: now), CachePolicy.ifRangeHolds(request, for: entry),
           let extent = PartialContent.extent(of: entry),
           let range = PartialContent.requested(by: request, length: extent.length),
           let answer = PartialContent.answer(range, from: entry, now: now) {
            status = .hit
            return .answerPart(answer)
        }
        entry = nil  // nothing to revalidate, and no stale answer from it
        return mode.contains(.invokeRequest) ? .send : .notCached
    }

    /// Readies an attempt's request: the conditional fields of the stored response it revalidates (none
    /// once a `304` matched no stored response), before interceptors see it.
    func prepare(_ request: inout TransportRequest) {
        guard let entry else { return }
        request.headers.merge(CachePolicy.conditionalHeaders(for: entry))
    }

    /// Notes that an attempt is about to be sent (the request time of what it brings back).
    func willSend() { sentAt = Date() }

    /// Whether the attempt that just ended must go again, without conditional fields (its `304` matched no
    /// stored response); asking resets it.
    func takeRequestToAskAgain() -> Bool {
        defer { asksAgain = false }
        return asksAgain
    }

    /// After an attempt: a `304` to a revalidation becomes the stored response (refreshed), and a storable
    /// answer is stored.
    nonisolated(nonsending) func absorb(_ outcome: ResponseOutcome, sent request: TransportRequest) async -> ResponseOutcome {
        let now = Date()
        if let entry, CachePolicy.isError(outcome),
           CachePolicy.allowsStaleIfError(entry, for: request, now: now) || mode.contains(.staleWhenOffline) && CachePolicy.couldNotReach(outcome) {
            // The server failed or could not be reached: the stale response it allowed answers, and in an
            // offline-first mode any stored one when the server could not be reached at all.
            status = .stale
            var stale = TransportResponse(head: CachePolicy.served(entry, now: now), body: entry.body)
            stale.call = CallLine(request)
            return .success(stale)
        }
        guard case .success(let response) = outcome else { return outcome }
        if response.status == 304, let entry {
            // RFC 9111 §4.3.4: a 304 whose validator is another representation's updates nothing; the
            // stored response is outdated, and the request goes again without conditional fields.
            guard CachePolicy.notModifiedMatches(response.head, entry) else {
                self.entry = nil
                asksAgain = true
                await cache.removeResponse(for: key)
                return .failure(.transport(TransportError(
                    .invalidResponse, message: "the server answered 304 Not Modified with a validator that matches no stored response")))
            }
            let refreshed = CachePolicy.refreshed(entry, with: response.head, requestTime: sentAt, responseTime: now)
            if mode.contains(.cacheResponse) { await cache.store(refreshed, for: key) }
            status = .revalidated
            // This caller is given what the 304 set for it (a cookie), which the stored response never keeps.
            var head = CachePolicy.served(refreshed, now: now)
            for cookie in response.head.headers.values(for: "Set-Cookie") { head.headers.add(name: "Set-Cookie", value: cookie) }
            var served = TransportResponse(head: head, body: refreshed.body, metrics: response.metrics)
            served.call = response.call
            return .success(served)
        }
        status = .miss
        // An interceptor that changed the request's identity after the lookup: the answer is not the key's.
        guard mode.contains(.cacheResponse), request.options.identityOfAnswers == identity,
            CachePolicy.isStorable(response.head, for: request)
        else { return outcome }
        // Whether the body was decoded is what the transport did, not what the names say (a coding it does
        // not know, or more of them than it decodes, leave the body as it came, with its `Content-Encoding`).
        let left = CachePolicy.fieldsNotStored(response.head, decoded: response.contentDecoded)
        let headers = HTTPHeaders(response.head.headers.filter { !left.contains($0.name.lowercased()) })
        let received = CachedResponse(
            status: response.status, headers: headers, body: response.body, requestTime: sentAt, responseTime: now,
            varyingFields: CachePolicy.varyingFields(of: request, for: response.head))
        if response.status == 206 {
            await storePart(received)
        } else {
            await cache.store(received, for: key)
        }
        return outcome
    }

    /// Stores a `206` (RFC 9111 §3.3, §3.4): joined to the part stored before when both are of the same
    /// representation, else alone; never in place of a stored complete response of the same representation,
    /// and never when its body does not fill its `Content-Range`.
    private nonisolated(nonsending) func storePart(_ part: CachedResponse) async {
        guard PartialContent.extent(of: part) != nil else { return }
        let stored = await cache.cachedResponse(for: key)
        if let stored, stored.status != 206, PartialContent.extent(of: stored) != nil, let tag = stored.headers["ETag"],
           !tag.hasPrefix("W/"), part.headers["ETag"] == tag, stored.varyingFields == part.varyingFields {
            return  // the whole is stored already
        }
        await cache.store(stored.flatMap { PartialContent.combined($0, with: part) } ?? part, for: key)
    }
}
