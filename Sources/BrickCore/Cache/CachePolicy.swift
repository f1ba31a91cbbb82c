import FoundationEssentials

/// HTTP's caching rules for a private cache (RFC 9111), as pure functions of requests, responses and the
/// time: what may be stored, how long it stays fresh, how to revalidate it and how a `304` updates it.
enum CachePolicy {
    /// Statuses that are heuristically cacheable (RFC 9110 §15.1): stored without explicit freshness, and
    /// given a heuristic lifetime from `Last-Modified`. Any other final status is stored only with explicit
    /// freshness (`max-age`, `Expires`) or `public`. 206 is not stored: ranges are not combined here.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The statuses whose meaning this cache implements, for `must-understand` (RFC 9111 §5.2.2.3).
    static let understood: Set<Int> = heuristicallyCacheable.union([302, 303, 307])
    /// The longest heuristic freshness given to a response with only `Last-Modified` (RFC 9111 §4.2.2).
    static let heuristicCap: TimeInterval = 24 * 3600

    /// Fields that say who is asking: a response to a request that sent one of them belongs to that
    /// identity.
    static let credentialFields = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// Whether the answer `head` to `request` (as sent, after interceptors) may be stored (RFC 9111 §3): a
    /// GET, a final status (not 206), no `no-store` either side (with `must-understand`, a status the cache
    /// understands, whatever `no-store` says), no `Vary: *`, and explicit freshness, `public` or a
    /// heuristically cacheable status with a validator; no credentials sent unless the response is `public`. A session's
    /// cache serves every caller of the session, so an answer meant for one identity (a token, a cookie) must
    /// not be kept where the next caller, with another token or none, would be served it.
    static func isStorable(_ head: ResponseHead, for request: TransportRequest) -> Bool {
        guard request.method == .get, head.status >= 200, head.status <= 999, head.status != 304 else { return false }
        let response = CacheControl(head.headers)
        // First whether there is anything to store it for, which most answers settle: a heuristically
        // cacheable status with nothing to go on (no date to reckon from, no validator) would be stored only
        // to be fetched again, so it is not stored.
        guard response.maxAge != nil || response.isPublic || head.headers["Expires"] != nil
            || (heuristicallyCacheable.contains(head.status) && (head.headers["Last-Modified"] != nil || head.headers["ETag"] != nil))
        else { return false }
        if response.mustUnderstand {
            guard understood.contains(head.status) else { return false }
        } else {
            guard !response.noStore else { return false }
        }
        guard !CacheControl(request.headers).noStore else { return false }
        guard response.isPublic || !credentialFields.contains(where: { request.headers[$0] != nil }) else { return false }
        return !varyNames(head).contains("*")
    }

    /// The fields a stored response leaves out (RFC 9111 §3.1): the connection's own (`Connection`, those it
    /// names, and the other hop-by-hop fields), a cookie set for one caller (never handed to the next one
    /// the entry answers), and, for a body the transport decoded from a content coding, `Content-Encoding`
    /// and `Content-Length`, which describe the coded bytes, not the stored ones.
    static func fieldsNotStored(_ head: ResponseHead, decoded: Bool) -> Set<String> {
        var names: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "set-cookie"]
        for value in head.headers.values(for: "Connection") {
            for name in value.split(separator: ",") { names.insert(name.trimmingWhitespace.lowercased()) }
        }
        if decoded { names.formUnion(["content-encoding", "content-length"]) }
        return names
    }

    /// The fields named by `Vary`, lowercased.
    static func varyNames(_ head: ResponseHead) -> [String] {
        head.headers.values(for: "Vary").flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace.lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The request's values of the fields `head`'s `Vary` names, normalized (``normalizedValue(of:in:)``).
    static func varyingFields(of request: TransportRequest, for head: ResponseHead) -> [String: String] {
        Dictionary(varyNames(head).map { ($0, normalizedValue(of: $0, in: request.headers)) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `entry` may answer `request` at all (its `Vary` fields match).
    static func matches(_ entry: CachedResponse, _ request: TransportRequest) -> Bool {
        entry.varyingFields.allSatisfy { name, value in normalizedValue(of: name, in: request.headers) == value }
    }

    /// Every field named `name` (in any case) combined into one value as RFC 9110 §5.3 allows, each list
    /// member trimmed and runs of spaces and tabs made one space, so that `a,b`, `a, b` and two fields `a`
    /// and `b` select the same stored response (RFC 9111 §4.1).
    static func normalizedValue(of name: String, in headers: HTTPHeaders) -> String {
        headers.values(for: name).flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { member in member.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
            .joined(separator: ", ")
    }

    /// How long `entry` stays fresh after it was generated: `max-age`, else `Expires` − `Date` (an invalid
    /// date, or several `Expires` fields, meaning already expired), else, for a heuristically cacheable status,
    /// 10 % of the time since `Last-Modified` (at most a day), else zero.
    static func freshnessLifetime(_ entry: CachedResponse) -> TimeInterval {
        let head = entry.head
        if let maxAge = CacheControl(head.headers).maxAge { return TimeInterval(maxAge) }
        let date = head.headers["Date"].flatMap(HTTPDate.parse) ?? entry.responseTime
        let expires = head.headers.values(for: "Expires")
        if !expires.isEmpty {
            guard expires.count == 1, let expiry = HTTPDate.parse(expires[0]) else { return 0 }  // invalid: already expired
            return max(0, expiry.timeIntervalSince(date))
        }
        if heuristicallyCacheable.contains(entry.status), let modified = head.headers["Last-Modified"].flatMap(HTTPDate.parse) {
            return min(heuristicCap, max(0, date.timeIntervalSince(modified)) / 10)
        }
        return 0
    }

    /// How old `entry` is at `now` (RFC 9111 §4.2.3): its age when received, corrected for the time the
    /// request took, plus the time it has been stored.
    static func currentAge(_ entry: CachedResponse, now: Date) -> TimeInterval {
        let head = entry.head
        let date = head.headers["Date"].flatMap(HTTPDate.parse) ?? entry.responseTime
        // delta-seconds only (digits, capped at 2³¹ as RFC 9111 §1.2.2 says): a `9e999` is not an age. Of a
        // list (`7200, 0`) or several fields, the first value counts.
        let first = head.headers["Age"].flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).first }
        let ageValue = TimeInterval(first.map { CacheControl.deltaSeconds(String($0.trimmingWhitespace)) } ?? 0)
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let initialAge = max(apparentAge, ageValue + responseDelay)
        return initialAge + max(0, now.timeIntervalSince(entry.responseTime))
    }

    /// The head `entry` is served with at `now`: its stored fields, with `Age` set to its current age in
    /// whole seconds (RFC 9111 §4.2.3, §5.1).
    static func served(_ entry: CachedResponse, now: Date) -> ResponseHead {
        var head = entry.head
        head.headers["Age"] = String(Int(min(currentAge(entry, now: now), Double(1 << 31))))
        return head
    }

    /// Whether `entry`, stale at `now`, may still answer while it is revalidated in the background: its
    /// `stale-while-revalidate` time has not passed, and the request did not say `no-cache`.
    static func allowsStaleWhileRevalidate(_ entry: CachedResponse, for request: TransportRequest, now: Date) -> Bool {
        guard let window = CacheControl(entry.head.headers).staleWhileRevalidate else { return false }
        return isStaleWithin(TimeInterval(window), entry, for: request, now: now)
    }

    /// Whether `entry` may answer when the server failed or cannot be reached: its `stale-if-error` time has
    /// not passed, and the request did not say `no-cache`.
    static func allowsStaleIfError(_ entry: CachedResponse, for request: TransportRequest, now: Date) -> Bool {
        guard let window = CacheControl(entry.head.headers).staleIfError else { return false }
        return isStaleWithin(TimeInterval(window), entry, for: request, now: now)
    }

    private static func isStaleWithin(_ window: TimeInterval, _ entry: CachedResponse, for request: TransportRequest, now: Date) -> Bool {
        guard !CacheControl(request.headers).noCache, !CacheControl(entry.head.headers).mustRevalidate else { return false }
        return currentAge(entry, now: now) <= freshnessLifetime(entry) + window
    }

    /// Whether a failed attempt lets a stale response answer (RFC 5861 §4): no answer at all, or 500, 502,
    /// 503 or 504.
    static func isError(_ outcome: ResponseOutcome) -> Bool {
        switch outcome {
        case .success(let response): [500, 502, 503, 504].contains(response.status)
        case .failure(let error): error.response.map { [500, 502, 503, 504].contains($0.status) } ?? !error.isCancelled
        }
    }

    /// Whether `outcome` says the server could not be reached at all: no name, no route, no listener, no
    /// connection in time. Nothing was sent, and a server that is down looks so.
    static func couldNotReach(_ outcome: ResponseOutcome) -> Bool {
        guard case .failure(let error) = outcome, let kind = error.transportError?.kind else { return false }
        switch kind {
        case .cannotResolveHost, .networkUnreachable, .connectionRefused, .connectTimeout: return true
        default: return false
        }
    }

    /// Whether `entry` may answer `request` at `now` without asking the server.
    static func isFresh(_ entry: CachedResponse, for request: TransportRequest, now: Date) -> Bool {
        let asked = CacheControl(request.headers)
        let stored = CacheControl(entry.head.headers)
        guard !asked.noCache, !stored.noCache else { return false }
        let age = currentAge(entry, now: now)
        // An immutable response is not asked again while it is fresh, whatever age the request accepts.
        if let limit = asked.maxAge, age > TimeInterval(limit), !stored.immutable { return false }
        return freshnessLifetime(entry) > age
    }

    /// The URLs whose stored GET an answer `head` to the unsafe `request` invalidates (RFC 9111 §4.4): none
    /// for an error (a status outside 2xx and 3xx); else the request's URL, and the URLs of `Location` and
    /// `Content-Location` when they are of the request's origin.
    static func invalidated(by head: ResponseHead, of request: TransportRequest) -> [String] {
        guard (200..<400).contains(head.status) else { return [] }
        let origin = Origin(request.url)
        let named = ["Location", "Content-Location"].compactMap { head.headers[$0] }
            .compactMap { RedirectLocation.resolve($0, against: request.url) }.filter { Origin($0) == origin }
        return [request.url] + named
    }
}
