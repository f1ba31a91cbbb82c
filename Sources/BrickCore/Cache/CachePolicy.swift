import FoundationEssentials

/// HTTP's caching rules for a private cache (RFC 9111), as pure functions of requests, responses and the
/// time: what may be stored, how long it stays fresh, how to revalidate it and how a `304` updates it.
enum CachePolicy {
    /// Statuses cacheable without explicit freshness (RFC 9110 §15.1), when a validator or freshness is given.
    static let cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    /// The longest heuristic freshness given to a response with only `Last-Modified` (RFC 9111 §4.2.2).
    static let heuristicCap: TimeInterval = 24 * 3600

    /// Fields that say who is asking: a response to a request that sent one of them belongs to that
    /// identity.
    static let credentialFields = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// Whether the answer `head` to `request` (as sent, after interceptors) may be stored: a GET, a
    /// cacheable status, no `no-store` either side, no `Vary: *`, something to go on (freshness or a
    /// validator), and no credentials sent unless the response is `public`. A session's cache serves every
    /// caller of the session, so an answer meant for one identity (a token, a cookie) must not be kept
    /// where the next caller, with another token or none, would be served it.
    static func isStorable(_ head: ResponseHead, for request: TransportRequest) -> Bool {
        guard request.method == .get, cacheableStatuses.contains(head.status) else { return false }
        let response = CacheControl(head.headers)
        guard !response.noStore, !CacheControl(request.headers).noStore else { return false }
        guard response.isPublic || !credentialFields.contains(where: { request.headers[$0] != nil }) else { return false }
        guard !varyNames(head).contains("*") else { return false }
        return response.maxAge != nil || head.headers["Expires"] != nil || head.headers["ETag"] != nil
            || head.headers["Last-Modified"] != nil
    }

    /// The fields named by `Vary`, lowercased.
    static func varyNames(_ head: ResponseHead) -> [String] {
        head.headers.values(for: "Vary").flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace.lowercased() }
            .filter { !$0.isEmpty }
    }

    /// The request's values of the fields `head`'s `Vary` names.
    static func varyingFields(of request: TransportRequest, for head: ResponseHead) -> [String: String] {
        Dictionary(varyNames(head).map { ($0, request.headers[$0] ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `entry` may answer `request` at all (its `Vary` fields match).
    static func matches(_ entry: CachedResponse, _ request: TransportRequest) -> Bool {
        entry.varyingFields.allSatisfy { name, value in (request.headers[name] ?? "") == value }
    }

    /// How long `entry` stays fresh after it was generated: `max-age`, else `Expires` − `Date`, else 10 % of
    /// the time since `Last-Modified` (at most a day), else zero.
    static func freshnessLifetime(_ entry: CachedResponse) -> TimeInterval {
        let head = entry.head
        if let maxAge = CacheControl(head.headers).maxAge { return TimeInterval(maxAge) }
        let date = head.headers["Date"].flatMap(HTTPDate.parse) ?? entry.responseTime
        if let expires = head.headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }  // an invalid date means already expired
            return max(0, expiry.timeIntervalSince(date))
        }
        if let modified = head.headers["Last-Modified"].flatMap(HTTPDate.parse) {
            return min(heuristicCap, max(0, date.timeIntervalSince(modified)) / 10)
        }
        return 0
    }

    /// How old `entry` is at `now` (RFC 9111 §4.2.3): its age when received, corrected for the time the
    /// request took, plus the time it has been stored.
    static func currentAge(_ entry: CachedResponse, now: Date) -> TimeInterval {
        let head = entry.head
        let date = head.headers["Date"].flatMap(HTTPDate.parse) ?? entry.responseTime
        // delta-seconds only (digits, capped at 2³¹ as RFC 9111 §1.2.2 says): a `9e999` is not an age.
        let ageValue = TimeInterval(head.headers["Age"].map { CacheControl.deltaSeconds(String($0.trimmingWhitespace)) } ?? 0)
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let initialAge = max(apparentAge, ageValue + responseDelay)
        return initialAge + max(0, now.timeIntervalSince(entry.responseTime))
    }

    /// Whether `entry` may answer `request` at `now` without asking the server.
    static func isFresh(_ entry: CachedResponse, for request: TransportRequest, now: Date) -> Bool {
        let asked = CacheControl(request.headers)
        guard !asked.noCache, !CacheControl(entry.head.headers).noCache else { return false }
        let age = currentAge(entry, now: now)
        if let limit = asked.maxAge, age > TimeInterval(limit) { return false }
        return freshnessLifetime(entry) > age
    }

    /// The conditional fields that revalidate `entry`: `If-None-Match` with its `ETag`, and
    /// `If-Modified-Since` with its `Last-Modified`. Empty when it has neither.
    static func conditionalHeaders(for entry: CachedResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        let head = entry.head
        if let tag = head.headers["ETag"] { headers["If-None-Match"] = tag }
        if let modified = head.headers["Last-Modified"] { headers["If-Modified-Since"] = modified }
        return headers
    }

    /// `entry` updated by a `304` answer (RFC 9111 §4.3.4): the 304's fields replace stored ones of the
    /// same name (framing fields excepted) and the times are the revalidation's.
    static func refreshed(_ entry: CachedResponse, with notModified: ResponseHead, requestTime: Date, responseTime: Date) -> CachedResponse {
        var headers = entry.head.headers
        let framing: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        for field in notModified.headers where !framing.contains(field.name.lowercased()) { headers[field.name] = field.value }
        return CachedResponse(
            status: entry.status, headers: headers, body: entry.body, requestTime: requestTime, responseTime: responseTime,
            varyingFields: entry.varyingFields)
    }
}
